"""Accounts in the store (SQLite and PostgreSQL): sessions open, check and revoke;
sign-in links are kept as hashes, work once and expire; names are unique in any
case; deleting an account rewrites only names; a passkey challenge is taken
once; migration 0007 renames the names that were already shared."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import create_async_engine

from espadas.store.accounts import NameTaken, SigninRefused, name_key
from espadas.store.store import MIGRATIONS, Store, async_url
from espadas.tables.event import Event
from profile_helpers import examples
from server_helpers import fresh_postgres

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield f"sqlite:///{tmp_path}/t.db"
        else:
            yield stack.enter_context(fresh_postgres())


async def _rows(store: Store, table: str) -> list[tuple[str, ...]]:
    async with store.engine.connect() as conn:
        return [
            tuple(str(v) for v in row)
            for row in await conn.execute(sa.text(f"SELECT * FROM {table}"))
        ]


def test_sessions_open_check_and_revoke(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            luis = await store.create_player("Luis", T0)
            phone = await store.sessions.open(ana.id, T0, "Chrome", "Android", "email")
            laptop = await store.sessions.open(ana.id, T0, "Firefox", "Linux", "name")
            other = await store.sessions.open(luis.id, T0, "", "", "name")
            assert all(phone not in v for row in await _rows(store, "sessions") for v in row)
            assert await store.sessions.valid(ana.id, phone, T0)
            assert not await store.sessions.valid(luis.id, phone, T0)  # not his
            assert not await store.sessions.valid(ana.id, "made-up", T0)
            devices = await store.sessions.devices(ana.id)
            assert {d.how for d in devices} == {"email", "name"}
            phone_hash = hashlib.sha256(phone.encode()).hexdigest()
            # seen_at moves on once the hour has passed
            later = T0 + timedelta(hours=2)
            store.sessions._valid.clear()
            assert await store.sessions.valid(ana.id, phone, later)
            seen = {d.id: d.seen_at for d in await store.sessions.devices(ana.id)}
            assert seen[phone_hash].startswith("2026-03-01T14:00")
            assert (await store.sessions.devices(ana.id))[0].id == phone_hash
            # a revoked session signs nobody in, at once (the cache is dropped)
            assert await store.sessions.revoke(ana.id, phone_hash, later)
            assert not await store.sessions.revoke(ana.id, phone_hash, later)
            assert not await store.sessions.valid(ana.id, phone, later)
            assert not await store.sessions.revoke(
                luis.id, hashlib.sha256(laptop.encode()).hexdigest(), later
            )
            # every other one; the old cookies too
            assert await store.sessions.old_cookie_valid(ana.id)
            keep = hashlib.sha256(laptop.encode()).hexdigest()
            extra = await store.sessions.open(ana.id, later, "", "", "resume")
            assert await store.sessions.revoke_others(ana.id, keep, later) == 1
            assert not await store.sessions.valid(ana.id, extra, later)
            assert await store.sessions.valid(ana.id, laptop, later)
            assert not await store.sessions.old_cookie_valid(ana.id)
            assert await store.sessions.valid(luis.id, other, later)
            assert await store.sessions.old_cookie_valid(luis.id)
            with pytest.raises(ValueError):
                await store.sessions.open(ana.id, T0, "", "", "telepathy")
        finally:
            await store.close()

    asyncio.run(body())


def test_signin_links_are_hashed_work_once_and_expire(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            first = await store.accounts.signin_link(ana.id, T0)
            second = await store.accounts.signin_link(ana.id, T0)
            stored = await _rows(store, "signin_links")
            assert not any(first in v or second in v for row in stored for v in row)
            assert any(hashlib.sha256(first.encode()).hexdigest() in row for row in stored)
            assert await store.accounts.check_signin(first, T0) == ana.id
            assert await store.accounts.use_signin(first, T0 + timedelta(minutes=1)) == ana.id
            with pytest.raises(SigninRefused) as used:
                await store.accounts.use_signin(first, T0 + timedelta(minutes=2))
            assert used.value.code == "signin_used"
            with pytest.raises(SigninRefused) as expired:
                await store.accounts.use_signin(second, T0 + timedelta(minutes=15))
            assert expired.value.code == "signin_expired"
            for bad in ("", "nope"):
                with pytest.raises(SigninRefused) as unknown:
                    await store.accounts.check_signin(bad, T0)
                assert unknown.value.code == "bad_signin"
            # two uses at once: one wins
            third = await store.accounts.signin_link(ana.id, T0)
            results = await asyncio.gather(
                store.accounts.use_signin(third, T0),
                store.accounts.use_signin(third, T0),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["SigninRefused", "str"]
        finally:
            await store.close()

    asyncio.run(body())


def test_names_are_unique_in_any_case(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            for taken in ("ANA", "ana", "Ａｎａ"):  # fullwidth letters: NFKC
                with pytest.raises(NameTaken):
                    await store.create_player(taken, T0)
            luis = await store.create_player("Luis", T0)
            with pytest.raises(NameTaken):
                await store.rename_player(luis.id, "aNA")
            assert (await store.player(luis.id)) is not None
            await store.rename_player(ana.id, "ANA")
            assert (await store.player(ana.id)).name == "ANA"  # type: ignore[union-attr]
            with pytest.raises(NameTaken):
                await store.create_player("Former:Player", T0)
            # without uniqueness (the test suite's other modules), names repeat
            await store.create_player("Luis", T0, unique=False)
        finally:
            await store.close()

    asyncio.run(body())


LETTERS = "abcdefghijklmnopqrstuvwxyzáéíóúñçü ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÓÚÑÇÜ"


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=LETTERS, min_size=1, max_size=12), st.randoms())
def test_every_case_of_a_name_is_one_name(name: str, rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    mixed = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in name)
    assert name_key(mixed) == name_key(name)
    other = name + "x"
    assert name_key(other) != name_key(name)


def test_deleting_an_account_rewrites_names_only(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            luis = await store.create_player("Luis", T0)
            await store.outbox.set_email(ana.id, "ana@example.org", "es", T0)
            await store.sessions.open(ana.id, T0, "", "", "name")
            await store.accounts.signin_link(ana.id, T0)
            await store.passkeys.add(ana.id, "cred", "key", 0, "Chrome", T0)
            new = [
                Event(1, "create", {"rules": {}, "creator": ana.id, "name": "Ana"}, T0),
                Event(2, "sit", {"seat": 1, "player": luis.id, "name": "Luis"}, T0),
                Event(3, "chat", {"player": ana.id, "name": "Ana", "seat": 0, "text": "hola"}, T0),
                Event(
                    4, "chat", {"player": luis.id, "name": "Luis", "seat": 1, "text": "Ana!"}, T0
                ),
            ]
            await store.append("t1", 0, new, "waiting", creator=ana.id)
            spectated = [
                Event(1, "create", {"rules": {}, "creator": luis.id, "name": "Luis"}, T0),
                Event(2, "chat", {"player": ana.id, "name": "Ana", "seat": None, "text": "x"}, T0),
            ]
            await store.append("t2", 0, spectated, "waiting", creator=luis.id)
            assert await store.accounts.playing(ana.id) == []
            changed = await store.delete_player(ana.id, T0)
            assert changed == ["t1", "t2"]
            assert await store.player(ana.id) is None
            events = await store.events("t1")
            assert [e.data.get("name") for e in events] == [
                "former:player",
                "Luis",
                "former:player",
                "Luis",
            ]
            assert events[3].data["text"] == "Ana!"  # what others wrote stays
            assert events[0].data["creator"] == ana.id
            assert (await store.events("t2"))[1].data["name"] == "former:player"
            for table in ("contacts", "signin_links", "passkeys", "members"):
                assert all(ana.id not in row for row in await _rows(store, table)), table
            assert await store.sessions.devices(ana.id) == []
            assert await store.accounts.holders("ana@example.org") == []
            assert (await store.player(luis.id)) is not None
            again = await store.create_player("Ana", T0)  # the name is free
            assert again.id != ana.id
            async with store.engine.connect() as conn:
                raw = await conn.scalar(
                    sa.text("SELECT data FROM events WHERE table_id = 't1' AND seq = 1")
                )
            assert json.loads(raw)["name"] == "former:player" and "Ana" not in raw
        finally:
            await store.close()

    asyncio.run(body())


def test_a_passkey_challenge_is_taken_once(url: str) -> None:
    async def body() -> None:
        store = await Store.open(url)
        try:
            ana = await store.create_player("Ana", T0)
            await store.passkeys.challenge("k1", "register", "c1", ana.id, T0)
            assert await store.passkeys.take("k1", "signin", T0) is None  # wrong purpose: gone
            await store.passkeys.challenge("k1", "register", "c2", ana.id, T0)
            taken = await store.passkeys.take("k1", "register", T0)
            assert taken is not None and taken.challenge == "c2" and taken.player_id == ana.id
            assert await store.passkeys.take("k1", "register", T0) is None
            await store.passkeys.challenge("k2", "signin", "c3", None, T0)
            assert await store.passkeys.take("k2", "signin", T0 + timedelta(minutes=6)) is None
        finally:
            await store.close()

    asyncio.run(body())


def test_migration_0007_renames_shared_names(url: str) -> None:
    """A database at 0006 where three people share a name in different cases:
    the oldest keeps it, the others become NAME (2), NAME (3)."""
    from alembic import command
    from alembic.config import Config

    async def at_0006() -> None:
        engine = create_async_engine(async_url(url))

        def upgrade(connection: sa.Connection) -> None:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = connection
            command.upgrade(config, "0006")
            for pid, name, at in (
                ("p3", "ana", "2026-01-03"),
                ("p1", "Ana", "2026-01-01"),
                ("p2", "ANA", "2026-01-02"),
                ("p4", "Luis", "2026-01-01"),
                ("p5", "x" * 40, "2026-01-01"),
                ("p6", "X" * 40, "2026-01-02"),
            ):
                connection.execute(
                    sa.text("INSERT INTO players (id, name, created_at) VALUES (:i, :n, :a)"),
                    {"i": pid, "n": name, "a": at},
                )

        async with engine.begin() as conn:
            await conn.run_sync(upgrade)
        await engine.dispose()

    async def body() -> None:
        await at_0006()
        store = await Store.open(url)
        try:
            names = {p: (await store.player(p)).name for p in ("p1", "p2", "p3", "p4", "p5", "p6")}  # type: ignore[union-attr]
            assert names == {
                "p1": "Ana",
                "p2": "ANA (2)",
                "p3": "ana (3)",
                "p4": "Luis",
                "p5": "x" * 40,
                "p6": "X" * 36 + " (2)",
            }
            with pytest.raises(NameTaken):
                await store.create_player("ana (2)", T0)
        finally:
            await store.close()

    asyncio.run(body())
