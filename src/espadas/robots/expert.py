"""The ``experto`` and ``omnisciente`` robots (placeholder: random until the search lands)."""

from __future__ import annotations

import random

from espadas.engine import Action, PlayerView
from espadas.robots.random_robot import RandomRobot


class ExpertRobot:
    def __init__(self, seed: int, budget_ms: float | None = None) -> None:
        self._random = RandomRobot(random.Random(seed))

    def act(self, view: PlayerView) -> Action:
        return self._random.act(view)


class OmniscientRobot(ExpertRobot):
    sees_all = True
