"""The hub's memory: what it keeps per table is dropped when the table is no
longer in use, so a server that runs for days holds only the tables in play."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from espadas.engine import Rules
from espadas.server.hub import Hub
from espadas.server.robot_pool import RobotPool
from espadas.store.store import Store
from espadas.tables.errors import TableError
from espadas.tables.table import Table
from server_helpers import settings_for

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def _hub(tmp_path: Path) -> Hub:
    store = await Store.open(f"sqlite:///{tmp_path / 'hub.db'}")
    return Hub(store, settings_for(tmp_path, robot_workers=0), RobotPool(0))


async def _full_table(hub: Hub, table_id: str) -> None:
    """A table with four people, started."""
    table, events = Table.create(table_id, Rules(), "p0", "Ana", AT)
    await hub.create(table, events)
    for i in range(1, 4):
        await hub.command(table_id, lambda t, i=i: t.join(f"p{i}", f"P{i}", AT))  # type: ignore[misc]
    await hub.command(table_id, lambda t: t.start("p0", AT))


def test_cached_tables_keep_no_log_and_locks_go_when_unused(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            await _full_table(hub, "t1")
            cached = await hub.table("t1")
            stored = await hub.store.events("t1")
            assert cached.version == len(stored) == stored[-1].seq
            assert cached.events == []  # the log is in the store, not in memory
            assert Table.rebuild("t1", stored).seats == cached.seats
            assert dict(hub._locks) == {}  # no lock outlives its command
            with_log = Table.rebuild("t1", stored)
            assert with_log.events == stored and with_log.version == cached.version
        finally:
            await hub.store.close()

    asyncio.run(scenario())


def test_a_finished_table_is_dropped_when_its_last_watcher_leaves(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            await _full_table(hub, "t1")
            await _full_table(hub, "t2")
            first = hub.subscribe("t1", "p0")
            second = hub.subscribe("t1", "p1")
            watching = hub.subscribe("t2", "p0")
            for table_id in ("t1", "t2"):
                await hub.command(table_id, lambda t: t.act("p0", "abandon", AT))
                assert (await hub.table(table_id)).status == "finished"
            hub.view_text(await hub.table("t1"), "p0")
            held = hub.sizes()  # what /health reports
            assert (held["tables"], held["open"], held["connections"]) == (2, 2, 3)
            hub.unsubscribe("t1", first, "p0")
            assert "t1" in hub._tables  # someone still has it open
            hub.unsubscribe("t1", second, "p1")
            assert "t1" not in hub._tables and "t1" not in hub._texts
            assert "t1" not in hub._latest
            assert "t2" in hub._tables  # finished, but still watched
            # dropped, not lost: read again from the store when asked for
            again = await hub.table("t1")
            assert again.status == "finished" and again.version == len(await hub.store.events("t1"))
            hub.unsubscribe("t2", watching, "p0")
            assert "t2" not in hub._tables
            held = hub.sizes()
            assert (held["tables"], held["open"], held["connections"]) == (1, 0, 0)
        finally:
            await hub.store.close()

    asyncio.run(scenario())


def test_a_table_in_play_stays_when_its_watchers_leave(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            await _full_table(hub, "t1")
            flag = hub.subscribe("t1", "p0")
            hub.unsubscribe("t1", flag, "p0")
            assert "t1" in hub._tables  # still playing: kept for the next move
        finally:
            await hub.store.close()

    asyncio.run(scenario())


def test_a_refused_command_leaves_no_lock_behind(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            await _full_table(hub, "t1")

            def refused(table: Table) -> list[object]:
                raise TableError("nope", "refused")

            try:
                await hub.command("t1", refused)  # type: ignore[arg-type]
            except TableError:
                pass
            else:
                raise AssertionError("the command was not refused")
            assert dict(hub._locks) == {}
        finally:
            await hub.store.close()

    asyncio.run(scenario())


def test_robot_drivers_are_forgotten_when_they_stop(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            table, events = Table.create("t1", Rules(), "p0", "Ana", AT)
            await hub.create(table, events)
            await hub.command("t1", lambda t: t.add_robots("p0", "aleatorio", AT))
            await hub.command("t1", lambda t: t.start("p0", AT))
            await hub.command("t1", lambda t: t.act("p0", "abandon", AT))
            hub.wake_robots("t1")
            assert "t1" in hub._drivers
            for _ in range(200):
                if not hub._drivers:
                    break
                await asyncio.sleep(0.01)
            assert hub._drivers == {}  # the game is over: the driver stopped and went
        finally:
            await hub.close()
            await hub.store.close()

    asyncio.run(scenario())


def test_announced_events_are_applied_without_reading_the_store(tmp_path: Path) -> None:
    """Events another instance announced are applied to the cached table in order;
    an announcement without its events, or with a gap before it, makes the hub
    read the store instead. Either way the table is the one in the store."""
    from espadas.tables.event import Event
    from espadas.tables.view import table_view

    async def scenario() -> None:
        hub = await _hub(tmp_path)
        store = hub.store
        reads: list[int] = []
        read = store.events

        async def counted(table_id: str, after: int = 0) -> list[Event]:
            reads.append(after)
            return await read(table_id, after)

        try:
            await _full_table(hub, "t1")
            await hub.table("t1")
            store.events = counted  # type: ignore[method-assign]
            other = Table.rebuild("t1", await read("t1"))  # another instance's copy

            async def bid_elsewhere() -> list[Event]:
                game = other.game
                assert game is not None and game.to_act is not None
                before = other.version
                new = other.act(f"p{game.to_act}", "bid", AT, value=3)
                await store.append("t1", before, new, other.status)
                return new

            new = await bid_elsewhere()
            hub.changed_elsewhere("t1", new[-1].seq, new)
            assert (await hub.table("t1")).version == other.version and reads == []
            new = await bid_elsewhere()
            hub.changed_elsewhere("t1", new[-1].seq, None)  # too long to carry them
            assert (await hub.table("t1")).version == other.version
            assert reads == [other.version - 1]
            await bid_elsewhere()  # its announcement was missed
            new = await bid_elsewhere()
            hub.changed_elsewhere("t1", new[-1].seq, new)
            cached = await hub.table("t1")
            assert cached.version == other.version and reads[1:] == [other.version - 2]
            for person in ("p0", "p1", None):
                assert table_view(cached, person) == table_view(other, person)
        finally:
            await store.close()

    asyncio.run(scenario())


def test_a_move_plans_the_turn_notice_and_handling_it_plans_the_rest(tmp_path: Path) -> None:
    """A turn writes one notice row; the reminders and claim notices of the turn
    are planned when the notifier handles the turn notice and the turn still
    waits (so a turn that passes quickly costs one row, not five)."""
    import sqlalchemy as sa

    from espadas.server.notifier import Notifier
    from espadas.store.schema import notices

    async def rows(hub: Hub) -> list[tuple[str, str, str]]:
        async with hub.store.engine.connect() as conn:
            found = await conn.execute(
                sa.select(notices.c.kind, notices.c.player_id, notices.c.state).order_by(
                    notices.c.kind, notices.c.player_id
                )
            )
            return [tuple(r) for r in found]

    async def scenario() -> None:
        hub = await _hub(tmp_path)
        try:
            await _full_table(hub, "t1")
            table = await hub.table("t1")
            assert table.game is not None and table.game.to_act is not None
            waiting = f"p{table.game.to_act}"
            assert await rows(hub) == [("turn", waiting, "pending")]
            notifier = Notifier(hub.store, hub.settings, hub.table, hub.looking)
            await notifier.send_due()  # due: the table started long ago
            found = await rows(hub)
            others = sorted(f"p{s}" for s in range(4) if s % 2 != table.game.to_act % 2)
            assert found == [
                *(("claimable", p, "pending") for p in others),
                ("reminder_90", waiting, "pending"),
                ("reminder_half", waiting, "pending"),
                ("turn", waiting, "skipped"),  # no e-mail, no push
            ]
            # the next turn drops what is pending of this one
            after, _ = await hub.command("t1", lambda t: t.act(waiting, "bid", AT, value=3))
            assert after.game is not None and f"p{after.game.to_act}" != waiting
            assert [r for r in await rows(hub) if r[2] == "pending"] == [
                ("turn", f"p{after.game.to_act}", "pending")
            ]
        finally:
            await hub.store.close()

    asyncio.run(scenario())


def test_seen_marks_are_written_in_batches_and_never_go_back(tmp_path: Path) -> None:
    """What people were shown is written when ``SEEN_KEPT`` marks wait (and before
    each round of notices), in one transaction; an older mark never lowers it."""
    from espadas.server.hub import SEEN_KEPT

    async def scenario() -> None:
        hub = await _hub(tmp_path)
        outbox = hub.store.outbox
        try:
            hub.saw("ana", "t1", 7)
            hub.saw("ana", "t1", 5)  # an older view arriving late
            await hub.flush_seen()
            assert await outbox.seen_version("ana", "t1") == 7
            await outbox.mark_seen([("ana", "t1", 3)])
            assert await outbox.seen_version("ana", "t1") == 7
            for i in range(SEEN_KEPT - 1):
                hub.saw(f"p{i}", "t2", i + 1)
            await asyncio.sleep(0.05)
            assert hub.sizes()["seen_unwritten"] == SEEN_KEPT - 1  # not yet
            hub.saw("ana", "t1", 9)  # the mark that fills the batch
            while hub.sizes()["seen_unwritten"]:
                await asyncio.sleep(0.01)
            assert hub._flushing is not None
            await hub._flushing
            assert await outbox.seen_version("ana", "t1") == 9
            assert await outbox.seen_version(f"p{SEEN_KEPT - 2}", "t2") == SEEN_KEPT - 1
        finally:
            await hub.store.close()

    asyncio.run(scenario())
