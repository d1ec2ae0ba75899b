"""The daily challenge, served: each day's boards (made when first asked for), the
players' attempts at their private tables, the results as boards finish, par and
the leaderboard.

- **The day's challenge** is created lazily, by whoever asks first: fresh boards
  under the challenge's rules, stored under the day's key (two instances asking
  at once store one; both use it). Its set commitment is public from then on;
  its boards stay in the store and in this process's memory (to deal them), and
  reach nobody before the day closes (then its boards file is published).
- **An attempt**: the player's one table (``reto-DAY-…``), the player at seat 0,
  robots in the other seats, board ``i`` dealt as hand ``i``
  (:func:`~espadas.tables.challenge.board_dealer`). Each finished hand is a
  result (the hub tells :meth:`Challenges.observe` after every commit). The
  table's game ends with the last board (``boards``: reason ``"boards"``, the
  side ahead wins; no rematch), as a game ends at its target. A player who leaves hands the hand in
  progress to the robot (which plays it out at the table); the boards not reached
  take the robots' own result there, par (the same robot in their seat, the same
  partner and opponents): every attempt has a result on every board.
- **Par**: the robots play the boards once per challenge, in the robot workers
  (:mod:`~espadas.server.challenge_par`), started when the challenge is first
  read by this process and kept by the first instance to finish.
- **The leaderboard**: :func:`espadas.tables.duplicate.score` over the day's
  results (entrants by player, direction seat 0) with par; made again only when
  the day has new results.
- **Closing**: once the day is over, an attempt not finished is left (as if the
  player had left) when the day is next read, and no board is dealt any more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from time import monotonic
from typing import Any

from espadas.server.challenge_board import Board, standings_json
from espadas.server.challenge_par import play_par, seat_levels
from espadas.server.hub import Hub
from espadas.server.settings import Settings
from espadas.store.challenges import Attempt, BoardResult, Challenge
from espadas.store.store import Player, Store
from espadas.tables.boards import Boards, boards_json, fresh_boards
from espadas.tables.challenge import (
    SEAT,
    ChallengeOver,
    board_dealer,
    boards_from_json,
    boards_played,
    challenge_rules,
    challenge_table_id,
    day_of,
    day_window,
    finished_results,
    leave,
    table_day,
)
from espadas.tables.commitment import fresh_deal
from espadas.tables.event import Event
from espadas.tables.table import Dealer, Table

log = logging.getLogger("espadas.challenges")

FRESH_S = 1.0
"""How late the leaderboard (and a challenge's par) may be, in seconds."""

BUSY_SHARE = 10.0
"""A day's leaderboard is looked at again after at least this many times as long
as its standings last took to make (and :data:`FRESH_S`): making them, in a
thread that holds the interpreter's lock, takes at most a tenth of the time."""

RATE_EVERY_S = 5.0
"""How often (at most) reading today's challenge looks for closed days to rate."""


OVERLAP_S = 10.0
"""How far before the newest result already read a leaderboard read looks again:
a result written (its time taken) before that one but committed after it is not
missed."""

FULL_S = 60.0
"""How often the leaderboard reads all of a day's results again (heals anything
an incremental read could miss)."""


@dataclass
class _Field:
    """A day's results as the leaderboard read them."""

    rows: dict[tuple[str, int], BoardResult] = field(default_factory=dict)
    newest: str = ""
    full_at: float = 0.0


def _earlier(at: str, seconds: float) -> str:
    """``at`` (ISO, as the store writes it) ``seconds`` earlier.

    >>> _earlier("2026-12-01T10:00:05+00:00", 10)
    '2026-12-01T09:59:55+00:00'
    """
    return (datetime.fromisoformat(at) - timedelta(seconds=seconds)).isoformat()


def start_time(text: str) -> time:
    """``HH:MM`` as a time of day (UTC).

    >>> start_time("06:30")
    datetime.time(6, 30)
    """
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


class Challenges:
    """The daily challenge of one app (see the module docstring)."""

    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.start = start_time(settings.challenge_start)
        self._boards: dict[str, Boards] = {}
        self._par: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._boards_seen: dict[str, int] = {}
        """Each challenge table's finished boards already passed on to the store."""
        self._standings: dict[str, tuple[float, tuple[int, ...], Board]] = {}
        """Each day's leaderboard: when it was last looked at (monotonic seconds),
        its version (results, par known, closed) and its JSON."""
        self._cost: dict[str, float] = {}
        """How long each day's standings last took to make (seconds)."""
        self._fields: dict[str, _Field] = {}
        """Each day's results as the leaderboard last read them."""
        self._closed: set[str] = set()
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._known: dict[str, tuple[float, Challenge]] = {}
        """Each day's challenge as last read, and when (monotonic seconds)."""
        self._rated_at = -RATE_EVERY_S
        self._rating: asyncio.Task[None] | None = None
        hub.observers.append(self.observe)

    # -- days -----------------------------------------------------------------
    def today(self) -> str:
        return day_of(self.settings.clock.now(), self.start)

    def is_closed(self, day: str) -> bool:
        return day < self.today()

    def window(self, day: str) -> tuple[datetime, datetime]:
        return day_window(day, self.start)

    def levels(self) -> dict[str, str]:
        return {
            "partner": self.settings.challenge_partner,
            "opponents": self.settings.challenge_opponents,
        }

    # -- the challenge ------------------------------------------------------------
    async def challenge(self, day: str, create: bool = False) -> Challenge | None:
        """``day``'s challenge; with ``create`` (today only) made if missing. Kept in
        memory once read (read again, at most every :data:`FRESH_S`, until par is
        known)."""
        kept = self._known.get(day)
        if kept is not None and (kept[1].par is not None or monotonic() - kept[0] < FRESH_S):
            found: Challenge | None = kept[1]
        else:
            found = await self._read(day, create)
        if found is None:
            return None
        if self.is_closed(day) and day not in self._closed:
            self._closed.add(day)
            await self._close(day)
        elif create:
            self._rate_soon()
        return found

    async def _read(self, day: str, create: bool) -> Challenge | None:
        found = await self.store.challenges.get(day)
        if found is None and create:
            rules = challenge_rules(self.settings.challenge_preset)
            boards = fresh_boards(rules, self.settings.challenge_boards)
            found = await self.store.challenges.create(
                day,
                boards.commitment,
                boards_json(boards, reveal=True),
                self.levels(),
                self.settings.clock.now(),
            )
        if found is None:
            return None
        if day not in self._boards:
            self._boards[day] = boards_from_json(found.boards)
        if found.par is None:
            self._start_par(day, found)
        self._known[day] = (monotonic(), found)
        return found

    def boards(self, day: str) -> Boards:
        """The boards of a challenge read by this process (:meth:`challenge`)."""
        return self._boards[day]

    def public(self, challenge: Challenge) -> dict[str, Any]:
        """What anybody may know of a challenge before it closes."""
        opens, closes = self.window(challenge.day)
        data = challenge.boards
        return {
            "day": challenge.day,
            "opens_at": opens.isoformat(),
            "closes_at": closes.isoformat(),
            "closed": self.is_closed(challenge.day),
            "commitment": challenge.commitment,
            "boards": [
                {"board": b["board"], "dealer": b["dealer"], "commitment": b["commitment"]}
                for b in data["boards"]
            ],
            "rules": data["rules"],
            "robots": challenge.robots,
            "seat": SEAT,
            "par_ready": challenge.par is not None,
        }

    # -- dealing --------------------------------------------------------------------
    async def ready(self, table_id: str) -> None:
        """Loads the boards of a challenge table's day (before a command deals)."""
        day = table_day(table_id)
        if day is not None and day not in self._boards:
            await self.challenge(day)

    def dealer_for(self, table: Table) -> Dealer:
        """The dealer of ``table``: its boards at a challenge table (none once its day
        is closed), the cryptographic source elsewhere."""
        day = table_day(table.id)
        if day is None:
            return fresh_deal
        boards = self._boards.get(day)
        if boards is None or self.is_closed(day):
            raise ChallengeOver("challenge_closed", "the day's challenge is closed")
        if boards_played(table) >= len(boards.boards):
            raise ChallengeOver("challenge_over", "every board of the challenge is played")
        return board_dealer(boards, table)

    # -- attempts -------------------------------------------------------------------
    async def begin(self, player: Player) -> Attempt:
        """Opens ``player``'s attempt at today's challenge. Raises
        :class:`~espadas.store.challenges.AlreadyAttempted`."""
        day = self.today()
        challenge = await self.challenge(day, create=True)
        assert challenge is not None
        boards = self._boards[day]
        now = self.settings.clock.now()
        table_id = challenge_table_id(day)
        await self.store.challenges.start(day, player.id, player.name, table_id, now)
        table, events = Table.create(  # counted apart: not in the club's ratings
            table_id,
            boards.rules,
            player.id,
            player.name,
            now,
            rated=False,
            boards=len(boards.boards),
        )
        levels = seat_levels(
            boards.rules.players,
            challenge.robots["partner"],
            challenge.robots["opponents"],
            boards.rules.partnerships,
        )
        offered = (*self.settings.robot_levels(), *levels)
        for seat in range(1, boards.rules.players):
            events += table.add_robots(player.id, levels[seat], now, [seat], offered)
        events += table.start(player.id, now, dealer=board_dealer(boards, table))
        await self.hub.create(table, events)
        self.hub.wake_robots(table_id)
        found = await self.store.challenges.attempt(day, player.id)
        assert found is not None
        return found

    async def leave(self, attempt: Attempt) -> None:
        """The player leaves: the robot plays on in their seat (see the module)."""
        challenge = await self.challenge(attempt.day)
        assert challenge is not None
        now = self.settings.clock.now()
        level = challenge.robots["partner"]
        table = await self.hub.table(attempt.table_id)
        first = boards_played(table) + 1
        if first > len(self._boards[attempt.day].boards):
            return  # nothing was left to play
        # marked first: the hand the robot finishes is then recorded as the robot's
        await self.store.challenges.mark_left(attempt.day, attempt.player_id, first, now)
        await self.hub.command(attempt.table_id, lambda t: leave(t, level, now))
        if challenge.par is not None:
            await self._fill(attempt.day, attempt.player_id, attempt.table_id, challenge.par)

    async def _fill(self, day: str, player_id: str, table_id: str, par: list[int]) -> None:
        """The boards a player who left never reached take par (the robot's play)."""
        table = await self.hub.table(table_id)
        dealt = 0 if table.game is None else len(table.game.hands)  # the robot ends its last
        results = [(b, par[b - 1], True) for b in range(dealt + 1, len(par) + 1)]
        await self.store.challenges.add_results(day, player_id, results, self.settings.clock.now())
        await self._maybe_finished(day, player_id, len(par))

    async def _maybe_finished(self, day: str, player_id: str, count: int) -> None:
        if await self.store.challenges.count(day, player_id) >= count:
            await self.store.challenges.mark_finished(day, player_id, self.settings.clock.now())

    async def _close(self, day: str) -> None:
        for attempt in await self.store.challenges.attempts(day):
            with contextlib.suppress(Exception):
                await self.reconcile(attempt)
                if attempt.left_at is None and attempt.finished_at is None:
                    await self.leave(attempt)

    # -- the challenge rating ---------------------------------------------------------
    def _rate_soon(self) -> None:
        """Rates the closed days not rated yet, in the background (at most every
        :data:`RATE_EVERY_S`): each is closed first (its unfinished attempts left)."""
        if monotonic() - self._rated_at < RATE_EVERY_S:
            return
        if self._rating is not None and not self._rating.done():
            return
        self._rated_at = monotonic()
        self._rating = asyncio.create_task(self._rate_closed())

    async def _rate_closed(self) -> None:
        try:
            today = self.today()
            for day in await self.store.challenge_ratings.unrated(today):
                await self.challenge(day)
            await self.store.challenge_ratings.rate_closed(today, self.settings.clock.now())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the challenge ratings could not be counted")

    # -- results --------------------------------------------------------------------
    def observe(self, table: Table, new: list[Event]) -> None:
        """After a commit: a challenge table that finished a board passes it on."""
        day = table_day(table.id)
        if day is None or table.game is None:
            return
        played = boards_played(table)
        if played <= self._boards_seen.get(table.id, 0):
            return
        first = self._boards_seen.get(table.id, 0) + 1
        self._boards_seen[table.id] = played
        results = finished_results(table, first)
        self._spawn(self._record(day, table.id, results))

    async def _record(self, day: str, table_id: str, results: list[tuple[int, int]]) -> None:
        attempt = await self.store.challenges.attempt_at(table_id)
        if attempt is None:
            return
        left = attempt.left_board
        rows = [(b, p, left is not None and b >= left) for b, p in results]
        await self.store.challenges.add_results(
            day, attempt.player_id, rows, self.settings.clock.now()
        )
        boards = self._boards.get(day)
        if boards is not None:
            await self._maybe_finished(day, attempt.player_id, len(boards.boards))

    async def reconcile(self, attempt: Attempt) -> None:
        """Writes the finished boards of an attempt's table that the store lacks (a
        result lost to a restart between a hand's end and its writing)."""
        if attempt.finished_at is not None:
            return
        table = await self.hub.table(attempt.table_id)
        await self._record(attempt.day, table.id, finished_results(table))

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- par ------------------------------------------------------------------------
    def _start_par(self, day: str, challenge: Challenge) -> None:
        task = self._par.get(day)
        if task is not None and not task.done():
            return
        self._par[day] = asyncio.create_task(self._play_par(day, challenge))

    async def _play_par(self, day: str, challenge: Challenge) -> None:
        try:
            boards = self._boards[day]
            rules = boards.rules
            levels = seat_levels(
                rules.players,
                challenge.robots["partner"],
                challenge.robots["opponents"],
                rules.partnerships,
            )
            par = await play_par(
                self.hub.robots, day, boards, levels, self.settings.robot_budget_ms
            )
            await self.store.challenges.set_par(day, par)
            stored = await self.store.challenges.get(day)
            par = stored.par if stored is not None and stored.par is not None else par
            for attempt in await self.store.challenges.attempts(day):
                if attempt.left_board is not None:
                    await self._fill(day, attempt.player_id, attempt.table_id, par)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("par of the challenge of %s failed", day)

    async def par_done(self, day: str) -> None:
        """Waits for this process's par of ``day`` (tests, the benchmark)."""
        task = self._par.get(day)
        if task is not None:
            await asyncio.shield(task)

    # -- the leaderboard ------------------------------------------------------------
    async def leaderboard(self, day: str, challenge: Challenge) -> tuple[Board, str]:
        """The day's standings (:class:`~espadas.server.challenge_board.Board`) and
        their version (an ETag's core). Looked at again at most every
        :data:`FRESH_S` (or :data:`BUSY_SHARE` times their making's time), in the
        background: a read meanwhile gets the last one made and costs no query;
        the first read of a day waits for it."""
        kept = self._standings.get(day)
        if kept is None:
            await self._refresh(day, challenge)
            kept = self._standings[day]
        elif monotonic() - kept[0] >= max(FRESH_S, BUSY_SHARE * self._cost.get(day, 0.0)):
            task = self._refreshing.get(day)
            if task is None or task.done():
                self._refreshing[day] = asyncio.create_task(self._refresh(day, challenge))
        return kept[2], ".".join(str(v) for v in kept[1])

    async def _refresh(self, day: str, challenge: Challenge) -> None:
        """One query: the results written since the last read (a margin of
        :data:`OVERLAP_S` before it, for writes that landed late; every
        :data:`FULL_S` all of them again), merged into the day's results; the
        standings are made again only when they changed."""
        known = self._fields.setdefault(day, _Field())
        full = not known.newest or monotonic() - known.full_at >= FULL_S
        since = None if full else _earlier(known.newest, OVERLAP_S)
        rows = await self.store.challenges.results_since(day, since)
        found = {(r.player_id, r.board): r for r, _at in rows}
        if full:
            known.rows, known.full_at = found, monotonic()
        else:
            known.rows.update(found)
        known.newest = max([known.newest, *(at for _r, at in rows)])
        current = self._known.get(day)
        par = current[1].par if current is not None else challenge.par
        closed = self.is_closed(day)
        # a result, once written, never changes: their number is the version
        version = (len(known.rows), int(par is not None), int(closed))
        kept = self._standings.get(day)
        if kept is not None and kept[1] == version:
            self._standings[day] = (monotonic(), version, kept[2])
            return
        results = [*known.rows.values()]
        boards = len(challenge.boards["boards"])
        began = monotonic()
        made = await asyncio.to_thread(  # the event loop keeps answering meanwhile
            standings_json, day, closed, boards, par, results
        )
        self._cost[day] = monotonic() - began
        self._standings[day] = (monotonic(), version, made)

    async def close(self) -> None:
        tasks = [*self._par.values(), *self._tasks, *self._refreshing.values()]
        tasks += [] if self._rating is None else [self._rating]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
