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
import sqlite3
from collections.abc import (
    Callable,
    Sequence,
)
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from espadas.store.accounts import Accounts, NameTaken, name_key
from espadas.store.analyses import Analyses
from espadas.store.appends import (
    CHANNEL,
    MOVE_ONE,
    Append,
    CoreRows,
    Mixed,
    SqliteRows,
    heard,
    move_one_params,
    write_all,
)
from espadas.store.challenge_ratings import ChallengeRatings
from espadas.store.challenges import Challenges
from espadas.store.checkpoints import SAFETY_PAGES, Checkpointer
from espadas.store.club_reads import ClubReads
from espadas.store.lobby import Lobby
from espadas.store.outbox import Outbox
from espadas.store.passkeys import Passkeys
from espadas.store.resume_links import ResumeLinks
from espadas.store.schema import events, members, players, tables
from espadas.store.seeks import Seeks
from espadas.store.sessions import Sessions
from espadas.tables.event import Event
from espadas.tables.finish import FinishedGame
from espadas.tables.names import FORMER
from espadas.tables.notice import Notice

MIGRATIONS = Path(__file__).parent / "migrations"


class Conflict(Exception):
    """Another writer appended to the table first: re-read it and try again."""


class UnknownTable(KeyError):
    """No table has this id."""


@dataclass(frozen=True)
class Player:
    """A person known by a signed cookie: an id and a display name."""

    id: str
    name: str


PLAYERS_KEPT = 100_000
"""Players kept in memory (the copy is dropped whole when it grows beyond)."""


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
        """Notices, contacts, push subscriptions, modes and what people have seen."""
        self.links = ResumeLinks(engine)
        """Resume links (kept as hashes, revocable) and their uses."""
        self.analyses = Analyses(engine)
        """Analyses of finished games, one per table and level."""
        self.sessions = Sessions(engine)
        """Each device signed in (revocable)."""
        self.accounts = Accounts(engine)
        """E-mail sign-in links, a person's data, deleting an account."""
        self.passkeys = Passkeys(engine)
        """WebAuthn credentials and challenges."""
        self.challenges = Challenges(engine)
        """The daily challenges, their attempts and results."""
        self.challenge_ratings = ChallengeRatings(engine, self.challenges)
        """The challenge rating (each closed day counted once)."""
        self.club = ClubReads(engine)
        """The club's profiles, histories and leaderboards."""
        self.lobby = Lobby(engine)
        self.seeks = Seeks(engine)
        """The quick-play queue, the tables listed as open, blocks."""
        self._players: dict[str, Player] = {}
        self._single = (
            engine.execution_options(isolation_level="AUTOCOMMIT")
            if engine.dialect.name == "postgresql"
            else engine
        )
        """Where one statement runs on its own: on PostgreSQL outside an explicit
        transaction (no BEGIN and COMMIT round trips; the statement is atomic)."""
        self._queue: list[tuple[Append, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._path = engine.url.database if engine.dialect.name == "sqlite" else None
        """SQLite: appends are written by plain (blocking) :mod:`sqlite3` calls on
        a connection of their own, in a thread of their own, a whole batch at a
        time (the other work goes through the async engine)."""
        self._raw: sqlite3.Connection | None = None
        self._thread = (
            None
            if self._path is None
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="espadas-appends")
        )
        self._checkpoints = None if self._path is None else Checkpointer(self._path)
        """SQLite: the log copied into the database file off the appends' path."""

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
            # connections kept open: opening one costs more than many statements
            engine = create_async_engine(full, pool_size=20, max_overflow=10)
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
        if self._writer is not None:
            with contextlib.suppress(BaseException):
                await self._writer
        if self._thread is not None:
            if self._raw is not None:
                self._thread.submit(self._raw.close).result()
            self._thread.shutdown()
        if self._checkpoints is not None:
            self._checkpoints.close()
        await self.engine.dispose()

    @property
    def shared(self) -> bool:
        """Whether other instances may write to this database (PostgreSQL)."""
        return self.engine.dialect.name == "postgresql"

    async def listen(self, changed: Callable[[str, int, list[Event] | None], None]) -> None:
        """Calls ``changed(table_id, version, events)`` for every append made by any
        instance, until cancelled (PostgreSQL LISTEN/NOTIFY; reconnects after a
        failure). ``events`` are the appended events, or None when the announcement
        was too long to carry them."""
        import asyncpg  # type: ignore[import-untyped]

        dsn = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

        def on_notice(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            announced = heard(payload)
            if announced is not None:
                changed(*announced)

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
    async def create_player(self, name: str, at: datetime, unique: bool = True) -> Player:
        """A new player called ``name``. With ``unique`` (the server's
        ``unique_names``), raises :class:`NameTaken` when someone has the name in
        any case."""
        player = Player(new_token(), name)
        key = self._key(name, unique)
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    players.insert().values(
                        id=player.id, name=name, created_at=at.isoformat(), name_key=key
                    )
                )
        except IntegrityError:
            raise NameTaken(name) from None
        self._players[player.id] = player
        return player

    @staticmethod
    def _key(name: str, unique: bool) -> str | None:
        key = name_key(name)
        if key == name_key(FORMER):
            raise NameTaken(name)
        return key if unique else None

    async def player(self, player_id: str) -> Player | None:
        """The player, from memory after the first read (a rename or a deletion
        through this instance updates the copy); None for a deleted account."""
        known = self._players.get(player_id)
        if known is not None:
            return known
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(players).where(players.c.id == player_id))).first()
        if row is None or row.deleted_at is not None:
            return None
        if len(self._players) >= PLAYERS_KEPT:
            self._players.clear()
        player = self._players[player_id] = Player(row.id, row.name)
        return player

    async def rename_player(self, player_id: str, name: str, unique: bool = True) -> None:
        """Renames ``player_id``; with ``unique``, raises :class:`NameTaken` when
        someone else has the name in any case (their own name in another case is
        fine)."""
        self._players.pop(player_id, None)
        key = self._key(name, unique)
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    players.update()
                    .where(players.c.id == player_id)
                    .values(name=name, name_key=key)
                )
        except IntegrityError:
            raise NameTaken(name) from None

    async def delete_player(self, player_id: str, at: datetime) -> list[str]:
        """Deletes the account (see :meth:`Accounts.delete`); answers the tables
        whose logs changed."""
        changed = await self.accounts.delete(player_id, at)
        self._players.pop(player_id, None)
        return changed

    async def resume_link(self, player_id: str, at: datetime, replace: bool = False) -> str:
        """A new private token that signs ``player_id`` in on another device
        (with ``replace``, their earlier links are revoked); see :attr:`links`."""
        return await self.links.create(player_id, at, replace)

    async def player_for_link(self, token: str) -> Player | None:
        """Whose valid (not revoked) resume link ``token`` is."""
        owner = await self.links.owner(token)
        if owner is None or owner.revoked_at is not None:
            return None
        return await self.player(owner.player_id)

    # -- event logs -----------------------------------------------------------------
    async def append(
        self,
        table_id: str,
        after: int,
        new: Sequence[Event],
        status: str,
        creator: str = "",
        planned: Sequence[Notice] = (),
        turn: int = 0,
        finished: FinishedGame | None = None,
    ) -> None:
        """Commits ``new`` (sequence numbers ``after + 1`` on) to the table's log,
        with the notices they make due (in the same transaction: a notice is never
        lost between a move and its sending, nor planned twice). ``after == 0``
        creates the table. Raises :class:`Conflict` if another writer got there
        first. Returns once the events are committed. ``finished``: the game these
        events end, counted for the club (ratings, statistics) in the same
        transaction (see :mod:`espadas.store.club_writes`).

        On SQLite, appends that arrive together are committed together (group
        commit: one disk flush for many tables' moves); each still either lands
        whole or raises."""
        if not new:
            return
        if [e.seq for e in new] != list(range(after + 1, after + 1 + len(new))):
            raise ValueError("events must follow the table's version without gaps")
        write = Append(table_id, after, tuple(new), status, creator, tuple(planned), turn, finished)
        if self.shared and after > 0 and finished is None:
            try:
                async with self._single.connect() as conn:
                    moved = (await conn.execute(MOVE_ONE, move_one_params(write))).first()
            except IntegrityError as exc:
                raise Conflict(table_id) from exc
            if moved is None:
                raise Conflict(table_id)
            return
        if self.shared:
            try:
                async with self.engine.begin() as conn:
                    if not (await conn.run_sync(lambda c: write_all(CoreRows(c), [write])))[0]:
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
            writes = [write for write, _ in batch]
            results: list[bool] = []
            try:
                loop = asyncio.get_running_loop()
                results = await loop.run_in_executor(self._thread, self._write_batch, writes)
            except Exception as exc:  # nothing of this batch was committed
                for _, done in batch:
                    if not done.done():
                        done.set_exception(
                            Conflict(str(exc)) if isinstance(exc, IntegrityError) else exc
                        )
                continue
            if self._checkpoints is not None:
                self._checkpoints.due()
            for (_, done), ok in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(ok)

    def _write_batch(self, writes: list[Append]) -> list[bool]:
        """Commits a batch, in the appends' own thread (see :func:`write_all`)."""
        if self._raw is None:
            assert self._path is not None
            self._raw = sqlite3.connect(self._path, isolation_level=None)
            _sqlite_pragmas(self._raw, None)
            self._raw.execute("PRAGMA wal_autocheckpoint=0")  # see espadas.store.checkpoints
        conn = self._raw
        rows = SqliteRows(conn)
        for one_by_one in (False, True):
            conn.execute("BEGIN IMMEDIATE")
            try:
                if one_by_one:
                    results = [write_all(rows, [w])[0] for w in writes]
                else:
                    results = write_all(rows, writes)
            except Mixed:
                conn.execute("ROLLBACK")
                continue
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return results
        raise AssertionError("one append at a time is never mixed")

    async def events(self, table_id: str, after: int = 0) -> list[Event]:
        """The table's events with ``seq > after``, in order. Raises
        :class:`UnknownTable`."""
        async with self._single.connect() as conn:
            return await _read_events(conn, table_id, after)

    async def version(self, table_id: str) -> int | None:
        async with self._single.connect() as conn:
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
    cursor.execute(f"PRAGMA wal_autocheckpoint={SAFETY_PAGES}")
    cursor.close()
