"""Analyses in the store (SQLite and PostgreSQL): one claim per table and level wins;
a second does not (asking twice does not run twice), unless the first failed or
its instance stopped touching it; progress and the kept JSON read back."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from espadas.engine import Rules
from espadas.store.store import Store
from espadas.tables.table import Table
from server_helpers import fresh_postgres

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
STALE = timedelta(seconds=90)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield f"sqlite:///{tmp_path}/t.db"
        else:
            yield stack.enter_context(fresh_postgres())


def test_one_claim_runs_and_the_analysis_is_kept(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            table, events = Table.create("T" * 22, Rules.from_preset("pagat"), "ana", "Ana", T0)
            await store.append(table.id, 0, events, table.status, "ana")
            kept = store.analyses
            assert await kept.read(table.id, "experto") is None
            assert await kept.claim(table.id, "experto", "one", T0, T0 - STALE)
            assert not await kept.claim(table.id, "experto", "two", T0, T0 - STALE)
            assert await kept.claim(table.id, "maestro", "two", T0, T0 - STALE)  # per level
            t1 = T0 + timedelta(seconds=10)
            await kept.progress(table.id, "experto", "one", 8, 40, t1)
            row = await kept.read(table.id, "experto")
            assert row is not None and (row.status, row.done, row.total) == ("running", 8, 40)
            assert row.owner == "one"
            # another instance's progress changes nothing of a row it does not own
            await kept.progress(table.id, "experto", "two", 30, 40, t1)
            row = await kept.read(table.id, "experto")
            assert row is not None and row.done == 8
            # not stale yet at t1 + 60 s; stale at t1 + 100 s: another instance takes it over
            t2 = t1 + timedelta(seconds=60)
            assert not await kept.claim(table.id, "experto", "two", t2, t2 - STALE)
            t3 = t1 + timedelta(seconds=100)
            assert await kept.claim(table.id, "experto", "two", t3, t3 - STALE)
            row = await kept.read(table.id, "experto")
            assert row is not None and (row.owner, row.status, row.done) == ("two", "queued", 0)
            await kept.fail(table.id, "experto", "two", t3)
            assert await kept.claim(table.id, "experto", "one", t3, t3 - STALE)  # failed: again
            data = {"format": "espadas-analysis/1", "decisions": [{"seat": 0}], "summary": {}}
            await kept.finish(table.id, "experto", "one", data, t3)
            row = await kept.read(table.id, "experto")
            assert row is not None and (row.status, row.done, row.total) == ("done", 1, 1)
            assert row.data == data
            later = t3 + timedelta(days=1)
            assert not await kept.claim(table.id, "experto", "two", later, later - STALE)
        finally:
            await store.close()

    asyncio.run(body())
