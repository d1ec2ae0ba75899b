"""A robot that picks at random among the actions open to it.

It never reneges (RULES.md section 5: robots never renege) and never accuses.
In blind-nil games it may look at its cards or bid blind nil, at random.
Asked to explain, it lists every action it chose among, with no points (it
weighs nothing), and the reason ``random``.

>>> import random
>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> robot = RandomRobot(random.Random(1))
>>> robot.act(game.view_for(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import random

from espadas.engine import Action, Play, PlayerView
from espadas.robots.explain import Candidate, Explanation


def following(view: PlayerView, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """The actions without reneges: plays are kept only when they are among the
    seat's proper plays (in renege-allowed games ``view.legal`` also holds cards
    that do not follow suit)."""
    return tuple(a for a in actions if not isinstance(a, Play) or a.card in view.proper_plays)


class RandomRobot:
    """Chooses uniformly among the legal actions (reneges left out) with its own rng."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        return self.explain(view).action

    def explain(self, view: PlayerView) -> Explanation:
        """The action :meth:`act` takes, among every proper action, none with points."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        among = following(view, view.legal)
        action = self.rng.choice(among)
        return Explanation(action, tuple(Candidate(a) for a in among), "random")
