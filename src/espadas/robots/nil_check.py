"""How often a Nil is made when ``normal`` plays every seat: the check that keeps the
analysis (:mod:`espadas.robots.analysis`) from calling a number bid a mistake
"against Nil" on the word of the search alone.

The search's play-outs (:mod:`espadas.robots.kernel`) play every seat with one
fast policy that sees every sampled hand and plays a share of random cards: it
judges a Nil loosely, and often too kindly. Here each sampled deal is played
through the engine instead, every seat by the ``normal`` robot
(:mod:`espadas.robots.normal`) from its own view alone: the Nil bidder ducks as
``normal`` ducks, its partner covers as ``normal`` covers, and the opponents go
after the Nil as ``normal`` does (its leads into the Nil, keeping the Nil
bidder's card winning). The bids already made stand; the seat bids Nil (blind
nil before looking); the seats still to bid bid as ``normal`` bids seeing that
Nil. A hand is played until the Nil bidder takes a trick (the Nil failed) or to
its end (made).

>>> import numpy as np
>>> from espadas.engine import CardSet, Game, Rules
>>> game = Game(Rules.from_preset("pagat"), first_dealer=3)
>>> hands = ("2345.2345.234.23", "AKQJ.AKQJ.AKQ.AK", "T987.T987.T98.T9", "6.6.765J.QJ87654")
>>> deal = [int(CardSet.parse(h)) for h in hands]
>>> game.deal(deal)
>>> view = game.view_for(0)
>>> nil_chance(view, np.array([deal]), np.ones(1), seed=1)
1.0
"""

from __future__ import annotations

import random

import numpy as np

from espadas.engine import BLIND_NIL, Game, Look, PlayerView
from espadas.robots.normal import NormalRobot

NIL_DEALS = 64
"""Sampled deals played out for one check (a chance near one half is then known
within about 6 points of percentage, one standard error)."""


def nil_chance(
    view: PlayerView,
    deals: np.ndarray,
    weights: np.ndarray,
    seed: int,
    *,
    blind: bool = False,
) -> float:
    """The weighted share of ``deals`` (int64[rows, seats], every seat's cards now;
    nothing played yet) in which ``view.seat``'s Nil (blind nil with ``blind``) is
    made, every seat played by ``normal`` (see the module). ``view`` is the seat's
    view at its turn to bid."""
    rules = view.rules
    n = rules.players
    made = 0.0
    for i, row in enumerate(deals.tolist()):
        robots = [NormalRobot(random.Random(f"{seed}:{i}:{s}")) for s in range(n)]
        game = Game(rules, first_dealer=view.dealer)
        game.scores = list(view.scores)
        game.bags = list(view.bags)
        game.deal(row)
        while game.phase == "bidding":
            seat = game.to_act
            assert seat is not None
            bid = view.bids[seat]
            if seat == view.seat:
                if not blind:
                    game.look(seat)
                game.bid(BLIND_NIL if blind else 0)
            elif bid is not None:
                if bid != BLIND_NIL:
                    game.look(seat)
                game.bid(bid)
            else:
                action = robots[seat].act(game.view_for(seat))
                if isinstance(action, Look):
                    game.look(seat)
                    action = robots[seat].act(game.view_for(seat))
                game.apply(action, by=seat)
        hand = game.hand
        while game.phase == "playing" and hand.tricks[view.seat] == 0:
            seat = game.to_act
            assert seat is not None
            game.apply(robots[seat].act(game.view_for(seat)), by=seat)
        if hand.tricks[view.seat] == 0:
            made += float(weights[i])
    return made / max(float(weights.sum()), 1e-12)
