"""The quick-play queue in the store, on SQLite and PostgreSQL: a round of pairing
seats every group it forms at a table of its own, each person once and at a seat
of their own, in a few statements; a person who moved meanwhile makes the whole
round claim nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from espadas.engine import Rules
from espadas.store import lobby as lobby_module
from espadas.store.lobby import Taken, _claim
from espadas.store.lobby_schema import lobby_queue
from espadas.store.store import Store
from server_helpers import fresh_postgres

Runner = tuple[Store, asyncio.Runner]
T0 = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
RULES = Rules.from_preset("estandar").to_dict()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Runner]:
    with ExitStack() as stack:
        url = (
            f"sqlite:///{tmp_path}/lobby.db"
            if request.param == "sqlite"
            else stack.enter_context(fresh_postgres())
        )
        runner = stack.enter_context(asyncio.Runner())
        store = runner.run(Store.open(url))
        try:
            yield store, runner
        finally:
            runner.run(store.close())


async def queue(store: Store, people: int, at: datetime) -> None:
    for i in range(people):
        player = await store.create_player(f"Persona {i}", at, True)
        await store.lobby.join(
            player.id, player.name, "estandar", RULES, 1500 + i, 20.0, "experto", at
        )


async def waiting(store: Store) -> list[tuple[str, str | None, int | None]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            sa.select(lobby_queue.c.player_id, lobby_queue.c.table_id, lobby_queue.c.seat)
        )
        return sorted((r.player_id, r.table_id, r.seat) for r in rows)


@pytest.mark.parametrize("chunk", [400, 3])
def test_a_round_seats_every_group_once(
    db: Runner, chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, runner = db
    monkeypatch.setattr(lobby_module, "CLAIMS_AT_ONCE", chunk)  # one statement, or several
    runner.run(queue(store, 13, T0))
    formed = runner.run(store.lobby.form(T0 + timedelta(seconds=1)))
    assert len(formed) == 3  # 13 people: three tables of four, one waits on
    seated = [p for s in formed for p, _ in s.people]
    assert len(seated) == len(set(seated)) == 12
    rows = runner.run(waiting(store))
    by_table: dict[str, list[int]] = {}
    for player, table_id, seat in rows:
        if player in seated:
            assert table_id is not None and seat is not None
            by_table.setdefault(table_id, []).append(seat)
        else:
            assert table_id is None and seat is None
    assert sorted(by_table) == sorted(s.table_id for s in formed)
    assert all(sorted(seats) == [0, 1, 2, 3] for seats in by_table.values())
    for s in formed:  # each table's seats in the order the round gave them
        order = [next(seat for p, t, seat in rows if p == person) for person, _ in s.people]
        assert order == [0, 1, 2, 3]
    # the next round finds only the one left waiting
    assert runner.run(store.lobby.form(T0 + timedelta(seconds=2))) == []


def test_a_person_who_moved_makes_the_round_claim_nothing(db: Runner) -> None:
    store, runner = db
    runner.run(queue(store, 8, T0))

    async def stale_claim() -> None:
        async with store.engine.begin() as conn:
            rows = (await conn.execute(sa.select(lobby_queue))).all()
            # one of them pressed again meanwhile: their row is newer than the one read
            await conn.execute(
                lobby_queue.update()
                .where(lobby_queue.c.player_id == rows[5].player_id)
                .values(since=(T0 + timedelta(seconds=1)).isoformat())
            )
            await _claim(conn, [list(rows[:4]), list(rows[4:8])], T0)

    with pytest.raises(Taken):
        runner.run(stale_claim())
    assert all(table_id is None for _, table_id, _ in runner.run(waiting(store)))
