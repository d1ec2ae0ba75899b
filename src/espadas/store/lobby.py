"""The lobby's durable part: the quick-play queue, the tables listed as open, and
blocks (schema: ``lobby_queue``, ``lobby_open``, ``blocks``).

The queue is shared by every instance of one database. A person is in it once (its
key). Forming tables is *claim, then build*: :meth:`Lobby.form` runs the pairing
(:mod:`espadas.tables.pairing`) over the people waiting and, in one transaction,
marks each one seated at a new table id with a compare-and-set (their row still
waiting, from the same moment): if any mark fails the whole claim rolls back, so a
person is never at two tables and a table is never split. On PostgreSQL one
instance claims at a time (a transaction-scoped advisory lock; the others skip
that round). The instance that claimed then creates the table; if it dies in
between, :meth:`Lobby.unbuilt` gives any instance the claimed tables that do not
exist yet, to create them from the rows (the table id is fixed, so two creations
are one).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from espadas.engine import Rules
from espadas.store.lobby_schema import blocks, lobby_open, lobby_queue, lobby_seeks
from espadas.store.schema import club_ratings, members, tables
from espadas.tables.ids import new_table_id
from espadas.tables.pairing import Waiting, fill, pair
from espadas.tables.rating import START

FORM_LOCK = 7710312
"""The PostgreSQL advisory lock of one round of forming tables."""
STALE = timedelta(seconds=10)
"""A waiting person no lobby socket has vouched for since is dropped from the queue."""
SEATED_KEPT = timedelta(minutes=10)
"""How long a seated row stays (to tell the person's other tabs where to go)."""


@dataclass(frozen=True)
class Seated:
    """A table the queue formed: its id, rules, the people by seat ``(id, name)``,
    and the robots' level for the seats beyond them."""

    table_id: str
    rules: dict[str, Any]
    people: tuple[tuple[str, str], ...]
    robot: str


@dataclass(frozen=True)
class Entry:
    """A person's row of the queue."""

    player_id: str
    name: str
    pool: str
    rating: int
    since: datetime
    wait_s: float
    robot: str
    table_id: str | None
    min_completion: float = 0.0

    def public(self) -> dict[str, Any]:
        return {
            "rules": self.pool,
            "since": self.since.isoformat(),
            "wait": self.wait_s,
            "robot": self.robot,
            "rating": self.rating,
            "table": self.table_id,
            "min_completion": self.min_completion,
        }


def _entry(row: Any) -> Entry:
    return Entry(
        row.player_id,
        row.name,
        row.pool,
        row.rating,
        datetime.fromisoformat(row.since),
        row.wait_s,
        row.robot,
        row.table_id,
        row.min_completion or 0.0,
    )


@dataclass(frozen=True)
class Standing:
    """A person as quick play finds them: seated at a live game (``busy``), their
    rating, and whether a seek of theirs is listed (``seeking``)."""

    busy: bool
    rating: int
    seeking: bool


def _busy_query(player_id: str, since: datetime) -> sa.Select[Any]:
    return (
        sa.select(tables.c.id)
        .join(members, members.c.table_id == tables.c.id)
        .where(
            members.c.player_id == player_id,
            tables.c.status == "playing",
            tables.c.updated_at > since.isoformat(),
        )
        .limit(1)
    )


def _rating_query(player_id: str, kind: str) -> sa.Select[Any]:
    return sa.select(club_ratings.c.rating).where(
        club_ratings.c.subject == player_id, club_ratings.c.kind == kind
    )


class Lobby:
    """The queue, the open tables and blocks in one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # -- the queue ----------------------------------------------------------------
    async def join(
        self,
        player_id: str,
        name: str,
        pool: str,
        rules: dict[str, Any],
        rating: int,
        wait_s: float,
        robot: str,
        at: datetime,
        completion: float | None = None,
        min_completion: float = 0.0,
    ) -> Entry:
        """Puts the person in the queue of ``pool`` (out of any other: once each),
        with their completion rate and the least one they accept at their table."""
        row = {
            "player_id": player_id,
            "name": name,
            "pool": pool,
            "rules": json.dumps(rules, sort_keys=True),
            "rating": rating,
            "since": at.isoformat(),
            "wait_s": wait_s,
            "robot": robot,
            "seen_at": at.isoformat(),
            "completion": completion,
            "min_completion": min_completion,
        }
        async with self.engine.begin() as conn:
            await conn.execute(lobby_queue.delete().where(lobby_queue.c.player_id == player_id))
            await conn.execute(lobby_queue.insert().values(**row))
        return Entry(player_id, name, pool, rating, at, wait_s, robot, None, min_completion)

    async def leave(self, player_ids: Sequence[str]) -> int:
        """Takes these people out of the queue (those not seated yet): how many."""
        if not player_ids:
            return 0
        async with self.engine.begin() as conn:
            done = await conn.execute(
                lobby_queue.delete().where(
                    lobby_queue.c.player_id.in_(list(player_ids)),
                    lobby_queue.c.table_id.is_(None),
                )
            )
        return int(done.rowcount or 0)

    async def entries(self, player_ids: Sequence[str]) -> dict[str, Entry]:
        """The rows of these people (waiting or seated)."""
        if not player_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(lobby_queue).where(lobby_queue.c.player_id.in_(list(player_ids)))
            )
            return {r.player_id: _entry(r) for r in rows}

    async def vouch(self, player_ids: Sequence[str], at: datetime) -> None:
        """These people still have a lobby socket open (see :data:`STALE`)."""
        if not player_ids:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                lobby_queue.update()
                .where(lobby_queue.c.player_id.in_(list(player_ids)))
                .values(seen_at=at.isoformat())
            )

    async def counts(self) -> dict[str, int]:
        """How many people wait in each pool."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(lobby_queue.c.pool, sa.func.count())
                .where(lobby_queue.c.table_id.is_(None))
                .group_by(lobby_queue.c.pool)
            )
            return {pool: int(n) for pool, n in rows}

    async def standing(self, player_id: str, since: datetime, kind: str) -> Standing:
        """What quick play reads of a person before queueing them, on one
        connection: :meth:`busy`, :meth:`rating` and whether a seek of theirs
        nobody accepted is listed."""
        async with self.engine.connect() as conn:
            busy = (await conn.execute(_busy_query(player_id, since))).first() is not None
            rating = (await conn.execute(_rating_query(player_id, kind))).first()
            seeking = (
                await conn.execute(
                    sa.select(lobby_seeks.c.table_id)
                    .where(lobby_seeks.c.creator == player_id, ~lobby_seeks.c.accepted)
                    .limit(1)
                )
            ).first()
        return Standing(busy, START if rating is None else int(rating.rating), seeking is not None)

    async def busy(self, player_id: str, since: datetime) -> bool:
        """Whether the person is seated at a game in progress that moved after
        ``since`` (a live game: quick play does not seat them at another)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_busy_query(player_id, since))).first()
        return row is not None

    async def rating(self, player_id: str, kind: str) -> int:
        """The person's club rating of ``kind`` (the starting rating if none yet)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_rating_query(player_id, kind))).first()
        return START if row is None else int(row.rating)

    async def form(self, at: datetime) -> list[Seated]:
        """One round of pairing over every pool (see the module): the tables
        claimed, to be created. Raises :class:`Taken` (nothing claimed) when
        someone left or moved meanwhile."""
        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                got = await conn.scalar(sa.select(sa.func.pg_try_advisory_xact_lock(FORM_LOCK)))
                if not got:
                    return []
            await conn.execute(
                lobby_queue.delete().where(
                    sa.or_(
                        sa.and_(
                            lobby_queue.c.table_id.is_(None),
                            lobby_queue.c.seen_at < (at - STALE).isoformat(),
                        ),
                        lobby_queue.c.seated_at < (at - SEATED_KEPT).isoformat(),
                    )
                )
            )
            rows = (
                await conn.execute(sa.select(lobby_queue).where(lobby_queue.c.table_id.is_(None)))
            ).all()
            if not rows:
                return []
            blocked = await _blocks_of(conn, [r.player_id for r in rows])
            pools: dict[str, list[Any]] = {}
            for row in rows:
                pools.setdefault(row.pool, []).append(row)
            now = at.timestamp()
            claimed: list[list[Any]] = []
            for waiting in pools.values():
                size = Rules.from_dict(json.loads(waiting[0].rules)).players
                by_id = {r.player_id: r for r in waiting}
                people = [
                    Waiting(
                        r.player_id,
                        r.rating,
                        datetime.fromisoformat(r.since).timestamp(),
                        blocked.get(r.player_id, frozenset()),
                        r.wait_s,
                        r.completion,
                        r.min_completion or 0.0,
                    )
                    for r in waiting
                ]
                groups = pair(people, size, now)
                taken = {p.id for g in groups for p in g}
                groups += fill([p for p in people if p.id not in taken], size, now)
                claimed += [[by_id[p.id] for p in group] for group in groups]
            return await _claim(conn, claimed, at)

    async def unbuilt(self, before: datetime) -> list[Seated]:
        """Tables the queue claimed before ``before`` that do not exist yet."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(lobby_queue)
                    .where(
                        lobby_queue.c.table_id.is_not(None),
                        lobby_queue.c.seated_at < before.isoformat(),
                        lobby_queue.c.table_id.not_in(sa.select(tables.c.id)),
                    )
                    .order_by(lobby_queue.c.table_id, lobby_queue.c.seat)
                )
            ).all()
        grouped: dict[str, list[Any]] = {}
        for row in rows:
            grouped.setdefault(row.table_id, []).append(row)
        return [_seated(table_id, group) for table_id, group in grouped.items()]

    # -- open tables --------------------------------------------------------------
    async def list_open(self, table_id: str, creator: str, at: datetime) -> None:
        """Lists the table in the lobby (listing it again changes nothing)."""
        async with self.engine.begin() as conn:
            known = (
                await conn.execute(
                    sa.select(lobby_open.c.table_id).where(lobby_open.c.table_id == table_id)
                )
            ).first()
            if known is None:
                await conn.execute(
                    lobby_open.insert().values(
                        table_id=table_id, creator=creator, listed_at=at.isoformat()
                    )
                )

    async def unlist(self, table_id: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(lobby_open.delete().where(lobby_open.c.table_id == table_id))

    async def open_tables(self, limit: int = 50) -> list[str]:
        """The listed tables still waiting for players, newest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(lobby_open.c.table_id)
                .join(tables, tables.c.id == lobby_open.c.table_id)
                .where(tables.c.status == "waiting")
                .order_by(lobby_open.c.listed_at.desc())
                .limit(limit)
            )
            return [r.table_id for r in rows]

    async def is_open(self, table_id: str) -> bool:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(lobby_open.c.table_id).where(lobby_open.c.table_id == table_id)
                )
            ).first()
        return row is not None

    async def playing(self, since: datetime, limit: int = 60) -> list[str]:
        """Games in progress that moved after ``since``, most recently moved first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(tables.c.id)
                .where(tables.c.status == "playing", tables.c.updated_at > since.isoformat())
                .order_by(tables.c.updated_at.desc())
                .limit(limit)
            )
            return [r.id for r in rows]

    async def ratings(self, subjects: Sequence[str]) -> dict[tuple[str, str], int]:
        """``{(subject, kind): rating}`` of these subjects."""
        if not subjects:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(club_ratings.c.subject, club_ratings.c.kind, club_ratings.c.rating).where(
                    club_ratings.c.subject.in_(list(subjects))
                )
            )
            return {(r.subject, r.kind): int(r.rating) for r in rows}

    # -- blocks -------------------------------------------------------------------
    async def block(self, player_id: str, other: str, at: datetime) -> None:
        async with self.engine.begin() as conn:
            known = (
                await conn.execute(
                    sa.select(blocks.c.at).where(
                        blocks.c.player_id == player_id, blocks.c.blocked_id == other
                    )
                )
            ).first()
            if known is None:
                await conn.execute(
                    blocks.insert().values(player_id=player_id, blocked_id=other, at=at.isoformat())
                )

    async def unblock(self, player_id: str, other: str) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                blocks.delete().where(blocks.c.player_id == player_id, blocks.c.blocked_id == other)
            )
        return bool(done.rowcount)

    async def blocked_by(self, player_id: str) -> list[str]:
        """Whom the person blocked, in the order they did."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(blocks.c.blocked_id)
                .where(blocks.c.player_id == player_id)
                .order_by(blocks.c.at, blocks.c.blocked_id)
            )
            return [r.blocked_id for r in rows]

    async def any_block(self, player_id: str, others: Sequence[str]) -> bool:
        """Whether the person blocked any of ``others``, or any of them blocked them."""
        if not others:
            return False
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(blocks.c.at)
                    .where(
                        sa.or_(
                            sa.and_(
                                blocks.c.player_id == player_id,
                                blocks.c.blocked_id.in_(list(others)),
                            ),
                            sa.and_(
                                blocks.c.blocked_id == player_id,
                                blocks.c.player_id.in_(list(others)),
                            ),
                        )
                    )
                    .limit(1)
                )
            ).first()
        return row is not None


async def _blocks_of(conn: AsyncConnection, player_ids: list[str]) -> dict[str, frozenset[str]]:
    rows = await conn.execute(
        sa.select(blocks.c.player_id, blocks.c.blocked_id).where(blocks.c.player_id.in_(player_ids))
    )
    out: dict[str, set[str]] = {}
    for row in rows:
        out.setdefault(row.player_id, set()).add(row.blocked_id)
    return {k: frozenset(v) for k, v in out.items()}


class Taken(Exception):
    """Someone of a group left or moved while it was claimed: the round rolls back."""


CLAIMS_AT_ONCE = 400
"""The most people one statement marks seated (each costs it five parameters)."""


async def _claim(conn: AsyncConnection, groups: list[list[Any]], at: datetime) -> list[Seated]:
    """Marks each person of each group seated at a new table of the group's, in a
    few statements whatever the number of tables: a compare-and-set on each
    person's row (still waiting, since the same moment). Raises :class:`Taken`
    (and the transaction is rolled back) if a row had changed."""
    tables_of = [(new_table_id(), group) for group in groups]
    people = [
        (table_id, seat, row) for table_id, group in tables_of for seat, row in enumerate(group)
    ]
    for start in range(0, len(people), CLAIMS_AT_ONCE):
        chunk = people[start : start + CLAIMS_AT_ONCE]
        ids = [row.player_id for _, _, row in chunk]
        table_of = sa.case({row.player_id: t for t, _, row in chunk}, value=lobby_queue.c.player_id)
        seat_of = sa.case(
            {row.player_id: seat for _, seat, row in chunk}, value=lobby_queue.c.player_id
        )
        same = sa.or_(
            *(
                sa.and_(lobby_queue.c.player_id == row.player_id, lobby_queue.c.since == row.since)
                for _, _, row in chunk
            )
        )
        done = await conn.execute(
            lobby_queue.update()
            .where(lobby_queue.c.player_id.in_(ids), lobby_queue.c.table_id.is_(None), same)
            .values(table_id=table_of, seat=seat_of, seated_at=at.isoformat())
        )
        if done.rowcount != len(chunk):
            raise Taken(", ".join(ids))
    return [_seated(table_id, group) for table_id, group in tables_of]


def _seated(table_id: str, group: Sequence[Any]) -> Seated:
    first = group[0]
    return Seated(
        table_id,
        json.loads(first.rules),
        tuple((r.player_id, r.name) for r in group),
        first.robot,
    )
