"""The daily challenges in the store: one challenge a day, one attempt per player
and day, and each finished board of an attempt.

Keys make the races harmless: two instances creating the same day's challenge
(the key on ``day``: one lands, both read it back), a player starting twice (the
key on ``(day, player_id)``: :class:`AlreadyAttempted`), a board's result written
twice (the key on ``(day, player_id, board)``: the first one stays).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.schema import challenge_attempts, challenge_results, challenges


class AlreadyAttempted(Exception):
    """The player has already started this day's challenge."""


@dataclass(frozen=True)
class Challenge:
    day: str
    commitment: str
    boards: dict[str, Any]
    """The boards file with every deal and salt (``boards_json(reveal=True)``)."""
    robots: dict[str, str]
    """The robots' levels: ``partner`` and ``opponents``."""
    par: list[int] | None
    """The robots' own result on each board, once they have played it."""


@dataclass(frozen=True)
class Attempt:
    day: str
    player_id: str
    name: str
    table_id: str
    started_at: str
    left_at: str | None
    left_board: int | None
    finished_at: str | None


@dataclass(frozen=True)
class BoardResult:
    player_id: str
    name: str
    board: int
    points: int
    robot: bool


def _challenge(row: Any) -> Challenge:
    par = None if row.par is None else [int(p) for p in json.loads(row.par)]
    return Challenge(row.day, row.commitment, json.loads(row.boards), json.loads(row.robots), par)


def _attempt(row: Any) -> Attempt:
    return Attempt(
        row.day,
        row.player_id,
        row.name,
        row.table_id,
        row.started_at,
        row.left_at,
        row.left_board,
        row.finished_at,
    )


class Challenges:
    """Challenges, attempts and results in one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(
        self,
        day: str,
        commitment: str,
        boards: dict[str, Any],
        robots: dict[str, str],
        at: datetime,
    ) -> Challenge:
        """``day``'s challenge: these boards if it did not exist yet, else the one
        already stored (whoever created it first)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    challenges.insert().values(
                        day=day,
                        commitment=commitment,
                        boards=json.dumps(boards),
                        robots=json.dumps(robots),
                        created_at=at.isoformat(),
                    )
                )
        except IntegrityError:
            pass
        found = await self.get(day)
        assert found is not None
        return found

    async def get(self, day: str) -> Challenge | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(challenges).where(challenges.c.day == day))).first()
        return None if row is None else _challenge(row)

    async def set_par(self, day: str, par: list[int]) -> None:
        """Keeps par (the first one written stays)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                challenges.update()
                .where(challenges.c.day == day, challenges.c.par.is_(None))
                .values(par=json.dumps(par))
            )

    async def start(self, day: str, player_id: str, name: str, table_id: str, at: datetime) -> None:
        """Records the player's attempt. Raises :class:`AlreadyAttempted`."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    challenge_attempts.insert().values(
                        day=day,
                        player_id=player_id,
                        name=name,
                        table_id=table_id,
                        started_at=at.isoformat(),
                    )
                )
        except IntegrityError:
            raise AlreadyAttempted(player_id) from None

    async def attempt(self, day: str, player_id: str) -> Attempt | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(challenge_attempts).where(
                        challenge_attempts.c.day == day, challenge_attempts.c.player_id == player_id
                    )
                )
            ).first()
        return None if row is None else _attempt(row)

    async def attempt_at(self, table_id: str) -> Attempt | None:
        """The attempt played at table ``table_id``."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(challenge_attempts).where(challenge_attempts.c.table_id == table_id)
                )
            ).first()
        return None if row is None else _attempt(row)

    async def attempts(self, day: str) -> list[Attempt]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(challenge_attempts)
                .where(challenge_attempts.c.day == day)
                .order_by(challenge_attempts.c.started_at, challenge_attempts.c.player_id)
            )
            return [_attempt(r) for r in rows]

    async def mark_left(self, day: str, player_id: str, board: int, at: datetime) -> bool:
        """The player left; the robot plays from ``board`` on. False if they had
        already left or finished."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                challenge_attempts.update()
                .where(
                    challenge_attempts.c.day == day,
                    challenge_attempts.c.player_id == player_id,
                    challenge_attempts.c.left_at.is_(None),
                    challenge_attempts.c.finished_at.is_(None),
                )
                .values(left_at=at.isoformat(), left_board=board)
            )
            return bool(done.rowcount)

    async def mark_finished(self, day: str, player_id: str, at: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                challenge_attempts.update()
                .where(
                    challenge_attempts.c.day == day,
                    challenge_attempts.c.player_id == player_id,
                    challenge_attempts.c.finished_at.is_(None),
                )
                .values(finished_at=at.isoformat())
            )

    async def add_results(
        self, day: str, player_id: str, results: list[tuple[int, int, bool]], at: datetime
    ) -> int:
        """Keeps ``(board, points, robot)`` results not stored yet; how many were new."""
        if not results:
            return 0
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(challenge_results.c.board).where(
                    challenge_results.c.day == day, challenge_results.c.player_id == player_id
                )
            )
            known = {r.board for r in rows}
        added = 0
        for board, points, robot in results:
            if board in known:
                continue
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(
                        challenge_results.insert().values(
                            day=day,
                            player_id=player_id,
                            board=board,
                            points=points,
                            robot=robot,
                            at=at.isoformat(),
                        )
                    )
                added += 1
            except IntegrityError:  # written meanwhile by another instance
                continue
        return added

    async def results(self, day: str) -> list[BoardResult]:
        """Every result of the day, with the names of the players."""
        joined = challenge_results.join(
            challenge_attempts,
            sa.and_(
                challenge_attempts.c.day == challenge_results.c.day,
                challenge_attempts.c.player_id == challenge_results.c.player_id,
            ),
        )
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(
                    challenge_results.c.player_id,
                    challenge_attempts.c.name,
                    challenge_results.c.board,
                    challenge_results.c.points,
                    challenge_results.c.robot,
                )
                .select_from(joined)
                .where(challenge_results.c.day == day)
                .order_by(challenge_results.c.player_id, challenge_results.c.board)
            )
            return [
                BoardResult(r.player_id, r.name, r.board, r.points, bool(r.robot)) for r in rows
            ]

    async def results_since(self, day: str, since: str | None) -> list[tuple[BoardResult, str]]:
        """The day's results written at ``since`` or later (all with None), each with
        when it was written: one query, for the leaderboard's incremental reads."""
        joined = challenge_results.join(
            challenge_attempts,
            sa.and_(
                challenge_attempts.c.day == challenge_results.c.day,
                challenge_attempts.c.player_id == challenge_results.c.player_id,
            ),
        )
        where = [challenge_results.c.day == day]
        if since is not None:
            where.append(challenge_results.c.at >= since)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(
                    challenge_results.c.player_id,
                    challenge_attempts.c.name,
                    challenge_results.c.board,
                    challenge_results.c.points,
                    challenge_results.c.robot,
                    challenge_results.c.at,
                )
                .select_from(joined)
                .where(*where)
            )
            return [
                (BoardResult(r.player_id, r.name, r.board, r.points, bool(r.robot)), r.at)
                for r in rows
            ]

    async def days(self, before: str, limit: int) -> list[tuple[str, int]]:
        """The days before ``before`` that have a challenge, newest first, each with
        how many players made an attempt."""
        players = (
            sa.select(sa.func.count())
            .select_from(challenge_attempts)
            .where(challenge_attempts.c.day == challenges.c.day)
            .scalar_subquery()
        )
        query = (
            sa.select(challenges.c.day, players.label("players"))
            .where(challenges.c.day < before)
            .order_by(challenges.c.day.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(str(r.day), int(r.players or 0)) for r in rows]

    async def count(self, day: str, player_id: str | None = None) -> int:
        """How many results the day has (the leaderboard's version), or one player."""
        where = [challenge_results.c.day == day]
        if player_id is not None:
            where.append(challenge_results.c.player_id == player_id)
        async with self.engine.connect() as conn:
            value = await conn.scalar(
                sa.select(sa.func.count()).select_from(challenge_results).where(*where)
            )
        return int(value or 0)
