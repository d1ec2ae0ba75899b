"""The analyst: runs the analysis of finished games in the robot workers,
never on the event loop, and keeps each one with its table.

An analysis covers every seat's decisions (after the game everyone sees every
hand, and so every seat's analysis). It is claimed in the store first
(:meth:`~espadas.store.analyses.Analyses.claim`): asking twice, here or on
another instance, does not run it twice. Claimed analyses wait in this
instance's queue (at most :attr:`Settings.analyses_waiting`); at most
:attr:`Settings.analyses_running` run at once, each sending
:data:`PART` decisions at a time to a robot worker, so a robot at a table never
waits long behind an analysis and other workers stay free. The progress is
written to the store after each part (other instances read it there); the
result is the ``espadas-analysis/1`` object, the same as ``espadas analyze
--json --seed 1`` with the site's search budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from espadas.robots.analysis import FORMAT, MARKS, THRESHOLDS
from espadas.robots.registry import MAESTRO_FACTOR
from espadas.server.errors import ApiError
from espadas.server.robot_pool import Judged, Robots
from espadas.server.settings import Settings
from espadas.store.analyses import ACTIVE
from espadas.store.outbox import stamp
from espadas.store.store import Store, new_token

log = logging.getLogger("espadas.analyst")

PART = 8
"""Decisions sent to a worker at a time."""
SEED = 1
"""The analysis seed (``espadas analyze``'s default)."""
STALE = timedelta(seconds=90)
"""An active analysis untouched this long was left by an instance that stopped:
a new request runs it again."""


@dataclass
class Job:
    """An analysis waiting or running here."""

    table_id: str
    level: str
    record: dict[str, Any]


def summary(entries: list[Judged], seats: int) -> dict[str, Any]:
    """The ``summary`` of ``espadas-analysis/1`` from the judged decisions (as
    :func:`espadas.robots.analysis.summary` makes it from its verdicts)."""
    out: dict[str, Any] = {}
    for seat in range(seats):
        mine = [(entry, loss) for entry, loss in entries if entry["seat"] == seat]
        losses = [loss for _, loss in mine if loss is not None]
        out[str(seat)] = {
            "decisions": len(mine),
            "average_loss": round(sum(losses) / len(losses), 2) if losses else None,
            "marks": {m: sum(1 for entry, _ in mine if entry["mark"] == m) for m in MARKS},
        }
    return out


class Analyst:
    """This instance's queue of analyses and the tasks that run them."""

    def __init__(self, store: Store, robots: Robots, settings: Settings) -> None:
        self.store = store
        self.robots = robots
        self.settings = settings
        self.owner = new_token()
        """This instance, as the store's ``owner`` of the analyses it runs."""
        self.waiting: deque[Job] = deque()
        self._runners: set[asyncio.Task[None]] = set()

    def budget_ms(self, level: str) -> float:
        """The search per decision at ``level``."""
        factor = MAESTRO_FACTOR if level == "maestro" else 1
        return self.settings.analysis_budget_ms * factor

    async def start(self, table_id: str, level: str, record: dict[str, Any]) -> dict[str, Any]:
        """Starts the analysis of a finished game unless it is done or under way
        (here or elsewhere); answers its state. Refused (503 ``analysis_busy``)
        when the queue is full."""
        stored = await self.store.analyses.read(table_id, level)
        if stored is not None and not self._open(stored.status, stored.updated_at):
            return await self.state(table_id, level)
        if len(self.waiting) >= self.settings.analyses_waiting:
            raise ApiError(503, "analysis_busy")
        now = self.settings.clock.now()
        if await self.store.analyses.claim(table_id, level, self.owner, now, now - STALE):
            self.waiting.append(Job(table_id, level, record))
            self._wake()
        return await self.state(table_id, level)

    def _open(self, status: str, updated_at: str) -> bool:
        """Whether a stored analysis may be started again: failed, or left active."""
        return status == "failed" or (status in ACTIVE and self._stale(updated_at))

    def _stale(self, updated_at: str) -> bool:
        return updated_at < stamp(self.settings.clock.now() - STALE)

    async def state(self, table_id: str, level: str) -> dict[str, Any]:
        """``status`` (``none``, ``queued``, ``running``, ``done``, ``failed``), the
        decisions ``done`` of ``total``, ``percent``, the place in this
        instance's queue (``waiting``, 0 when next) and, once done, the
        ``analysis``."""
        stored = await self.store.analyses.read(table_id, level)
        out: dict[str, Any] = {
            "status": "none",
            "level": level,
            "done": 0,
            "total": 0,
            "percent": 0,
            "waiting": None,
            "thresholds": THRESHOLDS,
            "analysis": None,
        }
        if stored is None:
            return out
        status = stored.status
        if status in ACTIVE and self._stale(stored.updated_at):
            status = "failed"  # its instance stopped: ask again
        out["status"] = status
        out["done"], out["total"] = stored.done, stored.total
        if stored.total:
            out["percent"] = min(100, stored.done * 100 // stored.total)
        if status == "done":
            out["percent"] = 100
            out["analysis"] = stored.data
        key = (table_id, level)
        places = [i for i, j in enumerate(self.waiting) if (j.table_id, j.level) == key]
        if status == "queued" and places:
            out["waiting"] = places[0]
        return out

    def _wake(self) -> None:
        while self.waiting and len(self._runners) < self.settings.analyses_running:
            task = asyncio.create_task(self._run_queue())
            self._runners.add(task)
            task.add_done_callback(self._runners.discard)

    async def _run_queue(self) -> None:
        while self.waiting:
            job = self.waiting.popleft()
            try:
                await self._run(job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the analysis of table %s failed", job.table_id)
                with contextlib.suppress(Exception):
                    now = self.settings.clock.now()
                    await self.store.analyses.fail(job.table_id, job.level, self.owner, now)

    async def _run(self, job: Job) -> None:
        analyses = self.store.analyses
        budget = self.budget_ms(job.level)
        entries: list[Judged] = []
        total = None
        while total is None or len(entries) < total:
            start = len(entries)
            total, part = await self.robots.analyse(
                job.record, job.level, SEED, budget, start, start + PART
            )
            entries += part
            now = self.settings.clock.now()
            await analyses.progress(job.table_id, job.level, self.owner, len(entries), total, now)
        seats = len(job.record["players"])
        data = {
            "format": FORMAT,
            "decisions": [entry for entry, _ in entries],
            "summary": summary(entries, seats),
        }
        await analyses.finish(job.table_id, job.level, self.owner, data, self.settings.clock.now())

    async def close(self) -> None:
        """Stops the analyses running here (their rows go stale: asked again later,
        they run again)."""
        self.waiting.clear()
        for task in list(self._runners):
            task.cancel()
        for task in list(self._runners):
            with contextlib.suppress(BaseException):
                await task
