"""The online copy of a SQLite database (``espadas.store.backup``): taken while
another connection writes, every copy holds whole transactions only, and SQLite
finds it sound."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from espadas.store.backup import copy_sqlite


def test_copies_taken_during_writes_hold_whole_transactions(tmp_path: Path) -> None:
    source = tmp_path / "espadas.db"
    with contextlib.closing(sqlite3.connect(source, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE pairs (n INTEGER PRIMARY KEY, half INTEGER NOT NULL)")
    done = threading.Event()

    def write() -> None:
        with contextlib.closing(sqlite3.connect(source, isolation_level=None)) as db:
            n = 0
            while not done.is_set():
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO pairs VALUES (?, 0), (?, 1)", (n, n + 1))
                db.execute("COMMIT")
                n += 2

    writer = threading.Thread(target=write)
    writer.start()
    try:
        counts = []
        for i in range(8):
            copy = tmp_path / f"copy-{i}.db"
            assert copy_sqlite(source, copy) is None  # no migrations in this one
            with contextlib.closing(sqlite3.connect(copy)) as db:
                (rows,) = db.execute("SELECT count(*) FROM pairs").fetchone()
                (halves,) = db.execute("SELECT sum(half) FROM pairs").fetchone() or (0,)
            assert rows % 2 == 0 and (halves or 0) * 2 == rows
            assert not list(tmp_path.glob("*.partial*"))
            counts.append(rows)
    finally:
        done.set()
        writer.join()
    assert counts == sorted(counts) and counts[-1] > 0


def test_an_existing_target_is_never_overwritten(tmp_path: Path) -> None:
    source, target = tmp_path / "a.db", tmp_path / "b.db"
    sqlite3.connect(source).close()
    target.write_text("mine")
    with pytest.raises(FileExistsError):
        copy_sqlite(source, target)
    assert target.read_text() == "mine"
