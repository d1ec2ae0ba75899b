"""The store: migrations, event logs with optimistic appends, players, resume links and
the lists of tables, on a SQLite file and on the PostgreSQL server.

No mocks: every test runs on a real database. PostgreSQL is the server at
127.0.0.1:5432 (trust auth, user postgres, database ``test``; override with
``ESPADAS_TEST_PG``): each test gets a new database there, so that the migrations run
from scratch and two test runs at once cannot drop each other's tables. Where it
cannot be reached the PostgreSQL tests are skipped, or fail when ``CI`` is set."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from espadas.engine import Play, Rules
from espadas.store.schema import metadata
from espadas.store.store import Conflict, Player, Store, UnknownTable, async_url
from espadas.tables.commitment import verify_record
from espadas.tables.event import Event
from espadas.tables.table import Table
from espadas.tables.view import table_view

T = TypeVar("T")

PG_URL = os.environ.get("ESPADAS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _head() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from espadas.store.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


HEAD = _head()
OURS = (*metadata.tables, "alembic_version")
T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def at(minutes: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes)


async def _admin(statement: str) -> None:
    engine = create_async_engine(
        async_url(PG_URL), isolation_level="AUTOCOMMIT", connect_args={"timeout": 5}
    )
    try:
        async with engine.connect() as conn:
            await conn.execute(sa.text(statement))
    finally:
        await engine.dispose()


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a new, empty database on the PostgreSQL server (dropped afterwards):
    the migrations run from scratch, and two test runs at once never share tables.
    Skips (fails when ``CI`` is set) if the server cannot be reached."""
    name = "espadas_store_" + secrets.token_hex(6)
    try:
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
    except (OSError, TimeoutError, SQLAlchemyError) as exc:
        message = f"PostgreSQL not reachable at {PG_URL}: {type(exc).__name__}: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield PG_URL.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@dataclass
class Db:
    """An opened store and the event loop it lives on (an asyncpg connection belongs
    to one loop, so one test keeps one loop: ``db.run(coroutine)``)."""

    url: str
    store: Store
    runner: asyncio.Runner

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.runner.run(coroutine)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Db]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            url = f"sqlite:///{tmp_path}/t.db"
        else:
            url = stack.enter_context(fresh_postgres())
        runner = stack.enter_context(asyncio.Runner())
        store = runner.run(Store.open(url))
        try:
            yield Db(url, store, runner)
        finally:
            runner.run(store.close())


def log(n: int, start: int = 1, tag: str = "x") -> list[Event]:
    """``n`` events with seq ``start``.. and varied data."""
    return [
        Event(
            seq,
            "note",
            {"tag": tag, "n": seq, "ok": seq % 2 == 0, "none": None, "list": [1, "dos", [3]]},
            at(seq),
        )
        for seq in range(start, start + n)
    ]


def create_event(creator: str = "ana", when: datetime = T0) -> Event:
    return Event(
        1, "create", {"rules": {"preset": "estandar"}, "creator": creator, "name": "A"}, when
    )


# -- migrations ----------------------------------------------------------------------------


async def schema_of(store: Store) -> dict[str, Any]:
    def inspect(conn: sa.Connection) -> dict[str, Any]:
        inspector = sa.inspect(conn)
        names = set(inspector.get_table_names())
        return {
            "tables": names,
            "columns": {
                t: {c["name"] for c in inspector.get_columns(t)} for t in names & set(OURS)
            },
            "indexes": {i["name"] for t in names & set(OURS) for i in inspector.get_indexes(t)},
            "pk": {
                t: inspector.get_pk_constraint(t)["constrained_columns"] for t in names & set(OURS)
            },
            "version": conn.execute(sa.text("SELECT version_num FROM alembic_version")).all(),
        }

    async with store.engine.connect() as conn:
        return await conn.run_sync(inspect)


def test_migrations_create_the_schema(db: Db) -> None:
    schema = db.run(schema_of(db.store))
    assert schema["tables"] == set(OURS)
    for name, table in metadata.tables.items():
        assert schema["columns"][name] == {c.name for c in table.columns}, name
        assert schema["pk"][name] == [c.name for c in table.primary_key.columns], name
    assert {"ix_tables_status", "ix_members_player"} <= schema["indexes"]
    assert schema["version"] == [(HEAD,)]


def test_opening_twice_is_harmless(db: Db) -> None:
    async def body() -> None:
        await db.store.append("t1", 0, [create_event(), *log(2, start=2)], "waiting", "ana")
        player = await db.store.create_player("Ana", T0)
        again = await Store.open(db.url)
        try:
            assert [e.seq for e in await again.events("t1")] == [1, 2, 3]
            assert await again.player(player.id) == player
            assert (await schema_of(again))["version"] == [(HEAD,)]
        finally:
            await again.close()

    db.run(body())


def test_several_postgresql_servers_may_start_together() -> None:
    """Three servers open a new PostgreSQL database at once: the migrations run once."""

    async def body(url: str) -> None:
        stores = await asyncio.gather(*(Store.open(url) for _ in range(3)))
        try:
            for store in stores:
                assert (await schema_of(store))["version"] == [(HEAD,)]
        finally:
            for store in stores:
                await store.close()

    with fresh_postgres() as url:
        asyncio.run(body(url))


# -- event logs ----------------------------------------------------------------------------


def test_append_and_read_back(db: Db) -> None:
    minus3 = timezone(timedelta(hours=-3))
    new = [
        create_event(),
        Event(2, "sit", {"seat": 1, "player": "luis", "name": "Luis Añón 🂡"}, at(1.5)),
        Event(3, "deal", {"hands": ["AKQ...", ""], "salt": "ab" * 16, "n": None}, at(2)),
        Event(
            4,
            "bid",
            {"seat": 1, "value": "blind_nil"},
            datetime(2026, 3, 1, 9, 30, 0, 123456, tzinfo=minus3),
        ),
    ]

    async def body() -> None:
        await db.store.append("t1", 0, new, "waiting", "ana")
        back = await db.store.events("t1")
        assert back == new
        for original, stored in zip(new, back, strict=True):
            assert isinstance(stored.seq, int) and isinstance(stored.type, str)
            assert stored.data == original.data
            assert stored.at.tzinfo is not None
            assert stored.at == original.at
            assert stored.at.utcoffset() == original.at.utcoffset()
        assert await db.store.version("t1") == 4
        assert await db.store.version("nope") is None

    db.run(body())


def test_events_after_k_are_the_tail(db: Db) -> None:
    async def body() -> None:
        await db.store.append("t1", 0, [create_event(), *log(3, start=2)], "waiting", "ana")
        await db.store.append("t1", 4, log(3, start=5, tag="y"), "playing")
        assert await db.store.version("t1") == 7
        every = await db.store.events("t1")
        assert [e.seq for e in every] == list(range(1, 8))
        for k in range(8):
            assert await db.store.events("t1", after=k) == every[k:]
        assert await db.store.events("t1", after=7) == []

    db.run(body())


def test_an_unknown_table(db: Db) -> None:
    async def body() -> None:
        await db.store.append("t1", 0, [create_event()], "waiting", "ana")
        with pytest.raises(UnknownTable):
            await db.store.events("nope")
        with pytest.raises(UnknownTable):
            await db.store.events("t1 ")

    db.run(body())


def test_an_unknown_table_after_k(db: Db) -> None:
    with pytest.raises(UnknownTable):
        db.run(db.store.events("nope", after=3))


def test_a_stale_append_raises_conflict_and_stores_nothing(db: Db) -> None:
    async def body() -> None:
        store = db.store
        await store.append("t1", 0, [create_event(), *log(2, start=2)], "waiting", "ana")
        before = await store.events("t1")
        # a writer that read version 2 (or 1) appends after it: someone else wrote 3
        with pytest.raises(Conflict):
            await store.append("t1", 2, log(1, start=3, tag="late"), "playing")
        with pytest.raises(Conflict):
            await store.append("t1", 1, log(3, start=2, tag="late"), "playing")
        # a version not reached yet
        with pytest.raises(Conflict):
            await store.append("t1", 5, log(1, start=6, tag="late"), "playing")
        # creating it again
        with pytest.raises(Conflict):
            await store.append("t1", 0, [create_event("luis")], "waiting", "luis")
        assert await store.events("t1") == before
        assert await store.version("t1") == 3
        assert await store.tables_with_status("playing") == []
        assert await store.tables_of("luis") == []
        # the right version still goes through
        await store.append("t1", 3, log(1, start=4, tag="ok"), "playing")
        assert [e.data["tag"] for e in await store.events("t1", after=3)] == ["ok"]

    db.run(body())


def test_events_must_follow_the_version(db: Db) -> None:
    async def body() -> None:
        store = db.store
        await store.append("t1", 0, [create_event()], "waiting", "ana")
        for after, new in ((1, log(1, start=3)), (1, [*log(1, start=2), *log(1, start=4)])):
            with pytest.raises(ValueError):
                await store.append("t1", after, new, "playing")
        await store.append("t1", 1, [], "finished")  # nothing to add: nothing changes
        assert await store.version("t1") == 1
        assert await store.tables_with_status("waiting") == ["t1"]

    db.run(body())


def test_concurrent_appends_one_wins(db: Db) -> None:
    async def body() -> None:
        store = db.store
        other = await Store.open(db.url)  # a second server on the same database
        try:
            await store.append("t1", 0, [create_event()], "waiting", "ana")
            version = 1
            for round_ in range(4):
                writers = [store, store, other, other]
                results = await asyncio.gather(
                    *(
                        w.append(
                            "t1", version, log(2, start=version + 1, tag=f"{round_}.{i}"), "playing"
                        )
                        for i, w in enumerate(writers)
                    ),
                    return_exceptions=True,
                )
                winners = [i for i, r in enumerate(results) if r is None]
                assert len(winners) == 1, results
                assert all(isinstance(r, Conflict) for r in results if r is not None), results
                tail = await other.events("t1", after=version)
                assert [(e.seq, e.data["tag"]) for e in tail] == [
                    (version + 1, f"{round_}.{winners[0]}"),
                    (version + 2, f"{round_}.{winners[0]}"),
                ]
                version += 2
            assert await store.version("t1") == version
        finally:
            await other.close()

    db.run(body())


def test_concurrent_creation_one_wins(db: Db) -> None:
    async def body() -> None:
        results = await asyncio.gather(
            *(
                db.store.append("t1", 0, [create_event(who)], "waiting", who)
                for who in ("ana", "luis", "eva")
            ),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Conflict", "Conflict", "NoneType"]
        winner = ("ana", "luis", "eva")[results.index(None)]
        assert [e.data["creator"] for e in await db.store.events("t1")] == [winner]
        assert [t["id"] for t in await db.store.tables_of(winner)] == ["t1"]
        for loser in {"ana", "luis", "eva"} - {winner}:
            assert await db.store.tables_of(loser) == []

    db.run(body())


# -- players and resume links -------------------------------------------------------------


def test_players(db: Db) -> None:
    async def body() -> None:
        store = db.store
        ana = await store.create_player("Ana", T0)
        luis = await store.create_player("Luis Añón", T0)
        assert ana.id != luis.id
        assert len(ana.id) >= 32
        assert ana == Player(ana.id, "Ana")
        assert await store.player(ana.id) == ana
        assert await store.player(luis.id) == Player(luis.id, "Luis Añón")
        await store.rename_player(ana.id, "Ana María")
        assert await store.player(ana.id) == Player(ana.id, "Ana María")
        assert await store.player(luis.id) == luis
        assert await store.player("nobody") is None
        assert await store.player("") is None

    db.run(body())


def test_resume_links(db: Db) -> None:
    async def body() -> None:
        store = db.store
        ana = await store.create_player("Ana", T0)
        luis = await store.create_player("Luis", T0)
        first = await store.resume_link(ana.id, T0)
        second = await store.resume_link(ana.id, at(1))
        other = await store.resume_link(luis.id, T0)
        assert len({first, second, other}) == 3
        assert len(first) >= 32
        assert await store.player_for_link(first) == ana
        assert await store.player_for_link(second) == ana
        assert await store.player_for_link(other) == luis
        await store.rename_player(ana.id, "Ana María")
        assert await store.player_for_link(first) == Player(ana.id, "Ana María")
        for unknown in ("", "nope", first[:-1], ana.id):
            assert await store.player_for_link(unknown) is None

    db.run(body())


# -- lists of tables -------------------------------------------------------------------------


async def store_new(store: Store, table: Table, since: int = 0) -> None:
    """Appends the events of ``table`` after ``since``."""
    await store.append(table.id, since, table.events[since:], table.status, table.creator)


def test_tables_with_status_and_tables_of(db: Db) -> None:
    rules = Rules.from_preset("estandar")

    async def body() -> None:
        store = db.store
        # t1: Ana's, Luis sits, waiting
        t1, _ = Table.create("t1", rules, "ana", "Ana", at(1))
        t1.join("luis", "Luis", at(2))
        await store_new(store, t1)
        # t2: Luis's, Eva sits, robots, started later
        t2, _ = Table.create("t2", rules, "luis", "Luis", at(3))
        t2.join("eva", "Eva", at(4))
        t2.add_robots("luis", "normal", at(4))
        await store_new(store, t2)
        v = t2.version
        t2.start("luis", at(5))
        await store_new(store, t2, v)
        # t3: Pepe's with robots, over at once
        t3, _ = Table.create("t3", rules, "pepe", "Pepe", at(0))
        t3.add_robots("pepe", "normal", at(0))
        t3.start("pepe", at(0))
        t3.act("pepe", "abandon", at(0))
        await store_new(store, t3)

        assert await store.tables_with_status("waiting") == ["t1"]
        assert await store.tables_with_status("playing") == ["t2"]
        assert await store.tables_with_status("finished") == ["t3"]
        assert await store.tables_with_status("playing", "waiting") == ["t1", "t2"]
        assert await store.tables_with_status() == []

        def ids(rows: list[dict[str, Any]]) -> list[str]:
            return [r["id"] for r in rows]

        assert ids(await store.tables_of("ana")) == ["t1"]
        assert ids(await store.tables_of("luis")) == ["t2", "t1"]  # newest first
        assert ids(await store.tables_of("luis", limit=1)) == ["t2"]
        assert ids(await store.tables_of("eva")) == ["t2"]
        assert ids(await store.tables_of("pepe")) == ["t3"]
        for outsider in ("rosa", "normal", "robot:normal", ""):
            assert await store.tables_of(outsider) == []
        row = (await store.tables_of("eva"))[0]
        assert row["status"] == "playing"
        assert row["version"] == t2.version
        assert datetime.fromisoformat(row["updated_at"]) == at(5)

        # a later move brings t1 to the front of Luis's list
        t1.add_robots("ana", "normal", at(9))
        await store_new(store, t1, 2)
        assert ids(await store.tables_of("luis")) == ["t1", "t2"]

    db.run(body())


# -- a table from the domain -------------------------------------------------------------


def test_a_stored_table_replays_to_the_same_state(db: Db) -> None:
    async def body() -> None:
        store = db.store
        table, events = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", at())
        await store.append("t1", 0, events, table.status, "ana")

        async def command(new: list[Event]) -> None:
            """Stores a command's events as a server would: after the version it read."""
            assert new
            await store.append("t1", new[0].seq - 1, new, table.status, table.creator)

        await command(table.join("luis", "Luis", at(1)))
        await command(table.add_robots("ana", "normal", at(2)))
        await command(table.start("ana", at(3)))
        minute = 4
        # a whole hand and the deal of the next, each move stored on its own
        while len(table.deals) < 2:
            game = table.game
            assert game is not None
            minute += 1
            if game.phase == "hand_end":
                await command(table.act("luis", "next_hand", at(minute)))
                continue
            seat = game.to_act
            assert seat is not None
            occupant = table.seats[seat]
            assert occupant is not None
            if game.phase == "bidding":
                new = table.act_seat(seat, "bid", at(minute), value=3)
            elif occupant.robot is not None:
                card = min(game.view_for(seat).proper_plays)
                new = table.robot_move(seat, Play(card), at(minute))
            else:
                assert occupant.player is not None
                card = max(game.view_for(seat).proper_plays)
                new = table.act(occupant.player, "play", at(minute), value=str(card))
            await command(new)

        stored = await store.events("t1")
        assert stored == table.events
        again = Table.rebuild("t1", stored)
        assert again.version == table.version == await store.version("t1")
        assert again.status == "playing"
        assert again.seats == table.seats
        assert again.updated_at == table.updated_at
        assert again.record() == table.record()
        assert [c.status for c in verify_record(again.record())] == ["ok"]
        for person in ("ana", "luis", None):
            assert table_view(again, person) == table_view(table, person)
        assert await store.tables_with_status("playing") == ["t1"]
        assert [t["id"] for t in await store.tables_of("luis")] == ["t1"]

    db.run(body())


def test_a_new_turn_drops_the_pending_notices_of_earlier_turns(db: Db) -> None:
    """Only the notices of the turn now due stay pending: those of earlier turns
    go in the move's own transaction, other tables' notices and notices already
    claimed stay."""
    from espadas.store.schema import notices
    from espadas.tables.notice import Notice

    def planned(table: str, version: int) -> list[Notice]:
        return [
            Notice(f"{table}:{version}:{kind}:p", table, "p", kind, version, at(60))
            for kind in ("turn", "reminder_half")
        ]

    async def pending() -> list[tuple[str, int, str]]:
        async with db.store.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(notices.c.table_id, notices.c.version, notices.c.state).order_by(
                    notices.c.table_id, notices.c.version, notices.c.kind
                )
            )
            return [(r.table_id, r.version, r.state) for r in rows]

    async def body() -> None:
        for table in ("t1", "t2"):
            await db.store.append(table, 0, [create_event()], "playing", "ana")
            await db.store.append(
                table, 1, log(1, start=2), "playing", planned=planned(table, 2), turn=2
            )
        async with db.store.engine.begin() as conn:  # one of t1's is being sent
            await conn.execute(
                notices.update().where(notices.c.key == "t1:2:turn:p").values(state="claimed")
            )
        # a move that is not a new turn keeps them; the next turn drops t1's pending ones
        await db.store.append("t1", 2, log(1, start=3), "playing")
        assert len(await pending()) == 4
        await db.store.append("t1", 3, log(1, start=4), "playing", planned=planned("t1", 4), turn=4)
        assert await pending() == [
            ("t1", 2, "claimed"),
            ("t1", 4, "pending"),
            ("t1", 4, "pending"),
            ("t2", 2, "pending"),
            ("t2", 2, "pending"),
        ]

    db.run(body())


def test_one_statement_moves_write_what_write_all_writes() -> None:
    """On PostgreSQL the store writes a move as one statement (``MOVE_ONE``); the
    same moves through :func:`write_all` in a transaction leave the same rows in every table, the
    announcements included, and a stale move writes nothing either way."""
    from espadas.store.appends import CHANNEL, Append, CoreRows, heard, write_all
    from espadas.store.schema import events, members, notices, tables
    from espadas.tables.notice import Notice

    def moves(table: str) -> list[Append]:
        sat = Event(2, "sit", {"player": "luis", "name": "Luis", "seat": 1}, at(2))
        planned = tuple(
            Notice(f"{table}:{v}:turn:{p}", table, p, "turn", v, at(60 + v))
            for v in (3, 5)
            for p in ("ana", "luis")
        )
        return [
            Append(table, 1, (sat,), "waiting", "", ()),
            Append(table, 2, tuple(log(1, start=3)), "playing", "", planned[:2], turn=3),
            Append(table, 3, tuple(log(2, start=4)), "playing", "", planned[2:], turn=5),
            Append(table, 3, tuple(log(1, start=4, tag="stale")), "playing", "", (), turn=4),
        ]

    async def rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
        async with store.engine.connect() as conn:
            found = {}
            for name, t in (("tables", tables), ("events", events), ("members", members)):
                found[name] = [tuple(r) for r in await conn.execute(sa.select(t).order_by(*t.c))]
            kept = [c for c in notices.c if c.name != "id"]
            found["notices"] = [
                tuple(r) for r in await conn.execute(sa.select(*kept).order_by(notices.c.key))
            ]
        return found

    async def written(
        url: str, single: bool
    ) -> tuple[list[bool], dict[str, Any], list[str], list[Event]]:
        import asyncpg  # type: ignore[import-untyped]

        payloads: list[str] = []
        listener = await asyncpg.connect(url)
        await listener.add_listener(CHANNEL, lambda *args: payloads.append(args[-1]))
        store = await Store.open(url)
        try:
            await store.append("t1", 0, [create_event()], "waiting", "ana")
            results = []
            for move in moves("t1"):
                if single:  # the store's own path
                    try:
                        await store.append(
                            "t1", move.after, move.new, move.status, "", move.planned, move.turn
                        )
                        results.append(True)
                    except Conflict:
                        results.append(False)
                else:

                    def write(c: sa.Connection, m: Append = move) -> list[bool]:
                        return write_all(CoreRows(c), [m])

                    async with store.engine.begin() as conn:
                        results.append((await conn.run_sync(write))[0])
            found = await rows(store)
            log_now = await store.events("t1")
        finally:
            await store.close()
        await asyncio.sleep(0.2)
        await listener.close()
        return results, found, payloads, log_now

    with fresh_postgres() as one, fresh_postgres() as other:
        by_statement = asyncio.run(written(one, single=True))
        by_write_all = asyncio.run(written(other, single=False))
    assert by_statement[0] == by_write_all[0] == [True, True, True, False]
    assert by_statement[1] == by_write_all[1]
    found = by_statement[1]
    assert [r[1] for r in found["events"]] == [1, 2, 3, 4, 5]  # the stale move left nothing
    assert sorted(r[1] for r in found["members"]) == ["ana", "luis"]
    # the turn of version 5 dropped the pending notices of version 3
    assert [(r[0], r[6]) for r in found["notices"]] == [
        ("t1:5:turn:ana", "pending"),
        ("t1:5:turn:luis", "pending"),
    ]
    # each announcement carries its events: the log, told in order, without a read
    assert by_statement[2] == by_write_all[2]
    told = [heard(payload) for payload in by_statement[2]]
    assert [(t[0], t[1]) for t in told if t] == [("t1", 1), ("t1", 2), ("t1", 3), ("t1", 5)]
    assert [e for t in told if t and t[2] for e in t[2]] == by_statement[3]


def test_seen_marks_in_one_batch_keep_the_newest(db: Db) -> None:
    async def body() -> None:
        outbox = db.store.outbox
        await outbox.mark_seen([("ana", "t1", 4), ("luis", "t1", 2), ("ana", "t2", 1)])
        await outbox.mark_seen([("ana", "t1", 3), ("luis", "t1", 6)])
        assert await outbox.seen_version("ana", "t1") == 4  # never back
        assert await outbox.seen_version("luis", "t1") == 6
        assert await outbox.seen_version("ana", "t2") == 1
        assert await outbox.seen_version("luis", "t2") == 0

    db.run(body())
