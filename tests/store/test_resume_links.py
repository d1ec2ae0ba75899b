"""Resume links in the store (SQLite and PostgreSQL): only hashes are kept, links
revoke, uses are kept (the latest 20) newest first, and migration 0004 hashes the
tokens stored in clear before it so that links already sent keep working."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from espadas.store.resume_links import USES_KEPT
from espadas.store.store import MIGRATIONS, Store, async_url
from server_helpers import fresh_postgres

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield f"sqlite:///{tmp_path}/t.db"
        else:
            yield stack.enter_context(fresh_postgres())


async def _stored(store: Store) -> list[tuple[str, ...]]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(sa.text("SELECT * FROM resume_links"))
        return [tuple(str(v) for v in row) for row in rows]


def test_links_are_stored_as_hashes_and_revoke(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            luis = await store.create_player("Luis", T0)
            first = await store.resume_link(ana.id, T0)
            other = await store.resume_link(luis.id, T0)
            stored = await _stored(store)
            assert not any(first in value or other in value for row in stored for value in row)
            assert any(hashlib.sha256(first.encode()).hexdigest() in row for row in stored)
            assert await store.player_for_link(first) == ana
            second = await store.resume_link(ana.id, T0 + timedelta(minutes=1), replace=True)
            assert await store.player_for_link(first) is None
            owner = await store.links.owner(first)
            assert owner is not None and owner.player_id == ana.id and owner.revoked_at
            assert await store.player_for_link(second) == ana
            assert await store.player_for_link(other) == luis
            assert await store.links.active(ana.id) == 1
            assert await store.links.revoke(ana.id, T0) == 1
            assert await store.links.revoke(ana.id, T0) == 0
            assert await store.player_for_link(second) is None
            assert await store.links.owner("nope") is None
            assert await store.links.owner("") is None
        finally:
            await store.close()

    asyncio.run(body())


def test_uses_newest_first_and_bounded(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            luis = await store.create_player("Luis", T0)
            await store.links.record_use(luis.id, T0, "Safari", "iPhone")
            for minute in range(USES_KEPT + 5):
                system = "Android" if minute % 2 else "Linux"
                at = T0 + timedelta(minutes=minute)
                await store.links.record_use(ana.id, at, "Chrome", system)
            uses = await store.links.uses(ana.id)
            assert len(uses) == USES_KEPT
            assert [u.at for u in uses] == sorted((u.at for u in uses), reverse=True)
            assert uses[0].system == "Linux" and uses[0].at.startswith("2026-03-01T12:24")
            assert [(u.browser, u.system) for u in await store.links.uses(luis.id)] == [
                ("Safari", "iPhone")
            ]
        finally:
            await store.close()

    asyncio.run(body())


def test_migration_0004_keeps_the_links_already_sent(url: str) -> None:
    """A database at 0003 with a token in clear: after the upgrade the token still
    signs its person in, and only its hash is stored."""
    from alembic import command
    from alembic.config import Config

    token = "t" * 32

    async def at_0003() -> None:
        engine = create_async_engine(async_url(url))

        def upgrade(connection: sa.Connection) -> None:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "0003")
            connection.execute(
                sa.text("INSERT INTO players (id, name, created_at) VALUES ('p1', 'Ana', 'x')")
            )
            connection.execute(
                sa.text(
                    "INSERT INTO resume_links (token, player_id, created_at)"
                    f" VALUES ('{token}', 'p1', 'x')"
                )
            )

        async with engine.begin() as conn:
            await conn.run_sync(upgrade)
        await engine.dispose()

    async def body() -> None:
        await at_0003()
        store = await Store.open(url)
        try:
            player = await store.player_for_link(token)
            assert player is not None and player.name == "Ana"
            assert all(token not in value for row in await _stored(store) for value in row)
        finally:
            await store.close()

    asyncio.run(body())
