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

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from espadas.store.schema import STAT_COLUMNS
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
_BUCKET_SIZE = (
    "SELECT COUNT(*) FROM club_buckets WHERE kind = :kind AND preset = :preset AND period = :period"
)


class ClubReads:
    """The club's answers, from the store's engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def _names(self, conn: AsyncConnection, subjects: Sequence[str]) -> dict[str, str]:
        people = sorted({s for s in subjects if robot_of(s) is None})
        names = {s: robot_name(level) for s in subjects if (level := robot_of(s)) is not None}
        if people:
            rows = await conn.execute(
                sa.text("SELECT id, name FROM players WHERE id IN :ids").bindparams(
                    sa.bindparam("ids", expanding=True)
                ),
                {"ids": people},
            )
            names.update({r.id: r.name for r in rows})
        return names

    async def profile(self, subject: str, robots: Sequence[str]) -> dict[str, Any] | None:
        """The profile of ``subject`` (None: nobody of that id; a robot level in
        ``robots`` always has one)."""
        async with self.engine.connect() as conn:
            names = await self._names(conn, [subject])
            stats = (
                await conn.execute(
                    sa.text(f"SELECT {', '.join(STAT_COLUMNS)} FROM club_stats WHERE subject = :s"),
                    {"s": subject},
                )
            ).first()
            level = robot_of(subject)
            person = level is None and names.get(subject, FORMER_NAME) != FORMER_NAME
            if not person and level not in robots and stats is None:
                return None
            ratings = {kind: await self._rating(conn, subject, kind) for kind in KINDS}
            partners = (
                await conn.execute(
                    sa.text(
                        "SELECT partner, games, won FROM club_partners WHERE subject = :s"
                        " ORDER BY games DESC, won DESC, partner LIMIT :k"
                    ),
                    {"s": subject, "k": PARTNERS_SHOWN},
                )
            ).all()
            partner_names = await self._names(conn, [p.partner for p in partners])
        return {
            "id": subject,
            "name": names.get(subject, ""),
            "robot": level,
            "former": level is None and not person,  # gone, or its row nameless
            "ratings": ratings,
            "stats": dict(zip(STAT_COLUMNS, stats or [0] * len(STAT_COLUMNS), strict=True)),
            "partners": [
                {
                    "id": p.partner,
                    "name": partner_names.get(p.partner, ""),
                    "games": p.games,
                    "won": p.won,
                }
                for p in partners
            ],
        }

    async def _rating(
        self, conn: AsyncConnection, subject: str, kind: str
    ) -> dict[str, Any] | None:
        row = (
            await conn.execute(
                sa.text(
                    "SELECT rating, uncertainty, games FROM club_ratings"
                    " WHERE subject = :s AND kind = :k"
                ),
                {"s": subject, "k": kind},
            )
        ).first()
        if row is None or row.games == 0:
            return None
        points = (
            await conn.execute(
                sa.text(
                    "SELECT at, rating, uncertainty, table_id FROM club_history"
                    " WHERE subject = :s AND kind = :k ORDER BY n DESC LIMIT :m"
                ),
                {"s": subject, "k": kind, "m": HISTORY_POINTS},
            )
        ).all()
        return {
            "rating": row.rating,
            "uncertainty": row.uncertainty,
            "games": row.games,
            "provisional": row.games < PROVISIONAL_GAMES,
            "history": [
                {"at": p.at, "rating": p.rating, "uncertainty": p.uncertainty, "table": p.table_id}
                for p in reversed(points)
            ],
        }

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
                                "SELECT table_id, seat, subject, name, side FROM club_seats"
                                " WHERE table_id IN :t ORDER BY table_id, seat"
                            ).bindparams(sa.bindparam("t", expanding=True)),
                            {"t": tables},
                        )
                    ).all()
                )
            names = await self._names(conn, [r.subject for r in seats])
        last = mine[-1] if more else None
        return [_game(r, seats, names) for r in mine], (
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
                    "SELECT r.subject, r.rating, r.uncertainty, r.games, r.won"
                    " FROM club_ratings r WHERE r.kind = :kind AND r.games > 0"
                )
                hidden = "r.subject"
            else:
                size = (await conn.execute(sa.text(_BUCKET_SIZE), params)).scalar_one()
                # a narrow filter is sorted; a broad one is found down the ratings' index
                order = ("club_buckets b", "club_ratings r")
                sql = (
                    "SELECT r.subject, r.rating, r.uncertainty, b.games, b.won FROM "
                    + " CROSS JOIN ".join(order if size < NARROW_BUCKET else order[::-1])
                    + " WHERE r.subject = b.subject AND r.kind = b.kind AND b.kind = :kind"
                    " AND b.preset = :preset AND b.period = :period"
                )
                hidden = "b.subject"
            sql += " AND " + _HIDDEN.format(hidden) + " ORDER BY r.rating DESC, r.subject DESC"
            rows = (await conn.execute(sa.text(sql + " LIMIT :k"), params)).all()
            names = await self._names(conn, [r.subject for r in rows])
        return [
            {
                "rank": i,
                "id": r.subject,
                "name": names.get(r.subject, ""),
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
            "SELECT p.first, p.second, p.games, p.won FROM club_pairs p"
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
            names = await self._names(conn, [s for r in rows for s in (r.first, r.second)])
        return [
            {
                "rank": i,
                "players": [{"id": s, "name": names.get(s, "")} for s in (r.first, r.second)],
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


def _game(row: Any, seats: Sequence[Any], names: dict[str, str]) -> dict[str, Any]:
    at_table = [s for s in seats if s.table_id == row.table_id and s.seat != row.seat]
    table = row.table_id

    def who(s: Any) -> dict[str, str]:
        return {"id": s.subject, "name": names.get(s.subject, s.name)}

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
