"""Robots at tables think in a process pool, off the event loop, within a time limit.

:func:`decide` runs in a worker process: it gets a seat's view (never the
state) and returns the robot's action, with the faults of an external program
(which then made a legal move of its own instead).

A worker ends when the server that started it dies, even by ``kill -9``
(:func:`watch_parent`): Linux's parent-death signal where there is one, and a
thread that looks at the parent every second everywhere.
"""

from __future__ import annotations

import asyncio
import ctypes
import json
import multiprocessing
import os
import shlex
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

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


_FOUND: list[tuple[str, list[Any]] | None] = [None]
"""The decisions of the last game analysed in this worker (replaying a game to find
them costs about 50 ms; an analysis sends its parts one after another)."""

Judged = tuple[dict[str, Any], float | None]
"""One decision analysed: its entry of ``decisions`` in ``espadas-analysis/1``, and
its loss unrounded (for the summary)."""


def analyse_part(
    record: dict[str, Any], level: str, seed: int, budget_ms: float, start: int, stop: int
) -> tuple[int, list[Judged]]:
    """The number of decisions of every seat in ``record``, and decisions
    ``start:stop`` of them judged with ``budget_ms`` of search each (``level``
    names the analysis; the budget says how long it searches). The seeds depend
    on each decision's place only, so the parts together are the whole analysis."""
    from espadas.robots.analysis import decisions, judge, verdict_json

    key = json.dumps(record, sort_keys=True)
    cached = _FOUND[0]  # one reference read: threads (workers=0) may share it
    if cached is not None and cached[0] == key:
        found = cached[1]
    else:  # the game's decisions, found once per worker
        found = decisions(record)
        _FOUND[0] = (key, found)
    part = [judge(d, budget_ms, seed) for d in found[start:stop]]
    return len(found), [(verdict_json(v), v.loss) for v in part]


def warm_up() -> bool:
    """Loads the robots (and compiles the kernel) in a worker."""
    from espadas.robots.expert import warm_up as kernel_warm_up

    kernel_warm_up()
    return True


PR_SET_PDEATHSIG = 1
"""``prctl`` option (linux/prctl.h): the signal a process gets when its parent dies."""

PARENT_CHECK_S = 1.0
"""How often a worker's watch thread looks whether its parent is still there."""


def watch_parent(parent: int) -> None:
    """Initializer of each worker of the pool: the worker ends when ``parent`` (the
    server) does, instead of living on, re-parented to PID 1.

    On Linux the kernel sends SIGKILL to the worker when its parent dies
    (``prctl(PR_SET_PDEATHSIG)``; strictly, when the parent's thread that started
    the worker ends: the event loop's). Elsewhere, and as a second guard, a daemon
    thread compares ``os.getppid()`` with ``parent`` every :data:`PARENT_CHECK_S`
    and exits the process when they differ. A parent already gone (it died before
    this ran) ends the worker at once."""
    _death_signal()
    if os.getppid() != parent:  # died before the death signal was set: nobody sends it
        os._exit(0)
    watch = threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True)
    watch.start()


def _death_signal() -> None:
    """Asks Linux for SIGKILL when the parent dies (nothing elsewhere, or if refused)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the C library already loaded
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # no prctl here: the watch thread does it
        return


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


class Robots(Protocol):
    """Where robot decisions are made: this instance's pool, or a queue of workers."""

    async def decide(
        self, level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
    ) -> tuple[Action, list[str]]: ...

    async def analyse(
        self,
        record: dict[str, Any],
        level: str,
        seed: int,
        budget_ms: float,
        start: int,
        stop: int,
    ) -> tuple[int, list[Judged]]: ...

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
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=watch_parent,
            initargs=(os.getpid(),),
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

    async def analyse(
        self,
        record: dict[str, Any],
        level: str,
        seed: int,
        budget_ms: float,
        start: int,
        stop: int,
    ) -> tuple[int, list[Judged]]:
        """A part of a game's analysis (:func:`analyse_part`), in a worker."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self.executor, analyse_part, record, level, seed, budget_ms, start, stop
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
