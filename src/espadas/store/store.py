"""The store: tables' event logs and players, through SQLAlchemy Core (async).

One code path for SQLite (the default, a file; nothing to install) and
PostgreSQL. :meth:`Store.open` applies the Alembic migrations first.

Appending is optimistic: :meth:`Store.append` adds events after the version the
writer read; the primary key ``(table_id, seq)`` makes a second writer of the
same sequence numbers fail with :class:`Conflict`, and it then re-reads and
retries. An append is committed before it returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import (
    Callable,
    Sequence,
)
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from espadas.store.outbox import Outbox, add_notices
from espadas.store.schema import events, members, players, resume_links, tables
from espadas.tables.notice import Notice
from espadas.tables.table import Event

MIGRATIONS = Path(__file__).parent / "migrations"


CHANNEL = "espadas_tables"
"""The PostgreSQL channel on which every append is announced as ``TABLE:VERSION``."""


class Conflict(Exception):
    """Another writer appended to the table first: re-read it and try again."""


class UnknownTable(KeyError):
    """No table has this id."""


@dataclass(frozen=True)
class Player:
    """A person known by a signed cookie: an id and a display name."""

    id: str
    name: str


def async_url(url: str) -> str:
    """The SQLAlchemy async URL for ``url``.

    >>> async_url("sqlite:///data/espadas.db")
    'sqlite+aiosqlite:///data/espadas.db'
    >>> async_url("postgresql://localhost/test")
    'postgresql+asyncpg://localhost/test'
    """
    if url.startswith("sqlite:"):
        return "sqlite+aiosqlite:" + url.removeprefix("sqlite:")
    if url.startswith(("postgresql:", "postgres:")):
        return "postgresql+asyncpg:" + url.split(":", 1)[1]
    return url


@dataclass(frozen=True)
class _Append:
    """One append, run inside a transaction by :meth:`Store.append`."""

    table_id: str
    after: int
    new: tuple[Event, ...]
    status: str
    creator: str
    planned: tuple[Notice, ...]

    async def run(self, conn: AsyncConnection) -> bool:
        """Writes the events; False (and nothing written) if the table is not at
        version ``after`` (or, for a new table, already exists)."""
        new, last, table_id = self.new, self.new[-1], self.table_id
        if self.after == 0:
            exists = (
                await conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id))
            ).first()
            if exists is not None:
                return False
            await conn.execute(
                tables.insert().values(
                    id=table_id,
                    creator=self.creator,
                    status=self.status,
                    version=last.seq,
                    created_at=new[0].at.isoformat(),
                    updated_at=last.at.isoformat(),
                )
            )
        else:
            done = await conn.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.version == self.after)
                .values(status=self.status, version=last.seq, updated_at=last.at.isoformat())
            )
            if done.rowcount != 1:
                return False
        joined = [
            {"table_id": table_id, "player_id": e.data.get("player") or e.data["creator"]}
            for e in new
            if e.type in ("create", "sit")
        ]
        if joined:
            await conn.execute(members.insert(), joined)
        if self.planned:
            await add_notices(conn, self.planned)
        if conn.dialect.name == "postgresql":
            # delivered to every instance when this transaction commits
            await conn.execute(sa.select(sa.func.pg_notify(CHANNEL, f"{table_id}:{last.seq}")))
        await conn.execute(
            events.insert(),
            [
                {
                    "table_id": table_id,
                    "seq": e.seq,
                    "type": e.type,
                    "data": json.dumps(e.data, separators=(",", ":")),
                    "at": e.at.isoformat(),
                }
                for e in new
            ],
        )
        return True


def _upgrade(connection: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def new_token() -> str:
    """A URL-safe token of 192 random bits."""
    return secrets.token_urlsafe(24)


class Store:
    """Event logs and players in one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.outbox = Outbox(engine)
        self._players: dict[str, Player] = {}
        self._queue: list[tuple[_Append, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        """Notices, contacts, push subscriptions, modes and what people have seen."""

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connects to ``url`` (``sqlite:///FILE`` or ``postgresql://...``) and applies
        the migrations."""
        full = async_url(url)
        if full.startswith("sqlite"):
            # one connection, handed to one transaction at a time: SQLite has one
            # writer anyway, and waiting here is cheaper than its busy-retry sleeps
            engine = create_async_engine(full, pool_size=1, max_overflow=0, pool_timeout=60)
        else:
            engine = create_async_engine(full, pool_size=10, max_overflow=10)
        if full.startswith("sqlite"):
            sa_event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        store = cls(engine)
        async with engine.begin() as conn:
            if not full.startswith("sqlite"):
                # one instance migrates at a time (several may start together)
                await conn.execute(sa.text("SELECT pg_advisory_xact_lock(7710150)"))
            await conn.run_sync(_upgrade)
        return store

    async def close(self) -> None:
        await self.engine.dispose()

    @property
    def shared(self) -> bool:
        """Whether other instances may write to this database (PostgreSQL)."""
        return self.engine.dialect.name == "postgresql"

    async def listen(self, changed: Callable[[str, int], None]) -> None:
        """Calls ``changed(table_id, version)`` for every append made by any instance,
        until cancelled (PostgreSQL LISTEN/NOTIFY; reconnects after a failure)."""
        import asyncpg  # type: ignore[import-untyped]

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

        def on_notice(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            table_id, _, version = payload.rpartition(":")
            if table_id and version.isdigit():
                changed(table_id, int(version))

        delay = 0.5
        while True:
            try:
                conn = await asyncpg.connect(dsn)
            except (OSError, asyncpg.PostgresError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)
                continue
            delay = 0.5
            try:
                await conn.add_listener(CHANNEL, on_notice)
                while not conn.is_closed():
                    await asyncio.sleep(1)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()

    # -- players ------------------------------------------------------------------
    async def create_player(self, name: str, at: datetime) -> Player:
        player = Player(new_token(), name)
        async with self.engine.begin() as conn:
            await conn.execute(
                players.insert().values(id=player.id, name=name, created_at=at.isoformat())
            )
        return player

    async def player(self, player_id: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(players).where(players.c.id == player_id))).first()
        return None if row is None else Player(row.id, row.name)

    async def rename_player(self, player_id: str, name: str) -> None:
        self._players.pop(player_id, None)
        async with self.engine.begin() as conn:
            await conn.execute(players.update().where(players.c.id == player_id).values(name=name))

    async def resume_link(self, player_id: str, at: datetime) -> str:
        """A new private token that signs ``player_id`` in on another device."""
        token = new_token()
        async with self.engine.begin() as conn:
            await conn.execute(
                resume_links.insert().values(
                    token=token, player_id=player_id, created_at=at.isoformat()
                )
            )
        return token

    async def player_for_link(self, token: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(players)
                    .join(resume_links, resume_links.c.player_id == players.c.id)
                    .where(resume_links.c.token == token)
                )
            ).first()
        return None if row is None else Player(row.id, row.name)

    # -- event logs -----------------------------------------------------------------
    async def append(
        self,
        table_id: str,
        after: int,
        new: Sequence[Event],
        status: str,
        creator: str = "",
        planned: Sequence[Notice] = (),
    ) -> None:
        """Commits ``new`` (sequence numbers ``after + 1`` on) to the table's log,
        with the notices they make due (in the same transaction: a notice is never
        lost between a move and its sending, nor planned twice). ``after == 0``
        creates the table. Raises :class:`Conflict` if another writer got there
        first. Returns once the events are committed.

        On SQLite, appends that arrive together are committed together (group
        commit: one disk flush for many tables' moves); each still either lands
        whole or raises."""
        if not new:
            return
        if [e.seq for e in new] != list(range(after + 1, after + 1 + len(new))):
            raise ValueError("events must follow the table's version without gaps")
        write = _Append(table_id, after, tuple(new), status, creator, tuple(planned))
        if self.shared:
            try:
                async with self.engine.begin() as conn:
                    if not await write.run(conn):
                        raise Conflict(table_id)
            except IntegrityError as exc:
                raise Conflict(table_id) from exc
            return
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((write, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        if not await done:
            raise Conflict(table_id)

    async def _write_batches(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            results: list[bool] = []
            try:
                async with self.engine.begin() as conn:
                    for write, _ in batch:
                        results.append(await write.run(conn))
            except Exception as exc:  # nothing of this batch was committed
                for _, done in batch:
                    if not done.done():
                        done.set_exception(
                            Conflict(str(exc)) if isinstance(exc, IntegrityError) else exc
                        )
                continue
            for (_, done), ok in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(ok)

    async def events(self, table_id: str, after: int = 0) -> list[Event]:
        """The table's events with ``seq > after``, in order. Raises
        :class:`UnknownTable`."""
        async with self.engine.connect() as conn:
            return await _read_events(conn, table_id, after)

    async def version(self, table_id: str) -> int | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(tables.c.version).where(tables.c.id == table_id))
            ).first()
        return None if row is None else int(row.version)

    async def tables_with_status(self, *statuses: str) -> list[str]:
        """The ids of the tables in these states (to resume robots on start)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(tables.c.id).where(tables.c.status.in_(statuses)).order_by(tables.c.id)
            )
            return [r.id for r in rows]

    async def tables_of(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """The tables ``player_id`` created or sat at, newest first."""
        async with self.engine.connect() as conn:
            sat = sa.select(members.c.table_id).where(members.c.player_id == player_id)
            rows = await conn.execute(
                sa.select(tables)
                .where(tables.c.id.in_(sat))
                .order_by(tables.c.updated_at.desc())
                .limit(limit)
            )
            return [
                {"id": r.id, "status": r.status, "version": r.version, "updated_at": r.updated_at}
                for r in rows
            ]


async def _read_events(conn: AsyncConnection, table_id: str, after: int) -> list[Event]:
    rows = (
        await conn.execute(
            sa.select(events)
            .where(events.c.table_id == table_id, events.c.seq > after)
            .order_by(events.c.seq)
        )
    ).all()
    if not rows:
        known = (await conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id))).first()
        if known is None:
            raise UnknownTable(table_id)
    return [Event(r.seq, r.type, json.loads(r.data), datetime.fromisoformat(r.at)) for r in rows]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # durable before anyone is told, even on power loss
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
