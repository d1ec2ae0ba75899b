"""Robots by the names users see: ``aleatorio``, ``normal``, ``experto`` — plus
``maestro`` (``experto`` with :data:`MAESTRO_FACTOR` times its budget: analysis and
arena only), ``omnisciente`` (arena only) and ``cmd:PROGRAM ARGS`` (an external program that
speaks ``espadas-robot/1``).

>>> robot = make_robot("aleatorio", seed=1)
>>> type(robot).__name__
'RandomRobot'
"""

from __future__ import annotations

import random
import shlex
import shutil

from espadas.robots.base import Robot

LEVELS = ("aleatorio", "normal", "experto")
"""The levels a table may offer."""
ARENA_LEVELS = (*LEVELS, "maestro", "omnisciente")
"""The levels the arena accepts (``omnisciente`` sees every hand)."""
ANALYSIS_LEVELS = ("experto", "maestro")
"""The searches ``espadas analyze`` offers."""
MAESTRO_FACTOR = 4
"""``maestro`` is ``experto`` with this many times its search budget: too slow for a
table, meant for the analysis of games and the arena."""


class UnknownRobot(ValueError):
    """A robot name that is neither a level nor ``cmd:PROGRAM``."""


def make_robot(
    name: str, seed: int, *, arena: bool = False, budget_ms: float | None = None
) -> Robot:
    """A fresh robot. ``seed`` makes it deterministic; ``arena`` allows ``omnisciente``
    and ``cmd:`` programs; ``budget_ms`` is the time per decision of ``experto``
    (``maestro`` gets :data:`MAESTRO_FACTOR` times as much)
    (and the answer limit of a ``cmd:`` program)."""
    rng = random.Random(seed)
    if name == "aleatorio":
        from espadas.robots.random_robot import RandomRobot

        return RandomRobot(rng)
    if name == "normal":
        from espadas.robots.normal import NormalRobot

        return NormalRobot(rng)
    if name == "experto":
        from espadas.robots.expert import ExpertRobot

        return ExpertRobot(seed, budget_ms=budget_ms)
    if name == "maestro" and arena:
        from espadas.robots.expert import ExpertRobot
        from espadas.robots.expert.robot import DEFAULT_BUDGET_MS

        return ExpertRobot(seed, budget_ms=(budget_ms or DEFAULT_BUDGET_MS) * MAESTRO_FACTOR)
    if name == "omnisciente" and arena:
        from espadas.robots.expert import OmniscientRobot

        return OmniscientRobot(seed, budget_ms=budget_ms)
    if name.startswith("cmd:") and arena:
        from espadas.robots.external import ExternalRobot

        argv = shlex.split(name[4:])
        if not argv:
            raise UnknownRobot("cmd: needs a program, as in cmd:python3 my_robot.py")
        if shutil.which(argv[0]) is None:  # else every decision would be a fault
            raise UnknownRobot(f"cmd: no program {argv[0]!r} (not on PATH, or not executable)")
        return ExternalRobot(argv, timeout=(budget_ms or 5000) / 1000)
    allowed = (*ARENA_LEVELS, "cmd:PROGRAM") if arena else LEVELS
    raise UnknownRobot(f"unknown robot {name!r}; choose one of {', '.join(allowed)}")
