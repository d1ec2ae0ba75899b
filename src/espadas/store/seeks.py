"""Seeks, durably (schema: ``lobby_seeks``): a table a person opened in the lobby
with conditions, that others accept by sitting at it.

One seek per person. Until someone accepts it, it lasts while a lobby socket of its
creator's vouches for them (:meth:`Seeks.vouch`, on every instance of one
database); :meth:`Seeks.expire` takes out those nobody vouched for since a moment.
Once accepted it no longer expires: its creator has gone to the table; its row
stays (to tell the creator's other tabs where to go) until they post another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.lobby_schema import lobby_seeks
from espadas.store.schema import tables


@dataclass(frozen=True)
class Seek:
    """A seek: its table, creator, quick-play rule set, ``live`` or ``days``,
    rated or not, the ratings accepted, and whether someone accepted it."""

    table_id: str
    creator: str
    rules: str
    turns: str
    rated: bool
    min_rating: int
    max_rating: int
    posted_at: datetime
    accepted: bool

    def public(self) -> dict[str, Any]:
        return {
            "table": self.table_id,
            "rules": self.rules,
            "turns": self.turns,
            "rated": self.rated,
            "min_rating": self.min_rating,
            "max_rating": self.max_rating,
            "accepted": self.accepted,
        }


def _seek(row: Any) -> Seek:
    return Seek(
        row.table_id,
        row.creator,
        row.rules,
        row.turns,
        bool(row.rated),
        int(row.min_rating),
        int(row.max_rating),
        datetime.fromisoformat(row.posted_at),
        bool(row.accepted),
    )


class Seeks:
    """The seeks of one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def post(self, seek: Seek) -> bool:
        """Keeps a new seek; ``False`` (nothing kept) if its creator has one."""
        row = seek.public() | {"creator": seek.creator}
        row |= {"table_id": row.pop("table"), "posted_at": seek.posted_at.isoformat()}
        row["seen_at"] = row["posted_at"]
        async with self.engine.begin() as conn:
            known = await conn.scalar(
                sa.select(lobby_seeks.c.table_id).where(lobby_seeks.c.creator == seek.creator)
            )
            if known is not None:
                return False
            await conn.execute(lobby_seeks.insert().values(**row))
        return True

    async def of(self, creator: str) -> Seek | None:
        """The creator's seek, if any."""
        return (await self.of_many([creator])).get(creator)

    async def of_many(self, creators: Sequence[str]) -> dict[str, Seek]:
        """The seeks of these people, by creator."""
        if not creators:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(lobby_seeks).where(lobby_seeks.c.creator.in_(list(creators)))
            )
            return {r.creator: _seek(r) for r in rows}

    async def get(self, table_id: str) -> Seek | None:
        """The seek of a table, if it is one."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(lobby_seeks).where(lobby_seeks.c.table_id == table_id))
            ).first()
        return None if row is None else _seek(row)

    async def listed(self, limit: int = 50) -> list[Seek]:
        """The seeks whose table still waits for players, oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(lobby_seeks)
                .join(tables, tables.c.id == lobby_seeks.c.table_id)
                .where(tables.c.status == "waiting")
                .order_by(lobby_seeks.c.posted_at, lobby_seeks.c.table_id)
                .limit(limit)
            )
            return [_seek(r) for r in rows]

    async def accepted(self, table_id: str) -> None:
        """Someone sat at the seek's table: it no longer expires."""
        async with self.engine.begin() as conn:
            await conn.execute(
                lobby_seeks.update().where(lobby_seeks.c.table_id == table_id).values(accepted=True)
            )

    async def remove(self, table_id: str) -> None:
        """The seek is over (filled, withdrawn or expired)."""
        async with self.engine.begin() as conn:
            await conn.execute(lobby_seeks.delete().where(lobby_seeks.c.table_id == table_id))

    async def withdraw(self, creators: Sequence[str]) -> list[str]:
        """Takes out these people's seeks nobody accepted: their tables."""
        if not creators:
            return []
        where = sa.and_(lobby_seeks.c.creator.in_(list(creators)), ~lobby_seeks.c.accepted)
        async with self.engine.begin() as conn:
            gone = [r.table_id for r in await conn.execute(sa.select(lobby_seeks).where(where))]
            await conn.execute(lobby_seeks.delete().where(where))
        return gone

    async def vouch(self, creators: Sequence[str], at: datetime) -> None:
        """These people still have a lobby socket open."""
        if not creators:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                lobby_seeks.update()
                .where(lobby_seeks.c.creator.in_(list(creators)))
                .values(seen_at=at.isoformat())
            )

    async def expire(self, before: datetime) -> list[str]:
        """Takes out the seeks nobody accepted whose creator no lobby socket vouched
        for since ``before``: their tables."""
        where = sa.and_(lobby_seeks.c.seen_at < before.isoformat(), ~lobby_seeks.c.accepted)
        async with self.engine.begin() as conn:
            gone = [r.table_id for r in await conn.execute(sa.select(lobby_seeks).where(where))]
            await conn.execute(lobby_seeks.delete().where(where))
        return gone
