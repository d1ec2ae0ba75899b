"""``espadas backup``: a club's backup in a new folder, while the server runs.

``espadas backup DEST [--data DATA] [--db URL]`` makes the folder ``DEST`` and
copies into it every file of the data folder (``secret.key``, which signs the
cookies; ``vapid.pem``, the Web Push keys) and the database:

- SQLite (the default ``DATA/espadas.db``): ``DEST/espadas.db``, one committed
  state copied through SQLite's online backup and checked. ``DEST`` is then a
  data folder: ``espadas serve --data DEST`` runs the club as it was.
- PostgreSQL: ``DEST/espadas.dump``, written by ``pg_dump --format=custom``
  (one snapshot), for ``pg_restore``.

Exit 0 when the backup is whole, 1 when a copy failed (what is in ``DEST`` is not
a backup), 2 for a bad command line (``DEST`` not empty, no database found).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

DUMP = "espadas.dump"
"""The PostgreSQL dump's name in the backup folder."""


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "backup", help="copy the club (database and keys) into a new folder, while it runs"
    )
    p.add_argument("dest", metavar="DEST", help="the backup's folder: new, or empty")
    p.add_argument(
        "--data", default="espadas-data", help="the data folder of `espadas serve` (espadas-data)"
    )
    p.add_argument(
        "--db",
        default=None,
        help="the database URL of `espadas serve`: sqlite:///FILE (default: DATA/espadas.db)"
        " or postgresql://... (dumped with pg_dump)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from espadas.store.backup import BadCopy, copy_sqlite, database_files

    data, dest = Path(args.data), Path(args.dest)
    url: str = args.db or f"sqlite:///{data / 'espadas.db'}"
    sqlite = url.startswith("sqlite:")
    source = Path(url.split(":///", 1)[1]) if sqlite else None
    problem = None
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        problem = f"{dest} exists and is not an empty folder"
    elif not data.is_dir():
        problem = f"no data folder {data}"
    elif source is not None and not source.is_file():
        problem = f"no SQLite database at {source}"
    elif not sqlite and not url.startswith(("postgresql:", "postgres:")):
        problem = f"--db wants sqlite:///FILE or postgresql://..., not {url!r}"
    elif not sqlite and shutil.which("pg_dump") is None:
        problem = "pg_dump is needed for a PostgreSQL database (apt-get install postgresql-client)"
    if problem is not None:
        print(f"espadas backup: {problem}", file=sys.stderr)
        return 2
    dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    skipped = set() if source is None else database_files(source.resolve())
    kept = []
    for path in sorted(data.iterdir()):
        if path.is_file() and path.resolve() not in skipped:
            shutil.copy2(path, dest / path.name)
            kept.append(path.name)
    if source is not None:
        try:
            version = copy_sqlite(source, dest / "espadas.db")
        except (OSError, BadCopy) as exc:
            print(f"espadas backup: the database was not copied: {exc}", file=sys.stderr)
            return 1
        kept.append(f"espadas.db (migration {version})")
    else:
        dump = subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", f"--file={dest / DUMP}", _libpq(url)],
            capture_output=True,
            text=True,
            check=False,
        )
        if dump.returncode != 0:
            print(f"espadas backup: pg_dump failed: {dump.stderr.strip()}", file=sys.stderr)
            return 1
        kept.append(DUMP)
    print(f"Copia / backup: {dest}: {', '.join(kept)}", flush=True)
    return 0


def _libpq(url: str) -> str:
    """The URL as libpq reads it (no SQLAlchemy driver name).

    >>> _libpq("postgresql+asyncpg://espadas@db/espadas")
    'postgresql://espadas@db/espadas'
    """
    scheme, rest = url.split("://", 1)
    return scheme.split("+", 1)[0] + "://" + rest
