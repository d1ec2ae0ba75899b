"""Analyses of finished games kept with their table: one row per table
and level, claimed by the server instance that runs it, its progress, and the
``espadas-analysis/1`` JSON once done.

A claim is what makes "asking twice does not run twice" hold across instances:
the row's primary key ``(table_id, level)`` lets one claim in; a later one only
takes over a row that failed, or one whose owner stopped touching it (its
``updated_at`` older than the ``stale`` time given: that instance died).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.outbox import stamp
from espadas.store.schema import analyses

ACTIVE = ("queued", "running")
"""The states of an analysis that an instance is (or was) working on."""


@dataclass(frozen=True)
class Analysis:
    """A stored analysis: its ``status`` (``queued``, ``running``, ``done``,
    ``failed``), ``done`` of ``total`` decisions judged, the JSON ``data`` once
    done, the ``owner`` instance and when it was last touched (a stamp)."""

    table_id: str
    level: str
    status: str
    done: int
    total: int
    data: dict[str, Any] | None
    owner: str
    updated_at: str


def _key(table_id: str, level: str) -> sa.ColumnElement[bool]:
    return sa.and_(analyses.c.table_id == table_id, analyses.c.level == level)


class Analyses:
    """The analyses, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def read(self, table_id: str, level: str) -> Analysis | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(analyses).where(_key(table_id, level)))).first()
        if row is None:
            return None
        return Analysis(
            row.table_id,
            row.level,
            row.status,
            row.done,
            row.total,
            None if row.data is None else json.loads(row.data),
            row.owner,
            row.updated_at,
        )

    async def claim(
        self, table_id: str, level: str, owner: str, at: datetime, stale: datetime
    ) -> bool:
        """Makes ``owner`` the one to run the analysis (``queued``): a new row, or
        a failed one, or one left active but untouched since before ``stale``.
        False when it is done, or another instance has it in hand."""
        values = {"status": "queued", "done": 0, "total": 0, "data": None, "owner": owner}
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    analyses.insert().values(
                        table_id=table_id,
                        level=level,
                        created_at=stamp(at),
                        updated_at=stamp(at),
                        **values,
                    )
                )
            return True
        except IntegrityError:
            pass
        left = sa.or_(
            analyses.c.status == "failed",
            sa.and_(analyses.c.status.in_(ACTIVE), analyses.c.updated_at < stamp(stale)),
        )
        async with self.engine.begin() as conn:
            taken = await conn.execute(
                analyses.update()
                .where(_key(table_id, level), left)
                .values(updated_at=stamp(at), **values)
            )
        return bool(taken.rowcount == 1)

    async def progress(
        self, table_id: str, level: str, owner: str, done: int, total: int, at: datetime
    ) -> None:
        """``done`` of ``total`` decisions judged; the owner's queued rows are touched
        too (they are still waiting on a live instance)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                analyses.update()
                .where(_key(table_id, level), analyses.c.owner == owner)
                .values(status="running", done=done, total=total, updated_at=stamp(at))
            )
            await conn.execute(
                analyses.update()
                .where(analyses.c.owner == owner, analyses.c.status == "queued")
                .values(updated_at=stamp(at))
            )

    async def finish(
        self, table_id: str, level: str, owner: str, data: dict[str, Any], at: datetime
    ) -> None:
        """The analysis done: its JSON kept."""
        total = len(data.get("decisions", []))
        async with self.engine.begin() as conn:
            await conn.execute(
                analyses.update()
                .where(_key(table_id, level), analyses.c.owner == owner)
                .values(
                    status="done",
                    done=total,
                    total=total,
                    data=json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                    updated_at=stamp(at),
                )
            )

    async def fail(self, table_id: str, level: str, owner: str, at: datetime) -> None:
        """The analysis failed (a worker died): a later request may run it again."""
        async with self.engine.begin() as conn:
            await conn.execute(
                analyses.update()
                .where(_key(table_id, level), analyses.c.owner == owner)
                .values(status="failed", updated_at=stamp(at))
            )
