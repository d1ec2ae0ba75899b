"""Robots at tables think in a process pool, off the event loop, within a time limit.

:func:`decide` runs in a worker process: it gets a seat's view (never the
state) and returns the robot's action. :func:`fallback` is the legal move made
in place of a robot that failed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor

from espadas.engine import Action, Bid, Look, Play, PlayerView


def decide(
    level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
) -> Action:
    """The action of robot ``level`` (or of the external ``command``) for ``view``."""
    from espadas.robots.registry import make_robot

    if command is not None:
        import shlex

        from espadas.robots.external import ExternalRobot

        external = ExternalRobot(shlex.split(command), timeout=budget_ms / 1000 + 5)
        try:
            return external.act(view)
        finally:
            external.close()
    return make_robot(level, seed, budget_ms=budget_ms).act(view)


def warm_up() -> bool:
    """Loads the robots (and compiles the kernel) in a worker."""
    from espadas.robots.kernel import warm_up as kernel_warm_up

    kernel_warm_up()
    return True


def fallback(view: PlayerView) -> Action:
    """A legal move for a robot that failed: look at a face-down hand, bid the
    smallest non-Nil bid, or play the lowest proper card.

    >>> from espadas.engine import Game, Rules
    >>> game = Game.new(Rules(), seed=1)
    >>> fallback(game.view_for(game.to_act))
    Bid(value=1)
    """
    if view.phase == "playing":
        proper = list(view.proper_plays)
        return Play(min(proper or [a.card for a in view.legal if isinstance(a, Play)]))
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if any(isinstance(a, Look) for a in view.legal) or not bids:
        return Look(view.seat)
    numbers = sorted(b.value for b in bids if isinstance(b.value, int))
    positive = [n for n in numbers if n > 0]
    return Bid(positive[0] if positive else numbers[0])


class RobotPool:
    """A process pool for robot decisions (``workers=0``: in threads, for tests)."""

    def __init__(self, workers: int) -> None:
        self.executor: Executor | None = None
        if workers > 0:
            self.executor = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )

    async def decide(
        self, level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
    ) -> Action:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.executor, decide, level, command, seed, budget_ms, view
        )

    async def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.executor, warm_up)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
