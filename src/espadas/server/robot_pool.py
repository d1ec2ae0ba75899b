"""Robots at tables think in a process pool, off the event loop, within a time limit.

:func:`decide` runs in a worker process: it gets a seat's view (never the
state) and returns the robot's action, with the faults of an external program
(which then made a legal move of its own instead).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import shlex
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from espadas.engine import Action, PlayerView


def decide(
    level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
) -> tuple[Action, list[str]]:
    """The action of robot ``level`` (or of the external ``command``) for ``view``,
    and the faults the external program made on the way."""
    if command is not None:
        from espadas.robots.external import ExternalRobot

        with ExternalRobot(shlex.split(command), timeout=budget_ms / 1000 + 2) as robot:
            action = robot.act(view)
            return action, list(robot.fault_log)
    from espadas.robots.registry import make_robot

    return make_robot(level, seed, budget_ms=budget_ms).act(view), []


def warm_up() -> bool:
    """Loads the robots (and compiles the kernel) in a worker."""
    from espadas.robots.expert import warm_up as kernel_warm_up

    kernel_warm_up()
    return True


class Robots(Protocol):
    """Where robot decisions are made: this instance's pool, or a queue of workers."""

    async def decide(
        self, level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
    ) -> tuple[Action, list[str]]: ...

    async def warm_up(self) -> None: ...

    def close(self) -> None: ...


class RobotPool:
    """A process pool for robot decisions (``workers=0``: in threads, for tests)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.executor: Executor | None = self._new_executor()

    def _new_executor(self) -> Executor | None:
        if self.workers <= 0:
            return None
        return ProcessPoolExecutor(
            max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
        )

    async def decide(
        self, level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
    ) -> tuple[Action, list[str]]:
        """The robot's decision, from a worker. A pool whose worker died is
        replaced (this decision fails; the next one runs in the new pool)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self.executor, decide, level, command, seed, budget_ms, view
            )
        except BrokenProcessPool:
            self.close()
            self.executor = self._new_executor()
            raise

    async def warm_up(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.executor, warm_up)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
