"""SQLite checkpoints run off the appends' path (espadas.store.checkpoints), on a
real SQLite file."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from espadas.store.checkpoints import EVERY_S, SAFETY_PAGES, Checkpointer
from espadas.store.store import Store
from espadas.tables.event import Event

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _wal_db(path: Path, rows: int) -> sqlite3.Connection:
    """A WAL database with ``rows`` rows of 1 KB written by a connection that never
    checkpoints (as the appends' connection)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,) for _ in range(rows)])
    conn.execute("COMMIT")
    return conn


def test_a_checkpoint_copies_the_log_into_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    writer = _wal_db(path, 2000)
    before = path.stat().st_size
    assert os.path.getsize(f"{path}-wal") > 1_000_000  # the rows are in the log only
    checkpointer = Checkpointer(str(path))
    try:
        assert checkpointer.run() is True
        assert path.stat().st_size > before + 1_000_000
        writer.close()
        reader = sqlite3.connect(path)
        assert reader.execute("SELECT count(*) FROM t").fetchone() == (2000,)
        reader.close()
    finally:
        checkpointer.close()


def test_due_starts_at_most_one_checkpoint_a_second(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    writer = _wal_db(path, 10)
    checkpointer = Checkpointer(str(path))
    try:
        checkpointer.due()
        first = checkpointer._running
        assert first is not None
        checkpointer.due()  # within EVERY_S: nothing new
        assert checkpointer._running is first
        assert first.result(timeout=10) is True
        time.sleep(EVERY_S + 0.05)
        checkpointer.due()
        assert checkpointer._running is not first
    finally:
        checkpointer.close()
        writer.close()


def test_the_store_checkpoints_behind_its_appends(tmp_path: Path) -> None:
    """The appends' connection never checkpoints (its commits do not wait on the
    disk for one), the other connections only past SAFETY_PAGES, and what the
    appends write still reaches the database file."""
    path = tmp_path / "s.db"

    async def body() -> None:
        store = await Store.open(f"sqlite:///{path}")
        try:
            size = path.stat().st_size
            data = {"blob": "y" * 2000}
            for i in range(300):
                event = Event(1, "create", {"creator": "ana", **data}, T0)
                await store.append(f"t{i}", 0, [event], "waiting", "ana")
            assert store._thread is not None and store._raw is not None
            raw = store._raw
            auto = store._thread.submit(
                lambda: raw.execute("PRAGMA wal_autocheckpoint").fetchone()
            ).result()
            assert auto == (0,)
            async with store.engine.connect() as conn:
                other = await conn.exec_driver_sql("PRAGMA wal_autocheckpoint")
                assert other.fetchone() == (SAFETY_PAGES,)
            # the checkpointer copies the log into the file within a few seconds
            deadline = time.monotonic() + 10
            late = 0
            while path.stat().st_size < size + 300 * 2000 and time.monotonic() < deadline:
                late += 1
                event = Event(1, "create", {"creator": "ana"}, T0)
                await store.append(f"late{late}", 0, [event], "waiting", "ana")
                await asyncio.sleep(EVERY_S)
            assert path.stat().st_size >= size + 300 * 2000
            assert len(await store.events("t299")) == 1
        finally:
            await store.close()

    asyncio.run(body())
