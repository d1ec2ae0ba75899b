"""The ``normal`` robot: a rule-based player that people can trust as a partner.

It bids from a count of its hand (:mod:`espadas.robots.bidding`) and plays by the
habits of a careful club player with card memory (:mod:`espadas.robots.heuristics`):
it covers its partner's Nil, goes after the opponents' Nil, wins tricks cheaply
while the contract needs them and ducks the bags once it is made. It receives
only a view, never reneges, never accuses, and decides in well under a
millisecond or two. Its rng only breaks ties, so it is deterministic for a seed.

:meth:`NormalRobot.explain` says which habit chose (``second_hand_low``,
``cover_overtake``, ``duck_under``, ``bid_count``, …; see
:mod:`espadas.robots.explain`). ``normal`` itself estimates no points: the points
of the candidates it lists come from a short ``experto`` search of the same view
(:data:`~espadas.robots.explain.ESTIMATE_BUDGET_MS`), made only when asked to
explain, so ``act`` stays as fast as ever and the habit, not those points,
chooses the action.

>>> import random
>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> robot = NormalRobot(random.Random(1))
>>> robot.act(game.view_for(game.to_act)) in game.legal_actions()
True
>>> NormalRobot(random.Random(1)).explain(game.view_for(game.to_act), points=False).reason
'bid_count'
"""

from __future__ import annotations

import random

from espadas.engine import BLIND_NIL, Action, Bid, Look, Play, PlayerView
from espadas.robots.bidding import bid_and_reason, wants_blind_nil
from espadas.robots.explain import (
    ESTIMATE_BUDGET_MS,
    Candidate,
    Explanation,
    Param,
    face_down_choices,
)
from espadas.robots.heuristics import play_and_reason

ESTIMATE_SEED = 0
"""The seed of the search that puts points on ``normal``'s candidates: a fresh search
each time, so the points depend on the view alone."""


class NormalRobot:
    """The rule-based robot. ``rng`` breaks ties between equally good choices."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        """One of ``view.legal``: a bid, a look at a face-down hand, a card that
        follows the rules, or closing a finished hand."""
        return self._decide(view)[0]

    def explain(self, view: PlayerView, *, points: bool = True) -> Explanation:
        """The action :meth:`act` takes and the habit that chose it. With ``points``
        the candidates are those a short ``experto`` search weighs, with the points
        it expects of each (``normal``'s own action always among them); without,
        only the action, with no points."""
        action, reason, params = self._decide(view)
        cands: tuple[Candidate, ...] = (Candidate(action),)
        if view.phase == "bidding" and view.held is None:
            cands = tuple(Candidate(a) for a in face_down_choices(view))
        elif points and isinstance(action, (Bid, Play)) and len(view.legal) > 1:
            cands = self._estimates(view, action)
        return Explanation(action, cands, reason, params)

    def _decide(self, view: PlayerView) -> tuple[Action, str, dict[str, Param]]:
        """The action, the reason key and its parameters."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if view.phase == "bidding":
            if view.held is None:
                if wants_blind_nil(view):
                    return Bid(BLIND_NIL), "blind_nil", {}
                return next(a for a in view.legal if isinstance(a, Look)), "look", {}
            bid, why, params = bid_and_reason(view)
            if sum(isinstance(a, Bid) for a in view.legal) == 1:
                why = "only_bid"
            return Bid(bid), why, dict(params)
        if view.phase == "playing":
            card, why = play_and_reason(view, self.rng)
            return Play(card), why, {}
        return (
            next(a for a in view.legal if not isinstance(a, (Bid, Play, Look))),
            "only_action",
            {},
        )

    def _estimates(self, view: PlayerView, action: Action) -> tuple[Candidate, ...]:
        """The candidates of a short ``experto`` search, with ``action`` standing for
        the candidate it is equivalent to (a card of the same run) or added without
        points when the search did not weigh it."""
        from espadas.robots.expert import ExpertRobot

        estimator = ExpertRobot(ESTIMATE_SEED, budget_ms=ESTIMATE_BUDGET_MS)
        found = estimator.explain(view)
        cands = list(found.candidates)
        if not any(c.action == action for c in cands):
            at = _equivalent(cands, action)
            if at is None:
                cands.append(Candidate(action))
            else:
                cands[at] = Candidate(action, cands[at].points)
        return tuple(cands)


def _equivalent(cands: list[Candidate], action: Action) -> int | None:
    """The index of the card that stands for ``action`` among searched candidates:
    the highest card of its suit below it (the search keeps the lowest card of each
    run of equivalent cards). None for a bid, or when there is none."""
    if not isinstance(action, Play):
        return None
    card = int(action.card)
    below = [
        (int(c.action.card), i)
        for i, c in enumerate(cands)
        if isinstance(c.action, Play) and int(c.action.card) // 13 == card // 13
    ]
    below = [(c, i) for c, i in below if c < card]
    return max(below)[1] if below else None
