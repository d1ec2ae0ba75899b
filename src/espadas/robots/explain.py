"""What a robot says about a decision: an :class:`Explanation`.

Every robot level answers ``explain(view)`` with the action it takes (the same one
``act`` takes for the same view and seed), the candidate actions it weighed, each
with the points it expects for its side when it has an estimate, and the reason
for the choice as a key of the catalog (``ui.explain.<reason>`` in
``src/espadas/i18n/{es,en}.json``) with the parameters its text needs:

- ``aleatorio`` weighs nothing: every proper action, no points, reason ``random``;
- ``normal`` chooses by habit (``second_hand_low``, ``cover_overtake``,
  ``duck_under``, …); it computes no points of its own, so the points of its
  candidates are those of a short ``experto`` search (:data:`ESTIMATE_BUDGET_MS`);
- ``experto`` (and ``omnisciente``) gives the values its own search computed: the
  expected score difference at the end of the hand, its side's points minus the
  others' (bags at −10 each, the game's end counted), and says whether the search
  overruled the habit of ``normal`` or kept it.

The robots layer holds keys only; :func:`espadas.i18n.reason_text` says them in
Spanish or English.

>>> from espadas.engine import Bid
>>> e = Explanation(Bid(3), (Candidate(Bid(3), 41.25), Candidate(Bid(4), 12.0)), "search_best")
>>> e.best().action, e.points_of(Bid(4)), e.points_of(Bid(9))
(Bid(value=3), 12.0, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from espadas.engine import BLIND_NIL, Action, Bid, Look, PlayerView

ESTIMATE_BUDGET_MS = 20.0
"""The search budget (ms) with which ``normal``'s candidates get their points."""

Param = str | int | float
"""A parameter of a reason's text."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """An action a robot weighed and the points it expects for its side with it
    (``None`` when the robot has no estimate)."""

    action: Action
    points: float | None = None


@dataclass(frozen=True, slots=True)
class Explanation:
    """A decision: the ``action`` taken, the ``candidates`` weighed (best first when
    they have points), the ``reason`` (a key of :data:`REASONS`) and its ``params``.
    ``habit`` is the reason of the habit of ``normal`` that ``experto`` kept or
    overruled (``None`` for the other levels)."""

    action: Action
    candidates: tuple[Candidate, ...]
    reason: str
    params: Mapping[str, Param] = field(default_factory=dict)
    habit: str | None = None

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise UnknownReason(f"{self.reason!r} is not a reason a robot gives")
        if self.habit is not None and self.habit not in REASONS:
            raise UnknownReason(f"{self.habit!r} is not a reason a robot gives")

    def points_of(self, action: Action) -> float | None:
        """The points expected with ``action``, if it is a candidate with points."""
        return next((c.points for c in self.candidates if c.action == action), None)

    def best(self) -> Candidate:
        """The candidate with the most points (the first one when none has points)."""
        scored = [c for c in self.candidates if c.points is not None]
        if not scored:
            return self.candidates[0]
        return max(scored, key=lambda c: c.points if c.points is not None else 0.0)


class UnknownReason(ValueError):
    """A reason key that the catalog does not know."""


class Explainer(Protocol):
    """A robot that can say why it acts: ``explain(view).action == act(view)`` for a
    robot of the same seed in the same state."""

    def explain(self, view: PlayerView) -> Explanation:
        """The decision for ``view``, with what was weighed and why."""
        ...


def ranked(candidates: Iterable[Candidate]) -> tuple[Candidate, ...]:
    """The candidates best first (most points; ties keep their order)."""
    return tuple(sorted(candidates, key=lambda c: -(c.points or 0.0)))


def unweighed(
    action: Action,
    reason: str,
    params: Mapping[str, Param] | None = None,
    *,
    among: Iterable[Action] = (),
) -> Explanation:
    """A decision taken without estimates: ``action`` (and the other actions it was
    chosen ``among``, when given), none with points."""
    others = [a for a in among if a != action]
    cands = tuple(Candidate(a) for a in (action, *others))
    return Explanation(action, cands, reason, dict(params or {}))


def face_down_choices(view: PlayerView) -> tuple[Action, ...]:
    """What a seat whose hand is still face down weighs: looking, or blind nil."""
    return tuple(a for a in (Look(view.seat), Bid(BLIND_NIL)) if a in view.legal)


def searched(
    chosen: Action,
    guide: Action,
    weighed: Iterable[tuple[Action, float]],
    habit: str,
    params: Mapping[str, Param],
    reason: str | None = None,
) -> Explanation:
    """``experto``'s decision: ``chosen`` among the ``weighed`` actions (with the
    points its search expects of each), ``guide`` the action of ``normal``'s
    ``habit``; the reason says whether the search kept that habit or overruled it,
    unless ``reason`` is given (``search_nil_edge``: a Nil not far enough ahead)."""
    if reason is None:
        reason = "search_keeps_habit" if chosen == guide else "search_best"
    cands = ranked(Candidate(a, p) for a, p in weighed)
    return Explanation(chosen, cands, reason, dict(params), habit)


PLAY_REASONS = (
    "only_card",
    "nil_lead_low",
    "nil_under",
    "nil_forced_last",
    "nil_forced_hope",
    "cover_overtake",
    "cover_high",
    "cover_lead",
    "bust_under",
    "bust_low",
    "bust_lead",
    "duck_under",
    "duck_win_anyway",
    "duck_overtakable",
    "duck_lead",
    "partner_winning",
    "overtake_partner",
    "cannot_win",
    "win_last",
    "win_sure",
    "second_hand_low",
    "third_hand_high",
    "low_no_chance",
    "draw_trumps",
    "every_trick_master",
    "cash_winner",
    "lead_partner_ruff",
    "shorten_for_ruff",
    "force_master",
    "lead_strength",
)
"""Why ``normal`` plays a card (:mod:`espadas.robots.heuristics`)."""

BID_REASONS = (
    "bid_nil",
    "bid_suicide_nil",
    "bid_count",
    "bid_bags",
    "bid_cover_nil",
    "bid_table_total",
    "blind_nil",
    "look",
    "only_bid",
)
"""Why ``normal`` bids (:mod:`espadas.robots.bidding`) or looks at its cards."""

SEARCH_REASONS = ("search_best", "search_keeps_habit", "search_nil_edge", "equivalent_cards")
"""Why ``experto`` chooses: its search's best, the habit the search cannot beat, or
its best number where the search does not put a Nil far enough ahead."""

OTHER_REASONS = ("random", "only_action", "blind_guess")
"""``aleatorio``'s reason, an action that is the only one (closing a hand), and the
bid ``espadas robot`` gives for a robot that wants to look at cards it cannot see."""

REASONS = (*PLAY_REASONS, *BID_REASONS, *SEARCH_REASONS, *OTHER_REASONS)
"""Every reason a robot gives; each has a text ``ui.explain.<reason>`` in both languages."""
