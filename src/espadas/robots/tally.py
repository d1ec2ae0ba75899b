"""What one robot of an arena match did: its :class:`Tally` over the plays, and the
per-robot part of a match summary.

Counted for each side a robot holds in each play of each deal:

- contracts (the side's bids other than Nil, when there are any) and contracts made;
- Nil bids (blind or not) and Nils made; a Nil **lost by the partner** (see
  :mod:`espadas.robots.cover`), counted among the Nil bids made where the bidder has
  a partner;
- blind nil: the seats it was offered to, the blind nil bids and those made, all
  three also for the seats whose side was **behind** at the start of the hand
  (see :mod:`espadas.robots.standing`);
- bags taken, decision times (ms of wall time per ``act`` call) and faults.

>>> t = Tally(seats=4, blind_offered=4, blind_bids=1, blind_made=1)
>>> u = Tally(seats=4, blind_offered=2)
>>> t.merge(u)
>>> t.seats, t.blind_offered, t.blind_bids
(8, 6, 1)
>>> robot_summary({"A": t, "B": u})["blind_nil_bid_pct"]
{'A': 16.67, 'B': 0.0}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from espadas.engine import Hand
from espadas.robots.cover import blind_nil_offers, lost_by_partner
from espadas.robots.stats import percentile


@dataclass
class Tally:
    """What one robot (role) did over some plays; ``sides`` counts the sides (a
    partnership, or one player) it held in one play of one deal, ``seats`` the
    seats."""

    sides: int = 0
    seats: int = 0
    contracts: int = 0
    made: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    nil_partnered: int = 0
    nil_lost_by_partner: int = 0
    blind_offered: int = 0
    blind_bids: int = 0
    blind_made: int = 0
    behind_offered: int = 0
    behind_blind_bids: int = 0
    behind_blind_made: int = 0
    bags: int = 0
    faults: int = 0
    times_ms: list[float] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        """Adds ``other`` into this tally."""
        for f in fields(self):
            mine = getattr(self, f.name)
            if isinstance(mine, list):
                mine.extend(getattr(other, f.name))
            else:
                setattr(self, f.name, mine + getattr(other, f.name))

    def count_side(self, hand: Hand, side: int, bags: int, behind: bool) -> None:
        """Counts one side of a finished ``hand`` that this robot held; ``bags`` the
        bags it took, ``behind`` whether it started the hand behind."""
        rules = hand.rules
        seats = rules.seats_of(side)
        bids = [b if b is not None else 0 for b in hand.bids]
        tricks = hand.tricks
        self.sides += 1
        self.seats += len(seats)
        self.bags += bags
        contract = sum(bids[s] for s in seats if bids[s] > 0)
        if contract > 0:
            self.contracts += 1
            if sum(tricks[s] for s in seats if bids[s] > 0) >= contract:
                self.made += 1
        offers = blind_nil_offers(hand)
        for s in seats:
            blind = hand.blind[s]
            if offers[s]:
                self.blind_offered += 1
                self.behind_offered += behind
            if blind:
                self.blind_bids += 1
                self.behind_blind_bids += behind
                if tricks[s] == 0:
                    self.blind_made += 1
                    self.behind_blind_made += behind
            if bids[s] != 0:
                continue
            self.nil_bids += 1
            self.nil_made += tricks[s] == 0
            if rules.partner_of(s) is not None:
                self.nil_partnered += 1
                self.nil_lost_by_partner += lost_by_partner(hand, s)


def pct(part: int, whole: int) -> float | None:
    """``part`` in per cent of ``whole``, to 2 decimals; ``None`` when ``whole`` is 0."""
    return round(100 * part / whole, 2) if whole else None


def decision_ms(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p95 and max of decision times (``None`` for no decisions)."""
    if not values:
        return {"p50": None, "p95": None, "max": None}
    return {
        "p50": round(percentile(values, 50), 3),
        "p95": round(percentile(values, 95), 3),
        "max": round(max(values), 3),
    }


def blind_counts(t: Tally, *, behind: bool) -> dict[str, int]:
    """Blind nil offered, bid and made at the seats whose side started the hand
    behind (``behind=True``) or not."""
    if behind:
        return {
            "offered": t.behind_offered,
            "bids": t.behind_blind_bids,
            "made": t.behind_blind_made,
        }
    return {
        "offered": t.blind_offered - t.behind_offered,
        "bids": t.blind_bids - t.behind_blind_bids,
        "made": t.blind_made - t.behind_blind_made,
    }


def robot_summary(tallies: Mapping[str, Tally]) -> dict[str, Any]:
    """The per-robot keys of ``espadas match --json``, each ``{role: value}``."""

    def per(get: Callable[[Tally], Any]) -> dict[str, Any]:
        return {role: get(t) for role, t in tallies.items()}

    return {
        "contracts": per(lambda x: x.contracts),
        "made_pct": per(lambda x: pct(x.made, x.contracts)),
        "nil_bids": per(lambda x: x.nil_bids),
        "nil_pct": per(lambda x: pct(x.nil_made, x.nil_bids)),
        "nil_partner_faults": per(lambda x: x.nil_lost_by_partner),
        "nil_partner_fault_pct": per(lambda x: pct(x.nil_lost_by_partner, x.nil_partnered)),
        "blind_nil_offered": per(lambda x: x.blind_offered),
        "blind_nil_bids": per(lambda x: x.blind_bids),
        "blind_nil_bid_pct": per(lambda x: pct(x.blind_bids, x.blind_offered)),
        "blind_nil_per_hand_pct": per(lambda x: pct(x.blind_bids, x.seats)),
        "blind_nil_pct": per(lambda x: pct(x.blind_made, x.blind_bids)),
        "blind_nil_behind": per(lambda x: blind_counts(x, behind=True)),
        "blind_nil_not_behind": per(lambda x: blind_counts(x, behind=False)),
        "bags_per_hand": per(lambda x: round(x.bags / x.sides, 3) if x.sides else None),
        "decision_ms": per(lambda x: decision_ms(x.times_ms)),
        "faults": per(lambda x: x.faults),
    }
