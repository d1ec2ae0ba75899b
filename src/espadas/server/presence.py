"""Who is connected to a live game: a dropped person's seat waits for them.

The live sockets (:mod:`espadas.server.live`) tell this watcher when a seated
person opens and closes one. When a person's last socket to a table closes on
this instance during a live game (:func:`~espadas.tables.presence.is_live`),
the watcher waits a moment (a page being reloaded comes straight back), then
writes ``away`` to the table's log with the end of the countdown; a socket of
that person opening again, on any instance, writes ``back``. When a countdown
ends with the person still away, the table's absent rule applies
(:func:`~espadas.tables.absent.expire`).

Several instances: the entries travel as every other entry of the log does
(PostgreSQL's announcements), and each instance that has the table open keeps
a timer of its own for each countdown it sees; the first to apply the rule
writes the ``replace``, and the others, running the same command on the log as
it then stands, find nothing to do. A person whose socket is open on another
instance when this one writes ``away`` is written ``back`` at once by that
instance (it sees its own open socket, and the seat shown as away).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from datetime import datetime, timedelta
from typing import Any

from espadas.server.hub import Hub
from espadas.server.settings import Settings
from espadas.store.store import UnknownTable
from espadas.tables.absent import expire
from espadas.tables.clock import limit
from espadas.tables.event import Event
from espadas.tables.presence import LIVE_LIMIT, away_seats, back, drop, in_play, is_live
from espadas.tables.table import Table

log = logging.getLogger("espadas.presence")

GRACE_S = 2.0
"""How long a closed socket may stay closed before its seat counts as dropped
(at most a quarter of the drop wait): a reload, a network change."""


class Presence:
    """Drops, returns and countdowns of the live games this instance serves."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub = hub
        self.settings = settings
        self._tasks: set[asyncio.Task[None]] = set()
        self._timers: dict[tuple[str, int], datetime] = {}
        """The countdowns this instance waits for: (table, seat) -> its end."""

    def live(self, table: Table) -> bool:
        """Whether the table's game is live (a seat waits for a dropped person): its
        turn limit, or else the club's, is under an hour."""
        turn_limit = limit(table.turn_seconds, self.settings.turn_limit)
        return is_live(turn_limit) and self.settings.drop_wait_s > 0

    @property
    def wait(self) -> timedelta:
        return timedelta(seconds=self.settings.drop_wait_s)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- what the sockets say ----------------------------------------------------
    def seen(self, table: Table, player: str | None) -> None:
        """A socket of ``player`` (``None``: a spectator) was shown ``table``:
        keep a timer for each countdown, and end ``player``'s own countdown (their
        socket is open here)."""
        if not self.live(table):
            return
        away = away_seats(table)
        for seat, entry in away.items():
            if self._timers.get((table.id, seat)) != entry.until:
                self._timers[(table.id, seat)] = entry.until
                self._spawn(self._countdown(table.id, seat, entry.until))
        mine = table.seat_of(player)
        if player is not None and mine in away and not self.hub.closing:
            self._spawn(self._command(table.id, "back", player))

    def closed(self, table_id: str, player: str | None) -> None:
        """A socket of ``player`` to the table closed on this instance."""
        closing = self.hub.closing
        if (
            self.settings.drop_wait_s > 0
            and player is not None
            and not closing
            and not self.hub.looking(player, table_id)
        ):
            self._spawn(self._dropped(table_id, player))

    # -- what it does ------------------------------------------------------------
    async def _dropped(self, table_id: str, player: str) -> None:
        await asyncio.sleep(min(GRACE_S, self.settings.drop_wait_s / 4))
        if self.hub.looking(player, table_id) or self.hub.closing:
            return  # back already (on this instance)
        table = await self.hub.table(table_id)
        if self.live(table) and in_play(table) and table.seat_of(player) is not None:
            await self._command(table_id, "away", player)

    async def _countdown(self, table_id: str, seat: int, until: datetime) -> None:
        try:
            left = (until - self.settings.clock.now()).total_seconds()
            await asyncio.sleep(max(0.0, left) + 0.05)
            if not self.hub.closing:
                await self._command(table_id, "expire", None)
        finally:
            if self._timers.get((table_id, seat)) == until:
                del self._timers[(table_id, seat)]

    async def _command(self, table_id: str, kind: str, player: str | None) -> None:
        def command(table: Table) -> list[Event]:
            at = self.settings.clock.now()
            if kind == "away" and player is not None:
                return drop(table, player, at, self.wait)
            if kind == "back" and player is not None:
                return back(table, player, at)
            return expire(table, at)

        try:
            table, _new = await self.hub.command(table_id, command)
        except UnknownTable:
            return
        except Exception:
            log.exception("table %s: %s", table_id, kind)
            return
        if kind == "away":
            self.seen(table, None)  # this instance keeps the countdown

    async def resume(self) -> None:
        """After a start: a timer for each countdown of the games in progress
        (every game if the club's are live, else those that moved in the last
        hour: only a table with a live turn limit of its own may have one). A
        table that cannot be read is left to the requests that ask for it."""
        if self.settings.drop_wait_s <= 0:
            return
        store = self.hub.store
        if is_live(self.settings.turn_limit):
            table_ids = await store.tables_with_status("playing")
        else:
            since = self.settings.clock.now() - LIVE_LIMIT
            table_ids = await store.lobby.playing(since, limit=10_000)
        for table_id in table_ids:
            try:
                self.seen(await self.hub.table(table_id), None)
            except UnknownTable:
                continue
            except Exception:
                log.exception("table %s: its countdowns were not resumed", table_id)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
