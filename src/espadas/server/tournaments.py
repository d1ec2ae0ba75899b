"""Duplicate events among people, served: creating, joining, starting (by the
organiser, or by itself at its start time), opening each round's tables, the live
standings, and the end (every deal revealed, the records downloadable).

- **Tables** are ordinary tables (turn limit, notices, robots), their ids
  ``torneo-EVENT-…`` (unguessable), their creator the pseudo-player
  ``torneo:EVENT`` (nobody gets a creator's powers, and no entrant finds the
  other tables of a round in their list of tables), the event's organiser the one
  who may replace an absent entrant by a robot there (the event's ``absent``
  option, :mod:`espadas.tables.absent`), dealt from the round's boards
  (:func:`~espadas.tables.tournament.tournament_dealer`, through
  :meth:`Tournaments.dealer_for`).
- **Rounds** follow one another: when every table of a round has played its
  boards (the hub tells :meth:`Tournaments.observe` after each commit) the next
  round's tables are opened; after the last one the event ends. An event open for
  N days also ends N days after its start, whatever is left unplayed.
- **Secrecy**: the boards stay in the store; before the end nobody gets a card
  except at their own table, one hand at a time. A table's id is shown to those
  seated there, and to everyone once its round is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from espadas.server.hub import Hub
from espadas.server.settings import Settings
from espadas.store.store import Conflict, Player, Store, UnknownTable
from espadas.store.tournaments import EventRow, EventTable, Tournaments
from espadas.tables.boards import Boards, boards_json
from espadas.tables.challenge import ChallengeOver, boards_from_json
from espadas.tables.commitment import fresh_deal
from espadas.tables.errors import TableError
from espadas.tables.event import Event
from espadas.tables.table import Dealer, Table
from espadas.tables.tournament import (
    PREFIX,
    EventSpec,
    Seating,
    Standings,
    deal_boards,
    ends_at,
    event_of_table,
    may_join,
    open_table,
    seat_entrants,
    seat_round,
    standings,
    table_done,
    table_id,
    tournament_dealer,
)

log = logging.getLogger("espadas.events")

TICK_S = 20.0
"""How often the events not finished are looked at (start times, deadlines)."""


class EventRefused(TableError):
    """A refusal of the events' service (its status and code say which)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


@dataclass
class Loaded:
    """What this process keeps of an event to deal its tables."""

    spec: EventSpec
    boards: Boards
    rounds: dict[str, int]
    """The round of each table of the event."""


def new_event_id() -> str:
    return secrets.token_hex(6)


class EventService:
    """The events of one app (see the module docstring)."""

    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.db = Tournaments(store.engine)
        self._loaded: dict[str, Loaded] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticking: asyncio.Task[None] | None = None
        hub.observers.append(self.observe)

    def run(self) -> None:
        """Starts the clock's round (start times and deadlines without a visitor)."""
        self._ticking = asyncio.create_task(self._tick_forever())

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(TICK_S)
            with contextlib.suppress(Exception):
                for event_id in await self.db.unfinished():
                    await self.refresh(event_id)

    # -- creating and joining -----------------------------------------------------
    async def create(self, spec: EventSpec, organiser: Player) -> EventRow:
        boards = deal_boards(spec)
        return await self.db.create(
            new_event_id(),
            spec.to_dict(),
            (organiser.id, organiser.name),
            boards.commitment,
            boards_json(boards, reveal=True),
            secrets.token_urlsafe(12),
            self.settings.clock.now(),
        )

    async def get(self, event_id: str) -> EventRow:
        """The event, started or ended if its time has come. Raises 404."""
        if len(event_id) > 16:
            raise EventRefused(404, "event_unknown", "no such event")
        await self.refresh(event_id)
        found = await self.db.get(event_id)
        if found is None:
            raise EventRefused(404, "event_unknown", "no such event")
        return found

    async def join(self, event: EventRow, player: Player, token: str | None) -> None:
        spec = EventSpec.from_dict(event.spec)
        if event.status != "open":
            raise EventRefused(409, "event_started", "the event has started")
        if spec.invited is None:
            # as bytes: compare_digest refuses str with characters beyond ASCII
            if token is None or not secrets.compare_digest(token.encode(), event.token.encode()):
                raise EventRefused(403, "event_link", "join with the event's link")
        elif not may_join(spec, player.id, player.name):
            raise EventRefused(403, "event_not_invited", "you are not on the event's list")
        await self.db.join(event.id, player.id, player.name, self.settings.clock.now())

    async def leave(self, event: EventRow, player: Player) -> None:
        if event.status != "open":
            raise EventRefused(409, "event_started", "the event has started")
        if not await self.db.leave(event.id, player.id):
            raise EventRefused(409, "event_not_entrant", "you have not joined this event")

    # -- rounds -------------------------------------------------------------------
    def _lock(self, event_id: str) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    async def start(self, event: EventRow, player: Player | None) -> None:
        """Opens round 1 (``player``: the organiser; ``None``: the start time)."""
        if player is not None and player.id != event.organiser_id:
            raise EventRefused(403, "event_not_organiser", "only the organiser may do that")
        async with self._lock(event.id):
            found = await self.db.get(event.id)
            if found is None or found.status != "open":
                raise EventRefused(409, "event_started", "the event has started")
            if not await self.db.entrants(event.id):
                raise EventRefused(409, "event_empty", "nobody has joined the event yet")
            await self._open_round(found, 1)

    async def _open_round(self, event: EventRow, round_: int) -> bool:
        """Writes the round's tables (ids and seats) and moves the event on, then
        opens each table. Only the caller that moved the round opens them; a table
        written but not opened (a crash in between) is opened when next looked at
        (:meth:`_materialise`: the same seats, boards and robots)."""
        spec = EventSpec.from_dict(event.spec)
        entrants = await self.db.entrants(event.id)
        now = self.settings.clock.now()
        rows = [
            EventTable(round_, seating.number, table_id(event.id), list(seating.seats))
            for seating in seat_round(spec, [e.player_id for e in entrants], round_)
        ]
        if not await self.db.open_round(event.id, round_, rows, now):
            return False  # another instance opened it
        for row in rows:
            await self._materialise(event, row, now)
        return True

    async def _materialise(self, event: EventRow, row: EventTable, now: datetime) -> None:
        """Opens the table of ``row`` (once: a second opening is a conflict, ignored)."""
        spec = EventSpec.from_dict(event.spec)
        loaded = self._load(event)
        names = {e.player_id: e.name for e in await self.db.entrants(event.id)}
        seating = Seating(row.round, row.number, tuple(row.seats))
        creator = ("torneo:" + event.id, spec.name[:80])
        table, events = open_table(
            row.table_id, spec, seating, names, creator, loaded.boards, now, event.organiser_id
        )
        with contextlib.suppress(Conflict):
            await self.hub.create(table, events)
        loaded.rounds[row.table_id] = row.round
        self.hub.wake_robots(row.table_id)

    async def refresh(self, event_id: str) -> None:
        """Starts the event at its start time, opens the next round when every table
        of this one is done, ends it after the last round or at its deadline."""
        event = await self.db.get(event_id)
        if event is None or event.status == "finished":
            return
        spec = EventSpec.from_dict(event.spec)
        now = self.settings.clock.now()
        async with self._lock(event_id):
            event = await self.db.get(event_id)
            if event is None or event.status == "finished":
                return
            if event.status == "open":
                if spec.starts_at is not None and spec.starts_at <= now:
                    if await self.db.entrants(event_id):
                        await self._open_round(event, 1)
                    else:
                        await self._finish(event_id, now)
                return
            started = datetime.fromisoformat(event.started_at or now.isoformat())
            deadline = ends_at(spec, started)
            if deadline is not None and deadline <= now:
                await self._finish(event_id, now)
                return
            tables = [t for t in await self.db.tables(event_id) if t.round == event.round]
            if not all([await self._done(event, spec, t) for t in tables]):
                return
            if event.round >= spec.rounds:
                await self._finish(event_id, now)
            else:
                await self._open_round(event, event.round + 1)

    async def _finish(self, event_id: str, now: datetime) -> None:
        await self.db.finish(event_id, now)
        loaded = self._loaded.get(event_id)
        if loaded is not None:  # no table deals any more
            loaded.rounds = {k: -1 for k in loaded.rounds}

    async def _done(self, event: EventRow, spec: EventSpec, row: EventTable) -> bool:
        try:
            return table_done(spec, await self.hub.table(row.table_id))
        except UnknownTable:  # written, never opened: open it now
            await self._materialise(event, row, self.settings.clock.now())
            return False

    # -- dealing ------------------------------------------------------------------
    def _load(self, event: EventRow) -> Loaded:
        found = self._loaded.get(event.id)
        if found is None:
            spec = EventSpec.from_dict(event.spec)
            found = Loaded(spec, boards_from_json(event.boards), {})
            self._loaded[event.id] = found
        return found

    async def ready(self, table: str) -> None:
        """Loads what an event table needs to deal (before a command deals)."""
        event_id = event_of_table(table)
        if event_id is None:
            return
        loaded = self._loaded.get(event_id)
        if loaded is not None and table in loaded.rounds:
            return
        event = await self.db.get(event_id)
        if event is None:
            return
        loaded = self._load(event)
        for row in await self.db.tables(event_id):
            loaded.rounds[row.table_id] = row.round
        if event.status == "finished":
            loaded.rounds = {k: -1 for k in loaded.rounds}

    def dealer_for(self, table: Table) -> Dealer:
        """An event table deals its round's boards (none once the event ended)."""
        event_id = event_of_table(table.id)
        if event_id is None:
            return fresh_deal
        loaded = self._loaded.get(event_id)
        round_ = None if loaded is None else loaded.rounds.get(table.id)
        if loaded is None or round_ is None or round_ < 1:
            raise ChallengeOver("event_over", "the event is over")
        if table_done(loaded.spec, table):
            raise ChallengeOver("event_round_over", "every board of this round is played")
        return tournament_dealer(loaded.spec, loaded.boards, round_, table)

    def observe(self, table: Table, new: list[Event]) -> None:
        """After a commit: an event table that played its last board moves the event."""
        if not table.id.startswith(PREFIX) or table.game is None:
            return
        event_id = event_of_table(table.id)
        loaded = None if event_id is None else self._loaded.get(event_id)
        if event_id is None or loaded is None or not table_done(loaded.spec, table):
            return
        if not any(e.type in ("play", "claim", "abandon") for e in new):
            return
        task = asyncio.create_task(self.refresh(event_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- standings and records ----------------------------------------------------
    async def records(self, event: EventRow) -> list[tuple[EventTable, dict[str, Any]]]:
        """Each table's record and the names the event seated there (``entrants``)."""
        names = {e.player_id: e.name for e in await self.db.entrants(event.id)}
        out = []
        for row in await self.db.tables(event.id):
            with contextlib.suppress(UnknownTable):
                record = (await self.hub.table(row.table_id)).record()
                out.append((row, record | {"entrants": seat_entrants(row.seats, names)}))
        return out

    async def standings(self, event: EventRow) -> Standings:
        spec = EventSpec.from_dict(event.spec)
        records = [(row.round, rec) for row, rec in await self.records(event)]
        return standings(spec, records, final=event.status == "finished")

    async def settle(self) -> None:
        """Waits for the round changes under way (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        tasks = [*self._tasks, *([self._ticking] if self._ticking else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
