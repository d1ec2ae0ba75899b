"""``espadas copy-db``: a club moved from SQLite to PostgreSQL.

``espadas copy-db --from SOURCE --to postgresql://...`` copies every table of
the club at ``SOURCE`` (a data folder, whose ``espadas.db`` is read, or a
database URL, ``sqlite:///FILE`` or ``postgresql://...``) into the empty
PostgreSQL database ``--to``, in one transaction with the source's migration
(see :mod:`espadas.store.copy_db`), and shows its progress table by table on
stderr. Then ``espadas serve --db postgresql://... --data DATA`` (the same data
folder, for its keys) runs the club on PostgreSQL.

Exit 0 once the copy is committed, 1 when it failed (the target is as it was),
2 when it was refused: no club at the source, a target that is not PostgreSQL or
holds rows.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, TextIO


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "copy-db", help="copy a club's database into an empty PostgreSQL database"
    )
    p.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="SOURCE",
        help="a data folder (its espadas.db) or a database URL, sqlite:///FILE or postgresql://...",
    )
    p.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="the PostgreSQL database to fill: postgresql://..., empty",
    )
    p.set_defaults(run=run)


def source_url(source: str) -> str:
    """The database URL of ``--from``: a URL as it is, a folder's ``espadas.db``.

    >>> source_url("espadas-data"), source_url("sqlite:///x.db")
    ('sqlite:///espadas-data/espadas.db', 'sqlite:///x.db')
    """
    if "://" in source:
        return source
    return f"sqlite:///{Path(source) / 'espadas.db'}"


class Shown:
    """The progress on ``stream``: a line per table once copied, and for a long
    table a line every few seconds while it is copied."""

    def __init__(self, stream: TextIO, every_s: float = 2.0) -> None:
        self.stream = stream
        self.every_s = every_s
        self.last = 0.0

    def __call__(self, table: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done == total:
            print(f"  {table}: {done:,} rows", file=self.stream, flush=True)
        elif done and now - self.last >= self.every_s:
            print(f"  {table}: {done:,} / {total:,} rows …", file=self.stream, flush=True)
        else:
            return
        self.last = now


def run(args: argparse.Namespace) -> int:
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    from espadas.store.copy_db import CopyRefused, copy_database

    source = source_url(args.source)
    if source == args.target:
        print("espadas copy-db: --from and --to are the same database", file=sys.stderr)
        return 2
    print(f"espadas copy-db: {args.source} → PostgreSQL", file=sys.stderr, flush=True)
    started = time.monotonic()
    try:
        copied = asyncio.run(copy_database(source, args.target, Shown(sys.stderr)))
    except CopyRefused as exc:
        print(f"espadas copy-db: {exc}", file=sys.stderr)
        return 2
    except (OSError, SQLAlchemyError) as exc:
        print(f"espadas copy-db: the copy failed, nothing was kept: {exc}", file=sys.stderr)
        return 1
    rows = sum(copied.rows.values())
    print(
        f"Copiado / copied: {len(copied.rows)} tables, {rows:,} rows,"
        f" migration {copied.migration}, in {time.monotonic() - started:.1f} s",
        flush=True,
    )
    return 0
