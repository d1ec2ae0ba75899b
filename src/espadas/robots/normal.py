"""The ``normal`` robot (placeholder: random until the rule-based player lands)."""

from __future__ import annotations

import random

from espadas.engine import Action, PlayerView
from espadas.robots.random_robot import RandomRobot


class NormalRobot:
    def __init__(self, rng: random.Random) -> None:
        self._random = RandomRobot(rng)

    def act(self, view: PlayerView) -> Action:
        return self._random.act(view)
