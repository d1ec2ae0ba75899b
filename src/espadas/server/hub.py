"""The hub: one writer per table, durable before visible, robots on their turns.

Every command on a table runs under that table's lock: the hub brings its
cached :class:`~espadas.tables.table.Table` up to date from the store, lets
the command add events, commits them, and only then tells the subscribers
(WebSocket clients) that a new version exists. If the commit fails (another
instance wrote first), the cached table is dropped and the command is tried
again on the fresh log. After each commit the hub lets the robots whose turn
it is play, one decision at a time, in the robot pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import weakref
from collections.abc import Callable
from typing import Any

from espadas.engine import Action, EspadasError, RuleError
from espadas.robots.base import fallback
from espadas.server.robot_pool import Robots
from espadas.server.settings import Settings
from espadas.store.store import Conflict, Store
from espadas.tables.chat import game_version
from espadas.tables.clock import limit
from espadas.tables.errors import TableError
from espadas.tables.event import TURN_EVENTS, Event
from espadas.tables.finish import FinishedGame, finished_game
from espadas.tables.notice import Notice, plan_first, replaced
from espadas.tables.table import Table
from espadas.tables.view import ViewText

log = logging.getLogger("espadas.hub")

Command = Callable[[Table], list[Event]]

CACHE = 2000
"""Tables kept in memory; beyond, the least recently used idle ones are dropped
(they are read again from the store when next needed). A finished table is
dropped as soon as nobody has it open."""


SEEN_KEPT = 1000
"""Unwritten "seen" marks that make the hub write them at once."""

HEARD_KEPT = 20
"""Announced events kept per table until it is next read (beyond, it is read).
A table someone here has open is read at once; the bound is for cached tables
nobody here is watching."""


WARM_UP_WAIT_S = 120.0
"""How long a robot's first decision waits for the workers' warm-up at most."""


def _follow(new: list[Event], version: int, latest: int) -> bool:
    """Whether ``new`` takes a table from ``version`` to ``latest`` without a gap.

    >>> from datetime import datetime
    >>> e = [Event(s, "note", {}, datetime(2026, 1, 1)) for s in (4, 5)]
    >>> _follow(e, 3, 5), _follow(e, 3, 6), _follow(e[1:], 3, 5), _follow([], 3, 3)
    (True, False, False, False)
    """
    seqs = [e.seq for e in new]
    return bool(seqs) and seqs == list(range(version + 1, latest + 1))


def _counted(table: Table) -> FinishedGame | None:
    """What the club counts of the game that just ended (None, and a logged error,
    if that cannot be made: the game still ends; ``espadas ratings rebuild`` counts it)."""
    if table.boards:  # a daily challenge's table: counted apart, not by the club
        return None
    try:
        return finished_game(table)
    except Exception:
        log.exception("table %s: the club cannot count its game", table.id)
        return None


class Busy(TableError):
    """The table changed under us too many times in a row."""

    status = 503


class Hub:
    """Coordinates the store, the tables, the robots and the live subscribers."""

    def __init__(self, store: Store, settings: Settings, robots: Robots) -> None:
        self.store = store
        self.settings = settings
        self.robots = robots
        self.warming: asyncio.Task[None] | None = None
        """The robot workers' warm-up, while it runs: a robot's time limit starts
        after it (a decision queued behind it would otherwise be late)."""
        self._tables: dict[str, Table] = {}
        self._texts: dict[str, ViewText] = {}
        """Each cached table's newest view text (public part made once per version)."""
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        """Each table's lock, while someone holds it or waits for it."""
        self._subscribers: dict[str, set[asyncio.Event]] = {}
        self._looking: dict[tuple[str, str], int] = {}
        self._latest: dict[str, int] = {}
        """The newest version known of each table (local commits, announcements)."""
        self._heard: dict[str, list[Event]] = {}
        """Events other instances announced for cached tables, not applied yet (they
        are applied under the table's lock, in order, instead of being read)."""
        self._unsure = store.shared
        """With several instances and no announcements heard yet, reads query."""
        self._seen: dict[tuple[str, str], int] = {}
        """What each person has seen, written to the store in batches: before each
        round of notices, and whenever :data:`SEEN_KEPT` marks are waiting."""
        self._flushing: asyncio.Task[None] | None = None
        self.notifier: Any = None
        """The notifier to wake after a change (set by the app when notices are on)."""
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self.closing = False
        self.observers: list[Callable[[Table, list[Event]], None]] = []
        """Called after every commit of this instance with the table and the new
        events (the daily challenge records finished boards this way)."""

    # -- reading ------------------------------------------------------------------
    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _load(self, table_id: str, fresh: bool = True) -> Table:
        """The cached table brought up to date. ``fresh=False`` trusts the cache when
        no newer version is known (from this instance's commits, or announced by
        another instance): reads then cost no query."""
        table = self._tables.pop(table_id, None)
        if table is None:
            table = Table.rebuild(table_id, await self.store.events(table_id), keep_events=False)
            self._tables[table_id] = table
            self._forget_old()
            return table
        self._tables[table_id] = table  # most recently used last
        heard = self._heard.pop(table_id, [])
        latest = self._latest.get(table_id, 0)
        if fresh or latest > table.version or self._unsure:
            new = [e for e in heard if e.seq > table.version]
            if fresh or not _follow(new, table.version, latest):
                new = await self.store.events(table_id, after=table.version)
            for event in new:
                table.apply(event)
        return table

    def _forget_old(self) -> None:
        for old in list(self._tables)[: max(0, len(self._tables) - CACHE)]:
            self._forget(old)
        if len(self._latest) > 2 * CACHE:  # announcements of tables not kept here
            for old in [t for t in self._latest if t not in self._tables]:
                if old not in self._locks:
                    del self._latest[old]

    def _forget(self, table_id: str) -> None:
        """Drops the cached table unless it is in use (a command on it, or someone
        with it open): it is read again from the store when next needed."""
        if table_id in self._locks or table_id in self._subscribers:
            return
        self._tables.pop(table_id, None)
        self._texts.pop(table_id, None)
        self._latest.pop(table_id, None)
        self._heard.pop(table_id, None)

    async def reread(self, table_ids: list[str]) -> None:
        """Drops the cached copies of tables whose logs were rewritten (an account
        deleted): the next read rebuilds them from the store."""
        for table_id in table_ids:
            async with self._lock(table_id):
                self._tables.pop(table_id, None)
                self._texts.pop(table_id, None)

    async def table(self, table_id: str) -> Table:
        """The table as committed now (as far as this instance knows). Raises
        :class:`~espadas.store.store.UnknownTable`."""
        async with self._lock(table_id):
            return await self._load(table_id, fresh=False)

    def view_text(self, table: Table, player: str | None) -> str:
        """``table_view(table, player)`` as JSON text. Everyone's view of one
        version shares its public part, which is built and encoded once."""
        text = self._texts.get(table.id)
        if text is None or text.version != table.version:
            text = ViewText(table, text)
            if table.id in self._tables:
                self._texts[table.id] = text
        return text.of(table, player, limit(table.turn_seconds, self.settings.turn_limit))

    # -- writing ------------------------------------------------------------------
    async def create(self, table: Table, events: list[Event]) -> None:
        """Commits a new table's first events."""
        await self.store.append(table.id, 0, events, table.status, table.creator)
        table.keep_events = False  # the log is in the store
        table.events = []
        self._tables[table.id] = table

    async def command(self, table_id: str, command: Command) -> tuple[Table, list[Event]]:
        """Runs ``command`` on the table and commits what it adds; then tells the
        subscribers and wakes the robots. A refused command changes nothing."""
        fresh = False
        for _attempt in range(8):
            async with self._lock(table_id):
                # the cache is trusted unless a newer version was announced: on a
                # shared database a stale cache makes the append conflict (the key
                # (table_id, seq)), and the command runs again on the fresh log
                table = await self._load(table_id, fresh=fresh)
                before, was = table.version, table.status
                try:
                    new = command(table)
                except BaseException as exc:
                    if table.version != before:  # half applied: read it again
                        self._tables.pop(table_id, None)
                    if isinstance(exc, EspadasError) and self.store.shared and not fresh:
                        fresh = True  # refused: perhaps only by what we had not heard yet
                        continue
                    raise
                if not new:
                    return table, []
                planned: list[Notice] = []
                turn = 0
                if any(e.type in TURN_EVENTS for e in new):
                    turn_limit = limit(table.turn_seconds, self.settings.turn_limit)
                    planned = plan_first(table, turn_limit, self.settings.notice_delay)
                    turn = table.turn_version
                planned += replaced(table, new)  # a robot took a person's seat: tell them
                ended = table.status == "finished" and was != "finished"
                try:
                    await self.store.append(
                        table_id,
                        before,
                        new,
                        table.status,
                        planned=planned,
                        turn=turn,
                        finished=_counted(table) if ended else None,
                    )
                except Conflict:
                    self._tables.pop(table_id, None)
                    continue
                except BaseException:
                    self._tables.pop(table_id, None)
                    raise
            self._latest[table_id] = table.version
            self.notify(table_id)
            for observe in self.observers:
                observe(table, new)
            if table.robot_to_act is not None:
                self.wake_robots(table_id)
            if planned and self.notifier is not None and not self.settings.notice_delay:
                self.notifier.wake.set()  # due now: else the next poll finds them
            return table, new
        raise Busy("busy", "the table is busy; try again")

    async def rematch(self, table_id: str, player: str, partner: int | None) -> tuple[Table, bool]:
        """Opens the rematch of a finished table for its creator, exactly once
        whatever the concurrency: the new table and whether this call opened it.

        Decided under the table's lock on its log as committed (read afresh: a
        cached "not over yet" or "no rematch yet" may be stale on a shared store).
        The new table's id is derived from the old one's (:func:`rematch_id`):
        every request, on every instance, names the same table, and the store's
        key on table ids lets one creation land; then the old table is marked
        (the log's sequence number lets one mark land; marking it again adds
        nothing). Asking again answers the same table; asking with another
        partner once it is open is refused (``rematch_exists``)."""
        now = self.settings.clock.now()
        opened = False  # kept across attempts: a mark lost to a race is no new table
        for _attempt in range(8):
            async with self._lock(table_id):
                old = await self._load(table_id, fresh=True)
                new_id = old.rematch_target(player)
                if old.rematch is None:
                    new, events = Table.rematch_from(old, new_id, now, partner)
                    with contextlib.suppress(Conflict):  # opened by another request
                        await self.create(new, events)
                        opened = True
                table = await self.table(new_id)
                before = old.version
                marks = old.mark_rematch(player, new_id, now)
                try:
                    await self.store.append(table_id, before, marks, old.status)
                except Conflict:
                    self._tables.pop(table_id, None)
                    continue
                except BaseException:
                    self._tables.pop(table_id, None)
                    raise
            if marks:
                self._latest[table_id] = old.version
                self.notify(table_id)
            if not opened and table.rematch_partner != partner:
                raise TableError("rematch_exists", "the rematch is already open", table=new_id)
            return table, opened
        raise Busy("busy", "the table is busy; try again")

    def sizes(self) -> dict[str, int]:
        """How much the hub holds in memory (for ``/health``)."""
        return {
            "tables": len(self._tables),
            "open": len(self._subscribers),
            "connections": sum(len(flags) for flags in self._subscribers.values()),
            "announced": len(self._latest),
            "heard_events": sum(len(new) for new in self._heard.values()),
            "seen_unwritten": len(self._seen),
            "robot_drivers": len(self._drivers),
        }

    # -- live subscribers -----------------------------------------------------------
    def subscribe(self, table_id: str, player: str | None = None) -> asyncio.Event:
        """An event that is set whenever the table has a new version. ``player``
        has the table open meanwhile (no notices for it then)."""
        flag = asyncio.Event()
        self._subscribers.setdefault(table_id, set()).add(flag)
        if player is not None:
            key = (player, table_id)
            self._looking[key] = self._looking.get(key, 0) + 1
        return flag

    def unsubscribe(self, table_id: str, flag: asyncio.Event, player: str | None = None) -> None:
        subscribers = self._subscribers.get(table_id)
        if subscribers is not None:
            subscribers.discard(flag)
            if not subscribers:
                del self._subscribers[table_id]
                table = self._tables.get(table_id)
                if table is not None and table.status == "finished":
                    self._forget(table_id)
        if player is not None:
            key = (player, table_id)
            left = self._looking.get(key, 1) - 1
            if left > 0:
                self._looking[key] = left
            else:
                self._looking.pop(key, None)

    def saw(self, player: str, table_id: str, version: int) -> None:
        """``player`` was shown ``version`` of the table (kept by :meth:`flush_seen`)."""
        key = (player, table_id)
        if self._seen.get(key, 0) < version:
            self._seen[key] = version
        if len(self._seen) >= SEEN_KEPT and (self._flushing is None or self._flushing.done()):
            self._flushing = asyncio.create_task(self.flush_seen())

    async def flush_seen(self) -> None:
        """Writes what people have seen since the last flush (in one transaction)."""
        pending, self._seen = self._seen, {}
        marks = [(player, table_id, version) for (player, table_id), version in pending.items()]
        try:
            await self.store.outbox.mark_seen(marks)
        except Exception:
            log.exception("writing what people have seen failed")
            for (player, table_id), version in pending.items():
                self.saw(player, table_id, version)  # kept for the next flush

    def looking(self, player: str, table_id: str) -> bool:
        """Whether ``player`` has the table open (a live connection to it)."""
        return (player, table_id) in self._looking

    def notify(self, table_id: str) -> None:
        for flag in self._subscribers.get(table_id, ()):
            flag.set()

    def changed_elsewhere(
        self, table_id: str, version: int, events: list[Event] | None = None
    ) -> None:
        """Another instance appended ``events`` (None: not known) to the table: tell
        this instance's clients, let the robots look, and wake the notifier."""
        self._unsure = False
        self._latest[table_id] = max(self._latest.get(table_id, 0), version)
        table = self._tables.get(table_id)
        if table is not None and table.version >= version:
            return  # our own append, already told
        if table is not None:  # kept only while they follow on (else the store is read)
            heard = self._heard.pop(table_id, [])
            if events and (not heard or heard[-1].seq + 1 == events[0].seq):
                heard += events
                if len(heard) <= HEARD_KEPT:
                    self._heard[table_id] = heard
        self.notify(table_id)
        self.wake_robots(table_id)
        if self.notifier is not None and not self.settings.notice_delay:
            self.notifier.wake.set()  # as after a local command: else the next poll

    # -- robots ----------------------------------------------------------------------
    async def resume(self) -> None:
        """Wakes the robots of every game in progress (after a start or a crash)."""
        for table_id in await self.store.tables_with_status("playing"):
            self.wake_robots(table_id)

    def wake_robots(self, table_id: str) -> None:
        """Starts the robot driver of the table unless it is already running."""
        if self.closing:
            return
        task = self._drivers.get(table_id)
        if task is not None and not task.done():
            return
        task = self._drivers[table_id] = asyncio.create_task(self._drive(table_id))
        task.add_done_callback(lambda done: self._driven(table_id, done))

    def _driven(self, table_id: str, task: asyncio.Task[None]) -> None:
        if self._drivers.get(table_id) is task:
            del self._drivers[table_id]

    async def _drive(self, table_id: str) -> None:
        try:
            while not self.closing:
                table = await self.table(table_id)
                seat = table.robot_to_act
                if seat is None or table.game is None:
                    return
                occupant = table.seats[seat]
                assert occupant is not None and occupant.robot is not None
                view = table.game.view_for(seat)
                version = table.version
                moves = game_version(table)
                level = occupant.robot
                command = self.settings.external_robots.get(level)
                seed = _seed(table_id, version)
                faults: list[str] = []
                action: Action
                if self.warming is not None and not self.warming.done():
                    await asyncio.wait({self.warming}, timeout=WARM_UP_WAIT_S)
                try:
                    action, faults = await asyncio.wait_for(
                        self.robots.decide(
                            level, command, seed, self.settings.robot_budget_ms, view
                        ),
                        self.settings.robot_timeout_s,
                    )
                except TimeoutError:
                    faults = [f"late: no answer within {self.settings.robot_timeout_s:g} s"]
                    action = fallback(view)
                except Exception as exc:  # a robot's bug must not stop the table
                    faults = [f"error: {type(exc).__name__}: {exc}"]
                    action = fallback(view)
                await self.command(
                    table_id, _robot_move(seat, moves, action, faults, self.settings)
                )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("robot driver of table %s stopped", table_id)

    async def close(self) -> None:
        self.closing = True
        drivers = list(self._drivers.values())
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(BaseException):
                await task
        for flags in self._subscribers.values():
            for flag in flags:
                flag.set()


def _seed(table_id: str, version: int) -> int:
    digest = hashlib.sha256(f"{table_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _robot_move(
    seat: int, moves: int, action: Action, faults: list[str], settings: Settings
) -> Command:
    """The robot's ``action`` for ``seat``, decided when the table's game
    version (:func:`~espadas.tables.chat.game_version`) was ``moves``: chat
    messages since do not spoil it (else a stream of messages would keep a
    robot deciding again and again)."""

    def move(table: Table) -> list[Event]:
        stale = game_version(table) != moves
        if stale or table.robot_to_act != seat or table.game is None:
            return []  # the table moved on (an accusation, an abandon): ask again
        at = settings.clock.now()
        events: list[Event] = []
        for fault in faults[:10]:
            log.warning("robot at %s seat %d: %s", table.id, seat, fault)
            events += table.fault(seat, fault, at)
        try:
            return events + table.robot_move(seat, action, at)
        except RuleError as exc:
            log.warning("robot at %s seat %d: %s", table.id, seat, exc)
            events += table.fault(seat, f"illegal: {action!r}: {exc}", at)
        events += table.robot_move(seat, fallback(table.game.view_for(seat)), at)
        return events

    return move


def describe(events: list[Event]) -> list[dict[str, Any]]:
    """Events as short JSON (type and sequence number), for responses."""
    return [{"seq": e.seq, "type": e.type} for e in events]
