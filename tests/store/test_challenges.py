"""The daily challenges in the store (SQLite and PostgreSQL): one challenge a day
even when two stores create it at once, one attempt per player and day, results
kept once, par kept once, the day's results with the players' names."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import pytest

from espadas.store.challenges import AlreadyAttempted
from espadas.store.store import Store
from espadas.tables.boards import boards_json, fresh_boards
from espadas.tables.challenge import challenge_rules
from server_helpers import fresh_postgres

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
DAY = "2026-12-01"
ROBOTS = {"partner": "experto", "opponents": "experto"}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield f"sqlite:///{tmp_path}/t.db"
        else:
            yield stack.enter_context(fresh_postgres())


def test_one_challenge_a_day_even_created_twice_at_once(url: str) -> None:
    async def body() -> None:
        first, second = await Store.open(url), await Store.open(url)
        try:
            made = [fresh_boards(challenge_rules(), 8) for _ in range(2)]
            a, b = await asyncio.gather(
                *(
                    store.challenges.create(
                        DAY, boards.commitment, boards_json(boards, reveal=True), ROBOTS, T0
                    )
                    for store, boards in zip((first, second), made, strict=True)
                )
            )
            assert a == b
            assert a.commitment in {m.commitment for m in made}
            assert a.boards["commitment"] == a.commitment and len(a.boards["boards"]) == 8
            assert a.par is None and a.robots == ROBOTS
            assert await first.challenges.get("2026-12-02") is None
            await first.challenges.set_par(DAY, [10, -20, 30, 0, 5, 6, 7, 8])
            await second.challenges.set_par(DAY, [0] * 8)  # the first one stays
            found = await second.challenges.get(DAY)
            assert found is not None and found.par == [10, -20, 30, 0, 5, 6, 7, 8]
        finally:
            await first.close()
            await second.close()

    asyncio.run(body())


def test_one_attempt_per_player_and_results_kept_once(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            boards = fresh_boards(challenge_rules(), 3)
            await store.challenges.create(
                DAY, boards.commitment, boards_json(boards, reveal=True), ROBOTS, T0
            )
            await store.challenges.start(DAY, "p-ana", "Ana", "reto-20261201-" + "a" * 24, T0)
            with pytest.raises(AlreadyAttempted):
                await store.challenges.start(DAY, "p-ana", "Ana", "reto-20261201-" + "b" * 24, T0)
            await store.challenges.start(DAY, "p-bea", "Bea", "reto-20261201-" + "c" * 24, T0)
            ana = await store.challenges.attempt(DAY, "p-ana")
            assert ana is not None and ana.table_id.endswith("a" * 24) and ana.left_at is None
            assert await store.challenges.attempt_at(ana.table_id) == ana
            assert await store.challenges.attempt("2026-12-02", "p-ana") is None
            assert await store.challenges.add_results(DAY, "p-ana", [(1, 120, False)], T0) == 1
            added = await store.challenges.add_results(
                DAY, "p-ana", [(1, -999, False), (2, 40, False)], T0
            )
            assert added == 1  # board 1 kept as first written
            assert await store.challenges.add_results(DAY, "p-bea", [(1, 80, False)], T0) == 1
            assert await store.challenges.mark_left(DAY, "p-bea", 2, T0)
            assert not await store.challenges.mark_left(DAY, "p-bea", 3, T0)
            await store.challenges.add_results(DAY, "p-bea", [(2, 10, True), (3, 0, True)], T0)
            rows = await store.challenges.results(DAY)
            assert [(r.name, r.board, r.points, r.robot) for r in rows] == [
                ("Ana", 1, 120, False),
                ("Ana", 2, 40, False),
                ("Bea", 1, 80, False),
                ("Bea", 2, 10, True),
                ("Bea", 3, 0, True),
            ]
            assert await store.challenges.count(DAY) == 5
            assert await store.challenges.count(DAY, "p-bea") == 3
            await store.challenges.mark_finished(DAY, "p-bea", T0)
            bea = await store.challenges.attempt(DAY, "p-bea")
            assert bea is not None and bea.finished_at and bea.left_board == 2
            assert [a.player_id for a in await store.challenges.attempts(DAY)] == ["p-ana", "p-bea"]
        finally:
            await store.close()

    asyncio.run(body())


def test_results_since_one_query_for_the_leaderboard(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            boards = fresh_boards(challenge_rules(), 3)
            await store.challenges.create(
                DAY, boards.commitment, boards_json(boards, reveal=True), ROBOTS, T0
            )
            await store.challenges.start(DAY, "p-ana", "Ana", "reto-20261201-" + "a" * 24, T0)
            later = T0.replace(minute=5)
            await store.challenges.add_results(DAY, "p-ana", [(1, 120, False)], T0)
            await store.challenges.add_results(DAY, "p-ana", [(2, 40, True)], later)
            every = await store.challenges.results_since(DAY, None)
            assert sorted((r.board, r.points, r.robot, at) for r, at in every) == [
                (1, 120, False, T0.isoformat()),
                (2, 40, True, later.isoformat()),
            ]
            since = await store.challenges.results_since(DAY, later.isoformat())
            assert [(r.name, r.board) for r, _at in since] == [("Ana", 2)]
            assert await store.challenges.results_since("2026-12-02", None) == []
        finally:
            await store.close()

    asyncio.run(body())
