"""Moving a club from SQLite to PostgreSQL as ``docs/host.md`` writes it: stop
the server, ``espadas copy-db --from DATA --to postgresql://...``, start the
server on PostgreSQL with the same data folder. Every table arrives row for row
(the migration's version too), the same people are signed in by the same
cookies and see the same game, which plays on; a new rated game gets its own
number (the counters moved past the copied rows); a second copy into the now
full database is refused and changes nothing, while one the server has only
migrated is welcome; and the copy goes on from PostgreSQL to another PostgreSQL
database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from espadas.store.store import async_url
from host_club import espadas, make_club, serving
from server_helpers import fresh_postgres

Rows = dict[str, list[tuple[Any, ...]]]


def plain(value: Any) -> Any:
    """A value as both databases give it (SQLite keeps booleans as 0 and 1)."""
    return int(value) if isinstance(value, bool) else value


def every_row(url: str) -> Rows:
    """Every row of every table of the database at ``url``, in a stable order."""

    async def read() -> Rows:
        engine = create_async_engine(async_url(url))
        try:
            async with engine.connect() as conn:
                names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
                found: Rows = {}
                for name in names:
                    result = await conn.execute(sa.select(sa.text("*")).select_from(sa.table(name)))
                    rows = [tuple(plain(v) for v in row) for row in result]
                    found[name] = sorted(rows, key=repr)
                return found
        finally:
            await engine.dispose()

    return asyncio.run(read())


def counters(url: str) -> dict[str, tuple[int, int]]:
    """Each ``SERIAL`` column with rows: the largest value, and the next value its
    sequence would give (read without taking it)."""

    async def read() -> dict[str, tuple[int, int]]:
        engine = create_async_engine(async_url(url))
        found: dict[str, tuple[int, int]] = {}
        try:
            async with engine.connect() as conn:
                for table, column in (("club_games", "n"), ("notices", "id")):
                    sequence = (
                        await conn.execute(
                            sa.text("SELECT pg_get_serial_sequence(:t, :c)"),
                            {"t": table, "c": column},
                        )
                    ).scalar_one()
                    top = (
                        await conn.execute(sa.text(f"SELECT max({column}) FROM {table}"))
                    ).scalar()
                    last, called = (
                        await conn.execute(sa.text(f"SELECT last_value, is_called FROM {sequence}"))
                    ).one()
                    if top is not None:
                        found[table] = (top, last + 1 if called else last)
        finally:
            await engine.dispose()
        return found

    return asyncio.run(read())


def test_a_club_moves_from_sqlite_to_postgresql(tmp_path: Path) -> None:
    data = tmp_path / "espadas-data"
    with serving(data) as base:
        club = make_club(base)
        before = club.state()
        club.check(before)
    source = every_row(f"sqlite:///{data / 'espadas.db'}")
    assert {"players", "tables", "events", "club_ratings", "alembic_version"} <= set(source)
    with fresh_postgres() as pg:
        moved = espadas("copy-db", "--from", str(data), "--to", pg)
        assert moved.returncode == 0, moved.stderr
        assert f"{len(source) - 1} tables" in moved.stdout
        assert "  events: " in moved.stderr and "  club_ratings: " in moved.stderr
        assert every_row(pg) == source
        following = counters(pg)
        assert "club_games" in following
        assert all(top + 1 == next_value for top, next_value in following.values()), following
        again = espadas("copy-db", "--from", str(data), "--to", pg)
        assert again.returncode == 2, again.stderr
        assert "is not empty: " in again.stderr and " tables hold rows (" in again.stderr
        assert every_row(pg) == source
        with fresh_postgres() as other:  # and on, from PostgreSQL to PostgreSQL
            onwards = espadas("copy-db", "--from", pg, "--to", other)
            assert onwards.returncode == 0, onwards.stderr
            assert every_row(other) == source
        with serving(data, "--db", pg) as base:
            club.move(base)
            assert club.state() == before
            club.play_on()
            club.left_game()
            ana = club.people["Ana"].ok("GET", f"/api/club/players/{club.ids['Ana']}")
            history = ana["ratings"]["partnership"]["history"]
            assert [p["table"] for p in history] == club.left
        club.close()


def test_what_copy_db_refuses(tmp_path: Path) -> None:
    nothing = espadas("copy-db", "--from", str(tmp_path), "--to", "postgresql://x@127.0.0.1/x")
    assert nothing.returncode == 2 and "no SQLite database" in nothing.stderr
    to_sqlite = espadas("copy-db", "--from", str(tmp_path), "--to", "sqlite:///other.db")
    assert to_sqlite.returncode == 2 and "must be a PostgreSQL database" in to_sqlite.stderr
    empty = tmp_path / "espadas.db"
    empty.touch()
    with fresh_postgres() as pg:
        no_club = espadas("copy-db", "--from", str(tmp_path), "--to", pg)
        assert no_club.returncode == 2 and "holds no club" in no_club.stderr
        assert every_row(pg) == {}


def test_a_target_the_server_has_only_migrated_is_welcome(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from espadas.store.store import Store

    async def club_of_one(url: str) -> None:
        store = await Store.open(url)
        try:
            await store.create_player("Ana", datetime(2026, 12, 7, tzinfo=UTC))
        finally:
            await store.close()

    async def migrated(url: str) -> None:
        await (await Store.open(url)).close()

    asyncio.run(club_of_one(f"sqlite:///{tmp_path / 'espadas.db'}"))
    with fresh_postgres() as pg:
        asyncio.run(migrated(pg))
        moved = espadas("copy-db", "--from", str(tmp_path), "--to", pg)
        assert moved.returncode == 0, moved.stderr
        assert every_row(pg) == every_row(f"sqlite:///{tmp_path / 'espadas.db'}")
