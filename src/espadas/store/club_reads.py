"""Reading the club: profiles, game histories and leaderboards (see
:mod:`espadas.store.club_writes` for how they are kept).

Every answer reads a few rows through an index: a profile reads one subject's
ratings, the tail of its rating history, its sums and its first partners; a
history page the subject's seats before a cursor (``n``, the order games were
counted in) and the seats of those games; a leaderboard the top of an index
(``club_ratings`` by rating, or ``club_buckets`` of one preset and period, or
``club_pairs`` by share of games won).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.schema import STAT_COLUMNS, events, members, tables
from espadas.tables.completion import KINDS as COMPLETION_KINDS
from espadas.tables.completion import Completion, completion_of
from espadas.tables.event import Event
from espadas.tables.finish import ROBOT_PREFIX
from espadas.tables.rating import KINDS, PROVISIONAL_GAMES

HISTORY_POINTS = 200
"""The rating history's points a profile shows (the newest ones)."""
PARTNERS_SHOWN = 10
CURSOR_SEATS = 8
"""A history cursor is ``n * CURSOR_SEATS + seat``."""
NARROW_BUCKET = 2000
"""A filtered leaderboard whose preset and period hold fewer subjects is sorted
from them; a broader one walks the ratings from the top instead."""


def robot_of(subject: str) -> str | None:
    """The robot level of a subject, or None for a person.

    >>> robot_of("robot-experto"), robot_of("x1")
    ('experto', None)
    """
    return subject.removeprefix(ROBOT_PREFIX) if subject.startswith(ROBOT_PREFIX) else None


def robot_name(level: str) -> str:
    """A robot's name, as tables name its seat."""
    return f"robot:{level}"


FORMER_NAME = "former:player"
"""The name a deleted account's row keeps (the seats of a former player)."""

_HIDDEN = "NOT EXISTS (SELECT 1 FROM club_hidden h WHERE h.player_id = {0})"
_NAME_OF_R = "(SELECT name FROM players WHERE id = r.subject) AS name"
_PROFILE_HEAD = (
    "SELECT (SELECT name FROM players WHERE id = :s) AS name, "
    + ", ".join(f"st.{c}" for c in STAT_COLUMNS)
    + " FROM (SELECT 1 AS one) AS one LEFT JOIN club_stats st ON st.subject = :s"
)
_PROFILE_RATINGS = "SELECT kind, rating, uncertainty, games FROM club_ratings WHERE subject = :s"
_PROFILE_HISTORY = (
    " UNION ALL ".join(
        "SELECT * FROM (SELECT kind, n, at, rating, uncertainty, table_id FROM club_history"
        f" WHERE subject = :s AND kind = '{kind}' ORDER BY n DESC LIMIT :m) AS h{i}"
        for i, kind in enumerate(KINDS)
    )
    + " ORDER BY kind, n DESC"
)
_PROFILE_PARTNERS = (
    "SELECT c.partner, c.games, c.won, p.name FROM club_partners c"
    " LEFT JOIN players p ON p.id = c.partner WHERE c.subject = :s"
    " ORDER BY c.games DESC, c.won DESC, c.partner LIMIT :k"
)
_BUCKET_SIZE = (
    "SELECT COUNT(*) FROM club_buckets WHERE kind = :kind AND preset = :preset AND period = :period"
)


class ClubReads:
    """The club's answers, from the store's engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def profile(self, subject: str, robots: Sequence[str]) -> dict[str, Any] | None:
        """The profile of ``subject`` (None: nobody of that id; a robot level in
        ``robots`` always has one). Four queries: name and sums, ratings, their
        histories, partners with their names."""
        params = {"s": subject, "k": PARTNERS_SHOWN, "m": HISTORY_POINTS}
        async with self.engine.connect() as conn:
            head = (await conn.execute(sa.text(_PROFILE_HEAD), params)).one()
            level = robot_of(subject)
            person = level is None and (head.name or FORMER_NAME) != FORMER_NAME
            if not person and level not in robots and head.games is None:
                return None
            ratings = (await conn.execute(sa.text(_PROFILE_RATINGS), params)).all()
            points = (await conn.execute(sa.text(_PROFILE_HISTORY), params)).all()
            partners = (await conn.execute(sa.text(_PROFILE_PARTNERS), params)).all()
        shown: dict[str, dict[str, Any] | None] = dict.fromkeys(KINDS)
        for r in ratings:
            if r.games > 0:
                shown[r.kind] = {
                    "rating": r.rating,
                    "uncertainty": r.uncertainty,
                    "games": r.games,
                    "provisional": r.games < PROVISIONAL_GAMES,
                    "history": [
                        {"at": p.at, "rating": p.rating, "uncertainty": p.uncertainty,
                         "table": p.table_id}
                        for p in reversed(points)
                        if p.kind == r.kind
                    ],
                }  # fmt: skip
        name = robot_name(level) if level is not None else head.name or ""
        return {
            "id": subject,
            "name": name,
            "robot": level,
            "former": level is None and not person,  # gone, or its row nameless
            "ratings": shown,
            "stats": {c: int(getattr(head, c) or 0) for c in STAT_COLUMNS},
            "partners": [
                {"id": p.partner, "name": _name(p.partner, p.name), "games": p.games,
                 "won": p.won}
                for p in partners
            ],
        }  # fmt: skip

    async def completion(self, player_id: str) -> Completion:
        """``player_id``'s completion rate (:mod:`espadas.tables.completion`): the
        entries that decide it, of the finished tables they are a member of, in
        one query (through the members' and the log's keys)."""
        query = (
            sa.select(events.c.table_id, events.c.seq, events.c.type, events.c.data, events.c.at)
            .join(members, members.c.table_id == events.c.table_id)
            .join(tables, tables.c.id == events.c.table_id)
            .where(
                members.c.player_id == player_id,
                tables.c.status == "finished",
                events.c.type.in_(COMPLETION_KINDS),
            )
            .order_by(events.c.table_id, events.c.seq)
        )
        logs: dict[str, list[Event]] = {}
        async with self.engine.connect() as conn:
            for row in await conn.execute(query):
                at = datetime.fromisoformat(row.at)
                event = Event(row.seq, row.type, json.loads(row.data), at)
                logs.setdefault(row.table_id, []).append(event)
        return completion_of(player_id, logs.values())

    async def games(
        self, subject: str, limit: int, before: int | None
    ) -> tuple[list[dict[str, Any]], int | None]:
        """The games ``subject`` sat in, newest first, before the cursor ``before``
        (``n * 8 + seat`` of the last seat shown: a robot level may sit twice in
        one game), and the cursor of the next page (None: no more)."""
        cursor = "" if before is None else " AND s.n <= :bn AND NOT (s.n = :bn AND s.seat >= :bs)"
        bn, bs = (0, 0) if before is None else divmod(before, CURSOR_SEATS)
        async with self.engine.connect() as conn:
            mine = (
                await conn.execute(
                    sa.text(
                        "SELECT s.table_id, s.seat, s.n, s.side, s.place, s.score, s.won,"
                        " g.finished_at, g.preset, g.rated, g.players"
                        " FROM club_seats s JOIN club_games g ON g.table_id = s.table_id"
                        f" WHERE s.subject = :s{cursor} ORDER BY s.n DESC, s.seat DESC LIMIT :k"
                    ),
                    {"s": subject, "k": limit + 1, "bn": bn, "bs": bs},
                )
            ).all()
            more = len(mine) > limit
            mine = mine[:limit]
            tables = sorted({r.table_id for r in mine})
            seats: list[Any] = []
            if tables:
                seats = list(
                    (
                        await conn.execute(
                            sa.text(
                                "SELECT s.table_id, s.seat, s.subject, s.side, p.name"
                                " FROM club_seats s LEFT JOIN players p ON p.id = s.subject"
                                " WHERE s.table_id IN :t ORDER BY s.table_id, s.seat"
                            ).bindparams(sa.bindparam("t", expanding=True)),
                            {"t": tables},
                        )
                    ).all()
                )
        last = mine[-1] if more else None
        return [_game(r, seats) for r in mine], (
            None if last is None else last.n * CURSOR_SEATS + last.seat
        )

    async def leaderboard(
        self, kind: str, preset: str | None, period: str, limit: int
    ) -> list[dict[str, Any]]:
        """The top ``limit`` subjects by rating of ``kind``; with a preset or a
        period (a bucket such as ``m2026-12``), those with a rated game there,
        their games and wins counted there."""
        params = {"kind": kind, "preset": preset or "*", "period": period, "k": limit}
        async with self.engine.connect() as conn:
            if preset is None and period == "all":
                sql = (
                    "SELECT r.subject, r.rating, r.uncertainty, r.games, r.won, "
                    + _NAME_OF_R
                    + " FROM club_ratings r WHERE r.kind = :kind AND r.games > 0"
                )
                hidden = "r.subject"
            else:
                size = (await conn.execute(sa.text(_BUCKET_SIZE), params)).scalar_one()
                # a narrow filter is sorted; a broad one is found down the ratings' index
                order = ("club_buckets b", "club_ratings r")
                sql = (
                    "SELECT r.subject, r.rating, r.uncertainty, b.games, b.won, "
                    + _NAME_OF_R
                    + " FROM "
                    + " CROSS JOIN ".join(order if size < NARROW_BUCKET else order[::-1])
                    + " WHERE r.subject = b.subject AND r.kind = b.kind AND b.kind = :kind"
                    " AND b.preset = :preset AND b.period = :period"
                )
                hidden = "b.subject"
            # the players' leaderboard: robots are left out (their profiles keep their ratings)
            sql += f" AND {hidden} NOT LIKE '{ROBOT_PREFIX}%' AND " + _HIDDEN.format(hidden)
            sql += " ORDER BY r.rating DESC, r.subject DESC"
            rows = (await conn.execute(sa.text(sql + " LIMIT :k"), params)).all()
        return [
            {
                "rank": i,
                "id": r.subject,
                "name": _name(r.subject, r.name),
                "robot": robot_of(r.subject),
                "rating": r.rating,
                "uncertainty": r.uncertainty,
                "games": r.games,
                "won": r.won,
            }
            for i, r in enumerate(rows, start=1)
        ]

    async def pairs(self, preset: str | None, period: str, limit: int) -> list[dict[str, Any]]:
        """The top ``limit`` pairs by share of rated games won, then games (from
        3 games on)."""
        sql = (
            "SELECT p.first, p.second, p.games, p.won,"
            " (SELECT name FROM players WHERE id = p.first) AS first_name,"
            " (SELECT name FROM players WHERE id = p.second) AS second_name FROM club_pairs p"
            " WHERE p.preset = :preset AND p.period = :period AND p.share >= 0"
            " AND "
            + _HIDDEN.format("p.first")
            + " AND "
            + _HIDDEN.format("p.second")
            + " ORDER BY p.share DESC, p.games DESC, p.first, p.second LIMIT :k"
        )
        params = {"preset": preset or "*", "period": period, "k": limit}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.text(sql), params)).all()
        return [
            {
                "rank": i,
                "players": [
                    {"id": r.first, "name": _name(r.first, r.first_name)},
                    {"id": r.second, "name": _name(r.second, r.second_name)},
                ],
                "games": r.games,
                "won": r.won,
            }
            for i, r in enumerate(rows, start=1)
        ]

    async def hidden(self, player_id: str) -> bool:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.text("SELECT 1 FROM club_hidden WHERE player_id = :p"), {"p": player_id}
                )
            ).first()
        return row is not None

    async def set_hidden(self, player_id: str, hidden: bool, at: datetime) -> None:
        """Leaves ``player_id`` out of the leaderboards (or back in)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                sa.text("DELETE FROM club_hidden WHERE player_id = :p"), {"p": player_id}
            )
            if hidden:
                await conn.execute(
                    sa.text("INSERT INTO club_hidden (player_id, at) VALUES (:p, :at)"),
                    {"p": player_id, "at": at.isoformat()},
                )


def _name(subject: str, name: str | None) -> str:
    """A subject's name: a robot's, else the player's ("" without a row)."""
    level = robot_of(subject)
    return robot_name(level) if level is not None else name or ""


def _game(row: Any, seats: Sequence[Any]) -> dict[str, Any]:
    at_table = [s for s in seats if s.table_id == row.table_id and s.seat != row.seat]
    table = row.table_id

    def who(s: Any) -> dict[str, str]:
        return {"id": s.subject, "name": _name(s.subject, s.name)}

    return {
        "table": table,
        "finished_at": row.finished_at,
        "preset": row.preset,
        "rated": bool(row.rated),
        "players": row.players,
        "won": bool(row.won),
        "place": row.place,
        "score": row.score,
        "partners": [who(s) for s in at_table if s.side == row.side],
        "opponents": [who(s) for s in at_table if s.side != row.side],
        "replay": f"/mesa/{table}/repeticion",
        "record": f"/api/tables/{table}/record",
    }
