"""Appends: writing tables' new events, with the rows that go with them.

One append adds events to one table's log from the version its writer read,
moves the table's row on, records who sat down and plans the notices the
events make due. :func:`write_all` writes several appends in one transaction
with one statement per kind of row (not per append): on SQLite, the appends
that arrived together share one disk flush.

The same steps run through SQLAlchemy Core (PostgreSQL, inside the async
engine) or through plain :mod:`sqlite3` calls on the SQLite writer's own
connection, where SQLAlchemy's work per statement would cost more than the
statement itself.

On PostgreSQL an append to an existing table is one statement instead
(:data:`MOVE_ONE`, run outside an explicit transaction: a statement is atomic
on its own). Each round trip to the database costs the server more than the
statement does, so a move takes one round trip rather than seven.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import sqlalchemy as sa

from espadas.store.club_writes import CoreDb, SqliteDb, count_game
from espadas.store.outbox import insert_notice_rows, notice_rows
from espadas.store.schema import events, members, notices, tables
from espadas.tables.event import Event
from espadas.tables.finish import FinishedGame
from espadas.tables.notice import Notice

CHANNEL = "espadas_tables"
"""The PostgreSQL channel on which every append is announced (see :func:`announcement`)."""

ANNOUNCED_BYTES = 7900
"""The longest announcement that carries its events (PostgreSQL refuses payloads of
8000 bytes and more)."""


def announcement(table_id: str, rows: list[dict[str, Any]]) -> str:
    """What an append announces: ``TABLE:VERSION``, then, when they fit, a newline
    and the new events as JSON ``[[seq, type, data, at], ...]`` (other instances
    then need not read them back).

    >>> at = "2026-01-02T03:04:05+00:00"
    >>> row = {"seq": 8, "type": "bid", "data": '{"seat":1,"bid":3}', "at": at}
    >>> print(announcement("t1", [row]))
    t1:8
    [[8,"bid",{"seat":1,"bid":3},"2026-01-02T03:04:05+00:00"]]
    >>> announcement("t1", [{**row, "data": '{"x":"%s"}' % ("a" * 8000)}])
    't1:8'
    """
    head = f"{table_id}:{rows[-1]['seq']}"
    body = ",".join(
        f"[{r['seq']},{json.dumps(r['type'])},{r['data']},{json.dumps(r['at'])}]" for r in rows
    )
    text = f"{head}\n[{body}]"
    return text if len(text.encode()) <= ANNOUNCED_BYTES else head


def heard(payload: str) -> tuple[str, int, list[Event] | None] | None:
    r"""The table, version and (when carried) events of an announcement; None when
    it is not one.

    >>> table, version, new = heard('t1:8\n[[8,"bid",{"seat":1},"2026-01-02T03:04:05+00:00"]]')
    >>> table, version, new[0].type, new[0].data, new[0].at.year
    ('t1', 8, 'bid', {'seat': 1}, 2026)
    >>> heard("t1:8"), heard("nonsense"), heard("t1:8\n[[7]]")
    (('t1', 8, None), None, ('t1', 8, None))
    """
    head, _, body = payload.partition("\n")
    table_id, _, version = head.rpartition(":")
    if not table_id or not version.isdigit():
        return None
    try:
        new = [
            Event(seq, kind, data, datetime.fromisoformat(at))
            for seq, kind, data, at in (json.loads(body) if body else ())
        ]
    except (ValueError, TypeError):
        return table_id, int(version), None
    if not new or new[-1].seq != int(version):
        return table_id, int(version), None
    return table_id, int(version), new


JOINING = ("create", "sit")
"""The events that add a person to a table's members."""


@dataclass(frozen=True)
class Append:
    """One append: ``new`` events after version ``after`` (0: a new table)."""

    table_id: str
    after: int
    new: tuple[Event, ...]
    status: str
    creator: str
    planned: tuple[Notice, ...]
    turn: int = 0
    """The version from which a new turn is due (0: the turn did not change):
    pending notices of earlier turns are dropped (they would not be sent)."""
    finished: FinishedGame | None = None
    """The game these events end, counted for the club in the same transaction."""

    def table_row(self) -> dict[str, Any]:
        """The new table's row."""
        new, last = self.new, self.new[-1]
        return {
            "id": self.table_id,
            "creator": self.creator,
            "status": self.status,
            "version": last.seq,
            "created_at": new[0].at.isoformat(),
            "updated_at": last.at.isoformat(),
        }

    def joined(self) -> list[str]:
        """The people who sat down (or created the table) in these events."""
        return [e.data.get("player") or e.data["creator"] for e in self.new if e.type in JOINING]

    def event_rows(self) -> list[dict[str, Any]]:
        """The ``events`` rows."""
        return [
            {
                "table_id": self.table_id,
                "seq": e.seq,
                "type": e.type,
                "data": json.dumps(e.data, separators=(",", ":")),
                "at": e.at.isoformat(),
            }
            for e in self.new
        ]

    def moved(self) -> dict[str, Any]:
        """The parameters that move the table's row on, from version ``after``."""
        last = self.new[-1]
        return {
            "b_id": self.table_id,
            "b_after": self.after,
            "b_status": self.status,
            "b_version": last.seq,
            "b_updated": last.at.isoformat(),
        }


class Mixed(Exception):
    """Some appends of a batch found their table moved on and one statement for
    several tables cannot say which: write them one by one instead."""


class Rows(Protocol):
    """Where :func:`write_all` writes (a transaction is open around it)."""

    def exists(self, table_id: str) -> bool: ...
    def add_table(self, row: dict[str, Any]) -> None: ...
    def move(self, params: list[dict[str, Any]]) -> int | None:
        """Moves tables on; the number of rows moved (``None``: unknown)."""

    def add(self, kind: str, rows: list[dict[str, Any]]) -> None:
        """Adds rows: ``kind`` is ``members``, ``notices`` or ``events``."""

    def drop_notices(self, params: list[dict[str, Any]]) -> None:
        """Drops pending notices of ``b_table`` planned before version ``b_turn``."""

    announces: bool
    """Whether other instances are told of appends (see :meth:`announce`)."""

    def announce(self, text: str) -> None:
        """Tells the other instances (when the transaction commits)."""

    def count(self, game: FinishedGame) -> None:
        """Counts a finished game for the club (:func:`count_game`)."""


def write_all(rows: Rows, writes: list[Append]) -> list[bool]:
    """Writes the appends; each result is False when its table was not at its
    version (then nothing of that append is written). Raises :class:`Mixed`."""
    ok = [True] * len(writes)
    for i, write in enumerate(writes):
        if write.after == 0:
            ok[i] = not rows.exists(write.table_id)
            if ok[i]:
                rows.add_table(write.table_row())
    moving = [i for i, write in enumerate(writes) if write.after > 0]
    if len(moving) == 1:
        ok[moving[0]] = rows.move([writes[moving[0]].moved()]) == 1
    elif moving:
        moved = rows.move([writes[i].moved() for i in moving])
        if moved is None:
            for i in moving:
                ok[i] = rows.move([writes[i].moved()]) == 1
        elif moved != len(moving):
            raise Mixed
    kept = [write for write, good in zip(writes, ok, strict=True) if good]
    joined = [{"table_id": w.table_id, "player_id": p} for w in kept for p in w.joined()]
    rows.add("members", joined)
    rows.drop_notices([{"b_table": w.table_id, "b_turn": w.turn} for w in kept if w.turn])
    rows.add("notices", notice_rows([n for w in kept for n in w.planned]))
    added = [w.event_rows() for w in kept]
    if rows.announces:
        for w, new in zip(kept, added, strict=True):
            rows.announce(announcement(w.table_id, new))
    rows.add("events", [row for new in added for row in new])
    for w in kept:
        if w.finished is not None:
            rows.count(w.finished)
    return ok


_MOVE = (
    tables.update()
    .where(tables.c.id == sa.bindparam("b_id"), tables.c.version == sa.bindparam("b_after"))
    .values(
        status=sa.bindparam("b_status"),
        version=sa.bindparam("b_version"),
        updated_at=sa.bindparam("b_updated"),
    )
)


_DROP = notices.delete().where(
    notices.c.table_id == sa.bindparam("b_table"),
    notices.c.state == "pending",
    notices.c.version < sa.bindparam("b_turn"),
    notices.c.kind != "replaced",  # a robot took that person's seat: not a turn's notice
)


MOVE_ONE = sa.text(
    """
WITH moved AS (
    UPDATE tables SET status = :status, version = :version, updated_at = :updated
    WHERE id = :table_id AND version = :after
    RETURNING id
), dropped AS (
    DELETE FROM notices
    WHERE :turn > 0 AND table_id IN (SELECT id FROM moved)
      AND state = 'pending' AND version < :turn AND kind <> 'replaced'
), joined AS (
    INSERT INTO members (table_id, player_id)
    SELECT moved.id, p FROM moved, unnest(CAST(:members AS text[])) AS p
), planned AS (
    INSERT INTO notices (key, table_id, player_id, kind, version, due_at, state, attempts)
    SELECT n.key, n.table_id, n.player_id, n.kind, n.version, n.due_at, 'pending', 0
    FROM moved, unnest(
        CAST(:n_key AS text[]), CAST(:n_table AS text[]), CAST(:n_player AS text[]),
        CAST(:n_kind AS text[]), CAST(:n_version AS int[]), CAST(:n_due AS text[])
    ) AS n(key, table_id, player_id, kind, version, due_at)
    ON CONFLICT DO NOTHING
), added AS (
    INSERT INTO events (table_id, seq, type, data, at)
    SELECT moved.id, e.seq, e.type, e.data, e.at
    FROM moved, unnest(
        CAST(:e_seq AS int[]), CAST(:e_type AS text[]), CAST(:e_data AS text[]),
        CAST(:e_at AS text[])
    ) AS e(seq, type, data, at)
)
SELECT pg_notify(:channel, :announced) FROM moved
"""
)
"""One append to an existing table as one PostgreSQL statement: the same rows as
:func:`write_all` writes for it, and a row back only if the table was at its
version (else nothing is written)."""


def move_one_params(write: Append) -> dict[str, Any]:
    """The parameters of :data:`MOVE_ONE` for ``write`` (``write.after > 0``)."""
    last = write.new[-1]
    planned = notice_rows(write.planned)
    added = write.event_rows()
    return {
        "table_id": write.table_id,
        "after": write.after,
        "status": write.status,
        "version": last.seq,
        "updated": last.at.isoformat(),
        "turn": write.turn,
        "members": write.joined(),
        "n_key": [n["key"] for n in planned],
        "n_table": [n["table_id"] for n in planned],
        "n_player": [n["player_id"] for n in planned],
        "n_kind": [n["kind"] for n in planned],
        "n_version": [n["version"] for n in planned],
        "n_due": [n["due_at"] for n in planned],
        "e_seq": [e["seq"] for e in added],
        "e_type": [e["type"] for e in added],
        "e_data": [e["data"] for e in added],
        "e_at": [e["at"] for e in added],
        "channel": CHANNEL,
        "announced": announcement(write.table_id, added),
    }


class CoreRows:
    """:class:`Rows` through SQLAlchemy Core (PostgreSQL)."""

    announces = True

    def __init__(self, conn: sa.Connection) -> None:
        self.conn = conn

    def exists(self, table_id: str) -> bool:
        query = sa.select(tables.c.id).where(tables.c.id == table_id)
        return self.conn.execute(query).first() is not None

    def add_table(self, row: dict[str, Any]) -> None:
        self.conn.execute(tables.insert(), [row])

    def move(self, params: list[dict[str, Any]]) -> int | None:
        done = self.conn.execute(_MOVE, params)
        sane = len(params) == 1 or self.conn.dialect.supports_sane_multi_rowcount
        return done.rowcount if sane else None

    def add(self, kind: str, rows: list[dict[str, Any]]) -> None:
        if kind == "notices":
            insert_notice_rows(self.conn, rows)
        elif rows:
            self.conn.execute((members if kind == "members" else events).insert(), rows)

    def drop_notices(self, params: list[dict[str, Any]]) -> None:
        if params:
            self.conn.execute(_DROP, params)

    def announce(self, text: str) -> None:
        # delivered to every instance when this transaction commits
        self.conn.execute(sa.select(sa.func.pg_notify(CHANNEL, text)))

    def count(self, game: FinishedGame) -> None:
        count_game(CoreDb(self.conn), game)


_SQL = {
    "exists": "SELECT 1 FROM tables WHERE id = ?",
    "table": "INSERT INTO tables (id, creator, status, version, created_at, updated_at)"
    " VALUES (:id, :creator, :status, :version, :created_at, :updated_at)",
    "move": "UPDATE tables SET status = :b_status, version = :b_version,"
    " updated_at = :b_updated WHERE id = :b_id AND version = :b_after",
    "members": "INSERT INTO members (table_id, player_id) VALUES (:table_id, :player_id)",
    "notices": "INSERT INTO notices (key, table_id, player_id, kind, version, due_at, state,"
    " attempts) VALUES (:key, :table_id, :player_id, :kind, :version, :due_at, :state,"
    " :attempts) ON CONFLICT DO NOTHING",
    "drop": "DELETE FROM notices WHERE table_id = :b_table AND state = 'pending'"
    " AND version < :b_turn AND kind <> 'replaced'",
    "events": "INSERT INTO events (table_id, seq, type, data, at)"
    " VALUES (:table_id, :seq, :type, :data, :at)",
}


class SqliteRows:
    """:class:`Rows` through plain :mod:`sqlite3` calls (the SQLite writer)."""

    announces = False

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def exists(self, table_id: str) -> bool:
        return self.conn.execute(_SQL["exists"], (table_id,)).fetchone() is not None

    def add_table(self, row: dict[str, Any]) -> None:
        self.conn.execute(_SQL["table"], row)

    def move(self, params: list[dict[str, Any]]) -> int | None:
        return self.conn.executemany(_SQL["move"], params).rowcount

    def add(self, kind: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.conn.executemany(_SQL[kind], rows)

    def drop_notices(self, params: list[dict[str, Any]]) -> None:
        if params:
            self.conn.executemany(_SQL["drop"], params)

    def announce(self, text: str) -> None:
        """One process per SQLite file: the hub has told its clients already."""

    def count(self, game: FinishedGame) -> None:
        count_game(SqliteDb(self.conn), game)
