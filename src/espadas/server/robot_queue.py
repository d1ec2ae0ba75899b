"""Robot decisions through a task queue (arq on Redis), for ``espadas worker``
processes that may run on other machines.

The hub asks :meth:`QueueRobots.decide` exactly as it asks the local
:class:`~espadas.server.robot_pool.RobotPool`; the view (never the state)
travels to a worker and the action comes back. A decision not answered in time
(a worker that died, none running) is replaced by a legal move by the hub, so
a table never waits on the queue.
"""

from __future__ import annotations

from typing import Any

from espadas.engine import Action, PlayerView
from espadas.server.robot_pool import Judged, analyse_part, decide

QUEUE = "espadas:robots"
"""The default queue name."""


async def decide_job(
    ctx: dict[str, Any],
    level: str,
    command: str | None,
    seed: int,
    budget_ms: float,
    view: PlayerView,
) -> tuple[Action, list[str]]:
    """What a worker runs for one decision."""
    return decide(level, command, seed, budget_ms, view)


async def analyse_job(
    ctx: dict[str, Any],
    record: dict[str, Any],
    level: str,
    seed: int,
    budget_ms: float,
    start: int,
    stop: int,
) -> tuple[int, list[Judged]]:
    """What a worker runs for a part of a game's analysis."""
    return analyse_part(record, level, seed, budget_ms, start, stop)


ANALYSIS_TIMEOUT_S = 120.0
"""How long a part of an analysis may take on the queue before it counts as failed."""


class QueueRobots:
    """Robot decisions sent to ``espadas worker`` processes through Redis."""

    def __init__(self, url: str, queue: str = QUEUE, timeout_s: float = 10.0) -> None:
        self.url = url
        self.queue = queue
        self.timeout_s = timeout_s
        self._redis: Any = None

    async def _pool(self) -> Any:
        if self._redis is None:
            from arq import create_pool
            from arq.connections import RedisSettings

            self._redis = await create_pool(
                RedisSettings.from_dsn(self.url), default_queue_name=self.queue
            )
        return self._redis

    async def decide(
        self, level: str, command: str | None, seed: int, budget_ms: float, view: PlayerView
    ) -> tuple[Action, list[str]]:
        redis = await self._pool()
        job = await redis.enqueue_job(
            "decide_job",
            level,
            command,
            seed,
            budget_ms,
            view,
            _expires=self.timeout_s,
        )
        if job is None:
            raise RuntimeError("the decision could not be queued")
        result: tuple[Action, list[str]] = await job.result(timeout=self.timeout_s)
        return result

    async def analyse(
        self,
        record: dict[str, Any],
        level: str,
        seed: int,
        budget_ms: float,
        start: int,
        stop: int,
    ) -> tuple[int, list[Judged]]:
        redis = await self._pool()
        job = await redis.enqueue_job(
            "analyse_job",
            record,
            level,
            seed,
            budget_ms,
            start,
            stop,
            _expires=ANALYSIS_TIMEOUT_S,
        )
        if job is None:
            raise RuntimeError("the analysis could not be queued")
        result: tuple[int, list[Judged]] = await job.result(timeout=ANALYSIS_TIMEOUT_S)
        return result

    async def warm_up(self) -> None:
        await self._pool()

    def close(self) -> None:
        redis, self._redis = self._redis, None
        if redis is not None:
            import asyncio

            task = asyncio.get_event_loop().create_task(redis.aclose())
            _CLOSING.add(task)
            task.add_done_callback(_CLOSING.discard)


_CLOSING: set[Any] = set()


def worker_settings(url: str, queue: str = QUEUE) -> dict[str, Any]:
    """The arq worker's settings: one decision at a time per process."""
    from arq.connections import RedisSettings

    return {
        "functions": [decide_job, analyse_job],
        "redis_settings": RedisSettings.from_dsn(url),
        "queue_name": queue,
        "max_jobs": 1,
        "job_timeout": 60,
        "max_tries": 1,
        "handle_signals": True,
    }
