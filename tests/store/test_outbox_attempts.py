"""The outbox keeps a notice's failed attempts durably, on SQLite and PostgreSQL:
a failed attempt counts and says why, a last one leaves the notice ``failed``
(never claimed again), and a notice left claimed by a sender that stopped counts
as an attempt too, so that no notice is tried for ever."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from espadas.store.store import Store
from espadas.tables.notice import Notice
from server_helpers import fresh_postgres

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/t.db"
        return
    with fresh_postgres() as address:
        yield address


def notice(key: str) -> Notice:
    return Notice(key, "t1", "luis", "turn", 3, T0)


async def _attempts(url: str) -> None:
    store = await Store.open(url)
    try:
        outbox = store.outbox
        await outbox.add([notice("a"), notice("b")])
        claimed = await outbox.claim_due(T0)
        assert [d.notice.key for d in claimed] == ["a", "b"]
        a, b = claimed
        await outbox.retry(a.id, T0 + timedelta(minutes=1), "mail: ValueError: bad")
        await outbox.retry(b.id, None, "mail: for good")
        rows = {r["key"]: r for r in await outbox.history("luis")}
        assert (rows["a"]["state"], rows["a"]["attempts"]) == ("pending", 1)
        assert rows["a"]["detail"] == "mail: ValueError: bad"
        assert (rows["b"]["state"], rows["b"]["attempts"]) == ("failed", 1)
        assert await outbox.claim_due(T0 + timedelta(seconds=59)) == []  # not before its time
        again = await outbox.claim_due(T0 + timedelta(days=9))
        assert [(d.notice.key, d.attempts) for d in again] == [("a", 1)]  # b: never again
        # a sender that stops with the notice claimed: an attempt, until the last one
        for attempts in (2, 3):
            assert await outbox.requeue_stale(T0 + timedelta(days=10), max_attempts=4) == 1
            row = (await outbox.history("luis"))[0]
            assert (row["state"], row["attempts"]) == ("pending", attempts)
            assert row["detail"] == "claimed by a sender that stopped"
            assert len(await outbox.claim_due(T0 + timedelta(days=9))) == 1
        assert await outbox.requeue_stale(T0 + timedelta(days=10), max_attempts=4) == 1
        row = (await outbox.history("luis"))[0]
        assert (row["state"], row["attempts"]) == ("failed", 4)
        assert await outbox.claim_due(T0 + timedelta(days=99)) == []
        assert await outbox.requeue_stale(T0 + timedelta(days=99), max_attempts=4) == 0
    finally:
        await store.close()


def test_failed_attempts_are_counted_and_bounded(url: str) -> None:
    asyncio.run(_attempts(url))
