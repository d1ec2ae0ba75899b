"""The club's statistics of one finished game, per seat, from the game itself.

Pure: the numbers come from the engine's own game (rebuilt from a record, or a
table's game), never from re-implemented rules. Only scored hands count for the
bids (a hand cut short by an accusation, an abandon or a timeout has no score);
an accusation counts in the hand it was made.

- ``contracts``: hands in which the seat bid a number (not Nil) and its side
  therefore had a contract; ``contracts_made`` those in which the side took at
  least its contract (the tricks of its Nil bidders not counted, as scoring says).
- ``nil_bid``/``nil_made``, ``blind_nil_bid``/``blind_nil_made``: the seat's own
  Nil bids, and those it made (no trick taken).
- ``bags``: the bags the seat's side gained in the hand (overtricks, and a failed
  Nil's tricks where they count), for each seat of the side.
- ``tricks_over``/``tricks_under``: the side's tricks over or under its contract,
  counted like ``contracts`` (for each seat that bid a number).
- ``bostons``: hands in which the seat's side took every trick.
- ``reneges_accused``/``reneges_proven``: accusations of renege against the seat,
  and those found true.
- ``points``: the sum of the side's hand scores (bag penalties included).

>>> from espadas.engine.rules import Rules
>>> from espadas.engine.game import Game
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> game.abandon(1)
>>> [s.hands for s in seat_statistics(game)], seat_statistics(game)[0].won
([0, 0, 0, 0], 1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from espadas.engine.game import Game
from espadas.engine.scoring import explain_hand


@dataclass
class SeatStats:
    """One seat's numbers in one game (a sum of these is a player's statistics)."""

    games: int = 0
    won: int = 0
    hands: int = 0
    contracts: int = 0
    contracts_made: int = 0
    nil_bid: int = 0
    nil_made: int = 0
    blind_nil_bid: int = 0
    blind_nil_made: int = 0
    bags: int = 0
    tricks_over: int = 0
    tricks_under: int = 0
    bostons: int = 0
    reneges_accused: int = 0
    reneges_proven: int = 0
    points: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    def add(self, other: SeatStats) -> None:
        """Adds ``other``'s numbers to these."""
        for name in STAT_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))


STAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SeatStats))
"""The statistics' names, in the order of the API's ``stats`` object."""


def seat_statistics(game: Game) -> list[SeatStats]:
    """Each seat's numbers in ``game`` (``games`` is 1; ``won`` once it is over
    and the seat's side won: first in the final ranking)."""
    rules = game.rules
    n = rules.players
    stats = [SeatStats(games=1) for _ in range(n)]
    result = game.result
    for seat in range(n):
        side = rules.side_of(seat)
        stats[seat].won = int(result is not None and result.winner == side)
    bags_before = [0] * rules.sides
    for i, scored in enumerate(game.scored):
        hand = game.hands[i]
        bids = [0 if b is None else b for b in hand.bids]
        parts = explain_hand(rules, bids, hand.blind, hand.tricks, bags_before)
        for seat in range(n):
            side = rules.side_of(seat)
            part, one = parts[side], stats[seat]
            one.hands += 1
            one.points += scored.score.points[side]
            one.bags += part.new_bags
            one.bostons += int(scored.boston == side)
            if bids[seat] == 0:
                made = hand.tricks[seat] == 0
                if hand.blind[seat]:
                    one.blind_nil_bid += 1
                    one.blind_nil_made += int(made)
                else:
                    one.nil_bid += 1
                    one.nil_made += int(made)
            elif part.contract > 0:
                one.contracts += 1
                one.contracts_made += int(part.tricks >= part.contract)
                one.tricks_over += max(0, part.tricks - part.contract)
                one.tricks_under += max(0, part.contract - part.tricks)
        bags_before = list(scored.score.bags)
    for accusation in game.accusations.values():
        stats[accusation.against].reneges_accused += 1
        stats[accusation.against].reneges_proven += int(accusation.true)
    return stats


def stats_from_dict(data: dict[str, Any]) -> SeatStats:
    """The statistics of an API or database row (missing names count 0)."""
    return SeatStats(**{name: int(data.get(name) or 0) for name in STAT_FIELDS})
