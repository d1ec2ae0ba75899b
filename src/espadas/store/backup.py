"""A consistent copy of a SQLite database while the server runs on it.

The server keeps its SQLite file in WAL mode and writes it from several
connections: copying the file (and its ``-wal``) with ``cp`` may catch a write
half done. :func:`copy_sqlite` reads through SQLite's own online backup
(:meth:`sqlite3.Connection.backup`), which sees one committed state of the whole
database, writes it beside the target and renames it into place once SQLite has
checked it, so a copy is whole or absent.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> with sqlite3.connect(folder / "a.db") as db:
...     _ = db.execute("CREATE TABLE alembic_version (version_num TEXT)")
...     _ = db.execute("INSERT INTO alembic_version VALUES ('0001')")
>>> copy_sqlite(folder / "a.db", folder / "b.db")
'0001'
>>> copy_sqlite(folder / "nothing.db", folder / "c.db")
Traceback (most recent call last):
...
FileNotFoundError: no SQLite database at ...nothing.db
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

DATABASE_SUFFIXES = ("", "-wal", "-shm", "-journal")
"""The files of one SQLite database: the file itself and what SQLite keeps beside it."""


class BadCopy(Exception):
    """SQLite found the copy damaged (it is not kept)."""


def database_files(path: Path) -> set[Path]:
    """The files SQLite keeps for the database at ``path``.

    >>> sorted(p.name for p in database_files(Path("data/espadas.db")))
    ['espadas.db', 'espadas.db-journal', 'espadas.db-shm', 'espadas.db-wal']
    """
    return {path.with_name(path.name + suffix) for suffix in DATABASE_SUFFIXES}


def copy_sqlite(source: Path, target: Path) -> str | None:
    """Copies the database at ``source`` to ``target`` (a new file) as one
    committed state, checks the copy (``PRAGMA integrity_check``) and answers its
    migration (``alembic_version``; None when it has none). Raises
    :class:`FileNotFoundError` when there is no database at ``source``,
    :class:`FileExistsError` when ``target`` exists, :class:`BadCopy` when the
    copy is damaged."""
    if not source.is_file():
        raise FileNotFoundError(f"no SQLite database at {source}")
    if target.exists():
        raise FileExistsError(f"{target} exists")
    partial = target.with_name(target.name + ".partial")
    for leftover in database_files(partial):
        leftover.unlink(missing_ok=True)
    try:
        with contextlib.closing(sqlite3.connect(source, timeout=30)) as live:
            live.execute("PRAGMA busy_timeout=30000")
            with contextlib.closing(sqlite3.connect(partial)) as copy:
                live.backup(copy)  # all pages in one step: one read transaction
        with contextlib.closing(sqlite3.connect(partial)) as copy:
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                raise BadCopy(f"the copy of {source} is damaged: {verdict}")
            copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            version = _migration(copy)
        os.replace(partial, target)
    finally:
        for leftover in database_files(partial):
            leftover.unlink(missing_ok=True)
    return version


def _migration(db: sqlite3.Connection) -> str | None:
    try:
        row = db.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:  # no such table: not migrated
        return None
    return None if row is None else str(row[0])
