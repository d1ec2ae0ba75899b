"""A club's whole database copied into an empty PostgreSQL database.

:func:`copy_database` reads the source (a SQLite file, or PostgreSQL) at one
moment: a SQLite file through an online copy of it
(:func:`espadas.store.backup.copy_sqlite`), PostgreSQL in one ``REPEATABLE READ``
transaction. In one transaction on the target it then applies the migrations up
to the source's own (so the target's tables are the ones the migrations make,
and its ``alembic_version`` says the same as the source's), copies every table
in the order of their foreign keys, and moves each counter (``SERIAL`` column)
past the rows copied. A failure leaves the target as it was; a target that holds
any row is refused before anything is written.

The server brings the copy up to its own migration when it starts on it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from espadas.store.backup import copy_sqlite
from espadas.store.store import MIGRATIONS, async_url

VERSIONS = "alembic_version"
BATCH = 2000
"""Rows read and written at a time."""
MIGRATION_LOCK = 7710150
"""The advisory lock :meth:`espadas.store.store.Store.open` takes to migrate: a
server starting on the target meanwhile waits for the copy."""

Progress = Callable[[str, int, int], None]
"""Told ``(table, rows copied, rows in all)`` as a table is copied."""


class CopyRefused(Exception):
    """The copy cannot be made as asked (nothing was written): the message says why."""


@dataclass
class Copied:
    """What :func:`copy_database` copied."""

    migration: str
    rows: dict[str, int] = field(default_factory=dict)
    """Rows copied, by table."""


def is_postgresql(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database.

    >>> is_postgresql("postgresql://espadas@db/espadas"), is_postgresql("sqlite:///x.db")
    (True, False)
    """
    return url.startswith(("postgresql:", "postgres:", "postgresql+"))


async def copy_database(source: str, target: str, progress: Progress | None = None) -> Copied:
    """Copies the club at the URL ``source`` (``sqlite:///FILE`` or
    ``postgresql://...``) into the empty PostgreSQL database at ``target``.
    Raises :class:`CopyRefused` when the source is no club or the target is not
    PostgreSQL or not empty."""
    if not is_postgresql(target):
        raise CopyRefused(f"the target must be a PostgreSQL database, not {target!r}")
    if is_postgresql(source):
        return await _copy_from(source, target, progress, snapshot=True)
    if not source.startswith("sqlite:///"):
        raise CopyRefused(f"the source must be sqlite:///FILE or postgresql://..., not {source!r}")
    path = Path(source.removeprefix("sqlite:///"))
    if not path.is_file():
        raise CopyRefused(f"no SQLite database at {path}")
    with tempfile.TemporaryDirectory(prefix="espadas-copy-") as folder:
        still = Path(folder) / "espadas.db"
        copy_sqlite(path, still)  # one moment, even while a server writes the file
        return await _copy_from(f"sqlite:///{still}", target, progress, snapshot=False)


async def _copy_from(source: str, target: str, progress: Progress | None, snapshot: bool) -> Copied:
    reading = create_async_engine(async_url(source), poolclass=NullPool)
    writing = create_async_engine(async_url(target), poolclass=NullPool)
    try:
        async with reading.connect() as src:
            if snapshot:
                await src.execution_options(isolation_level="REPEATABLE READ")
            await src.begin()
            migration = await _migration(src)
            if migration is None:
                raise CopyRefused(f"{_shown(source)} holds no club (no {VERSIONS})")
            names = set(await src.run_sync(_table_names)) - {VERSIONS}
            totals = {name: await _count(src, name) for name in sorted(names)}
            async with writing.begin() as dst:
                await dst.execute(sa.text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
                await _check_empty(dst, target)
                await dst.run_sync(_upgrade, migration)
                tables = await dst.run_sync(_reflected)
                made = {t.name for t in tables}
                if made != names:
                    raise CopyRefused(
                        f"the source's tables are not those of migration {migration}:"
                        f" {sorted(names ^ made)}"
                    )
                copied = Copied(migration)
                for table in tables:
                    copied.rows[table.name] = await _copy_table(
                        src, dst, table, totals[table.name], progress
                    )
                await _move_counters(dst, tables)
            return copied
    finally:
        await reading.dispose()
        await writing.dispose()


def _shown(url: str) -> str:
    return sa.engine.make_url(url).render_as_string(hide_password=True)


def _table_names(conn: sa.Connection) -> list[str]:
    return list(sa.inspect(conn).get_table_names())


async def _migration(conn: AsyncConnection) -> str | None:
    if VERSIONS not in await conn.run_sync(_table_names):
        return None
    value = (await conn.execute(sa.text(f"SELECT version_num FROM {VERSIONS}"))).scalar()
    return None if value is None else str(value)


async def _count(conn: AsyncConnection, name: str) -> int:
    return int(
        (await conn.execute(sa.select(sa.func.count()).select_from(sa.table(name)))).one()[0]
    )


async def _check_empty(conn: AsyncConnection, target: str) -> None:
    """Refuses a target holding any row (its migrations alone are welcome)."""
    names = await conn.run_sync(_table_names)
    full = [
        name
        for name in sorted(names)
        if name != VERSIONS
        and (
            await conn.execute(sa.select(sa.literal(1)).select_from(sa.table(name)).limit(1))
        ).first()
        is not None
    ]
    if full:
        shown = ", ".join(full[:4]) + (", …" if len(full) > 4 else "")
        raise CopyRefused(f"{_shown(target)} is not empty: {len(full)} tables hold rows ({shown})")


def _upgrade(conn: sa.Connection, migration: str) -> None:
    """Applies the migrations up to ``migration`` (from wherever the target is)."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    script = ScriptDirectory.from_config(config)
    order = [r.revision for r in reversed(list(script.walk_revisions()))]
    if migration not in order:
        raise CopyRefused(f"the source is at migration {migration}, unknown to this version")
    current = None
    if VERSIONS in sa.inspect(conn).get_table_names():
        current = conn.execute(sa.text(f"SELECT version_num FROM {VERSIONS}")).scalar()
    if current is not None and order.index(str(current)) > order.index(migration):
        raise CopyRefused(
            f"the target is at migration {current}, past the source's {migration}:"
            " start `espadas serve` on the source once to bring it up to date"
        )
    try:
        command.upgrade(config, migration)
    except CommandError as exc:
        raise CopyRefused(str(exc)) from exc


def _reflected(conn: sa.Connection) -> list[sa.Table]:
    """The target's tables (less the migration's own), parents before children."""
    meta = sa.MetaData()
    meta.reflect(conn)
    return [t for t in meta.sorted_tables if t.name != VERSIONS]


async def _copy_table(
    src: AsyncConnection,
    dst: AsyncConnection,
    table: sa.Table,
    total: int,
    progress: Progress | None,
) -> int:
    """Copies one table, read with the target's own column types (a SQLite 0/1
    arrives as a boolean) in the order of its primary key."""
    columns = [sa.column(c.name, c.type) for c in table.columns]
    order: list[sa.ColumnClause[Any]] = [sa.column(c.name) for c in table.primary_key.columns]
    query = sa.select(*columns).select_from(sa.table(table.name)).order_by(*(order or columns))
    done = 0
    if progress is not None:
        progress(table.name, 0, total)
    result = await src.stream(query)
    async for rows in result.partitions(BATCH):
        batch: list[dict[str, Any]] = [dict(row._mapping) for row in rows]
        await dst.execute(table.insert(), batch)
        done += len(batch)
        if progress is not None:
            progress(table.name, done, total)
    return done


async def _move_counters(conn: AsyncConnection, tables: list[sa.Table]) -> None:
    """Moves each ``SERIAL`` column's sequence past the largest value copied, so
    that the next row the server adds gets a new number."""
    for table in tables:
        for column in table.primary_key.columns:
            sequence = (
                await conn.execute(
                    sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                    {"t": table.name, "c": column.name},
                )
            ).scalar()
            if sequence is None:
                continue
            top = (await conn.execute(sa.select(sa.func.max(table.c[column.name])))).scalar()
            await conn.execute(
                sa.text("SELECT setval(:s, :v, :called)"),
                {"s": sequence, "v": top or 1, "called": top is not None},
            )
