"""The challenge rating in the store (:mod:`espadas.tables.challenge_rating`): each
closed day counted once, its players' ratings moved in the same transaction as
the day's mark (two instances rating one day: the key on the day lets one land,
the other rolls back and changes nothing), and the rebuild that counts every
closed day again (``espadas ratings rebuild``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.challenges import Challenges
from espadas.store.schema import (
    challenge_rated_days,
    challenge_ratings,
    challenges,
    club_hidden,
    players,
)
from espadas.tables.challenge import SEAT
from espadas.tables.challenge_rating import DayLine, day_lines, rate_day
from espadas.tables.duplicate import Result, score
from espadas.tables.rating import PROVISIONAL_GAMES, Skill, display


def day_before(day: str) -> str:
    """The day before ``day``.

    >>> day_before("2026-03-01")
    '2026-02-28'
    """
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class Rated:
    """What a rebuild counted: the days rated and the players they moved."""

    days: int
    players: int


class ChallengeRatings:
    """The challenge ratings of one database."""

    def __init__(self, engine: AsyncEngine, days: Challenges) -> None:
        self.engine = engine
        self.days = days

    async def unrated(self, today: str) -> list[str]:
        """The closed days (before ``today``) not counted yet, oldest first."""
        rated = sa.select(challenge_rated_days.c.day)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(challenges.c.day)
                .where(challenges.c.day < today, challenges.c.day.not_in(rated))
                .order_by(challenges.c.day)
            )
            return [r.day for r in rows]

    async def lines(self, day: str, late: bool) -> list[DayLine] | None:
        """The day's players ranked by its standings, or None while an attempt has
        no result on some board (with ``late``: the complete attempts only)."""
        found = await self.days.get(day)
        if found is None:
            return None
        boards = len(found.boards["boards"])
        attempts = await self.days.attempts(day)
        rows = await self.days.results(day)
        done = Counter(r.player_id for r in rows)
        complete = {a.player_id for a in attempts if done[a.player_id] >= boards}
        if len(complete) < len(attempts) and not late:
            return None
        kept = [Result(r.player_id, r.board, SEAT, r.points, r.robot) for r in rows]
        return day_lines(score([r for r in kept if r.entrant in complete]))

    async def rate(self, day: str, lines: list[DayLine], at: datetime) -> bool:
        """Counts ``day`` (its ``lines``); False if it was counted already."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    challenge_rated_days.insert().values(
                        day=day, players=len(lines), rated_at=at.isoformat()
                    )
                )
                await self._move(conn, day, lines)
        except IntegrityError:
            return False
        return True

    async def _move(self, conn: Any, day: str, lines: list[DayLine]) -> None:
        players = [line[0] for line in lines]
        known: dict[str, Any] = {}
        for chunk in range(0, len(players), 500):
            rows = await conn.execute(
                sa.select(challenge_ratings).where(
                    challenge_ratings.c.player_id.in_(players[chunk : chunk + 500])
                )
            )
            known.update({r.player_id: r for r in rows})
        before = {p: Skill(r.mu, r.sigma) for p, r in known.items()}
        after = rate_day(before, lines)
        new: list[dict[str, Any]] = []
        old: list[dict[str, Any]] = []
        for player, _rank, above, boards in lines:
            row = known.get(player)
            values = {
                "player_id": player,
                "mu": after[player].mu,
                "sigma": after[player].sigma,
                "days": (0 if row is None else row.days) + 1,
                "boards": (0 if row is None else row.boards) + boards,
                "above": (0.0 if row is None else row.above) + above,
                "last_day": day,
            }
            (new if row is None else old).append(values)
        if new:
            await conn.execute(challenge_ratings.insert(), new)
        if old:
            t = challenge_ratings
            await conn.execute(
                t.update()
                .where(t.c.player_id == sa.bindparam("pid"))
                .values(
                    mu=sa.bindparam("mu"),
                    sigma=sa.bindparam("sigma"),
                    days=sa.bindparam("days"),
                    boards=sa.bindparam("boards"),
                    above=sa.bindparam("above"),
                    last_day=sa.bindparam("last_day"),
                ),
                [{**v, "pid": v["player_id"]} for v in old],
            )

    async def rate_closed(self, today: str, at: datetime) -> int:
        """Counts each closed day that is complete (or closed a day ago or more);
        how many it counted."""
        counted = 0
        for day in await self.unrated(today):
            lines = await self.lines(day, late=day < day_before(today))
            if lines is not None and await self.rate(day, lines, at):
                counted += 1
        return counted

    async def get(self, player_id: str) -> dict[str, Any] | None:
        """A player's challenge rating as the profile shows it (None: no day rated)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(challenge_ratings).where(challenge_ratings.c.player_id == player_id)
                )
            ).first()
        if row is None:
            return None
        rating, uncertainty = display(Skill(row.mu, row.sigma))
        return {
            "rating": rating,
            "uncertainty": uncertainty,
            "days": row.days,
            "boards": row.boards,
            "above_per_board": round(row.above / row.boards, 2) if row.boards else 0.0,
            "provisional": row.days < PROVISIONAL_GAMES,
            "last_day": row.last_day,
        }

    async def leaderboard(self, limit: int) -> list[dict[str, Any]]:
        """The top ``limit`` players by challenge rating (OpenSkill's ordinal, as
        shown), those who chose to be hidden left out."""
        t = challenge_ratings
        hidden = sa.select(club_hidden.c.player_id).where(club_hidden.c.player_id == t.c.player_id)
        name = sa.select(players.c.name).where(players.c.id == t.c.player_id).scalar_subquery()
        query = (
            sa.select(t, name.label("name"))
            .where(~sa.exists(hidden))
            .order_by((t.c.mu - 3 * t.c.sigma).desc(), t.c.player_id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out = []
        for i, r in enumerate(rows, start=1):
            rating, uncertainty = display(Skill(r.mu, r.sigma))
            out.append(
                {
                    "rank": i,
                    "id": r.player_id,
                    "name": r.name or "",
                    "robot": None,
                    "rating": rating,
                    "uncertainty": uncertainty,
                    "days": r.days,
                    "above_per_board": round(r.above / r.boards, 2) if r.boards else 0.0,
                }
            )
        return out

    async def rebuild(self, today: str, at: datetime) -> Rated:
        """Empties the challenge ratings and counts every closed day again, oldest
        first (all in one transaction: readers see the old numbers until then)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(challenges.c.day).where(challenges.c.day < today).order_by("day")
            )
            closed = [r.day for r in rows]
        counted = []  # read first: a day's lines do not depend on the ratings
        for day in closed:
            lines = await self.lines(day, late=day < day_before(today))
            if lines is not None:
                counted.append((day, lines))
        async with self.engine.begin() as conn:
            await conn.execute(challenge_ratings.delete())
            await conn.execute(challenge_rated_days.delete())
            for day, lines in counted:
                await conn.execute(
                    challenge_rated_days.insert().values(
                        day=day, players=len(lines), rated_at=at.isoformat()
                    )
                )
                await self._move(conn, day, lines)
            players = await conn.scalar(sa.select(sa.func.count()).select_from(challenge_ratings))
        return Rated(len(counted), int(players or 0))
