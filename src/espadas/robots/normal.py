"""The ``normal`` robot: a rule-based player that people can trust as a partner.

It bids from a count of its hand (:mod:`espadas.robots.bidding`) and plays by the
habits of a careful club player with card memory (:mod:`espadas.robots.heuristics`):
it covers its partner's Nil, goes after the opponents' Nil, wins tricks cheaply
while the contract needs them and ducks the bags once it is made. It receives
only a view, never reneges, never accuses, and decides in well under a
millisecond or two. Its rng only breaks ties, so it is deterministic for a seed.

>>> import random
>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> robot = NormalRobot(random.Random(1))
>>> robot.act(game.view_for(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import random

from espadas.engine import BLIND_NIL, Action, Bid, Look, Play, PlayerView
from espadas.robots.bidding import choose_bid, wants_blind_nil
from espadas.robots.heuristics import choose_play


class NormalRobot:
    """The rule-based robot. ``rng`` breaks ties between equally good choices."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        """One of ``view.legal``: a bid, a look at a face-down hand, a card that
        follows the rules, or closing a finished hand."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if view.phase == "bidding":
            if view.held is None:
                if wants_blind_nil(view):
                    return Bid(BLIND_NIL)
                return next(a for a in view.legal if isinstance(a, Look))
            return Bid(choose_bid(view))
        if view.phase == "playing":
            return Play(choose_play(view, self.rng))
        return next(a for a in view.legal if not isinstance(a, (Bid, Play, Look)))
