"""The lobby service: quick play, the open tables, the games to watch, and the
lobby sockets of this instance.

Every instance runs the same round every :attr:`Settings.lobby_tick_s`: it vouches
for the people with a lobby socket open here (the others drop out of the queue
after :data:`espadas.store.lobby.STALE`), forms what tables it can
(:meth:`espadas.store.lobby.Lobby.form`: claimed in the database, then created
here), creates the claimed tables an instance left unmade, and tells its sockets
what changed. Nothing is kept here that another instance would need: the queue
is in the database.

A quick-play table: the rule set's rules, the longest waiting person its creator,
robots of the first person's level in the seats nobody took (the game is rated
only without robots), an absent person replaced by a robot, started at once and
played live (:data:`~espadas.tables.clock.LIVE_TURN_LIMIT` a turn, unless the
club's is shorter). Each person's seat waits for them as for a dropped person
(:mod:`espadas.tables.presence`): whoever does not open the table within
:attr:`~espadas.server.settings.Settings.lobby_arrival_s` (20 s, the lobby's
default wait) is replaced by a robot, so no table the queue formed is left dead.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from espadas.engine import Rules
from espadas.server.errors import ApiError
from espadas.server.hub import Hub
from espadas.server.presence import Presence
from espadas.server.settings import Settings
from espadas.store.lobby import STALE, Entry, Seated, Taken
from espadas.store.store import Conflict, Player, Store, UnknownTable
from espadas.tables.challenge import PREFIX as CHALLENGE_PREFIX
from espadas.tables.clock import LIVE_TURN_LIMIT, limit
from espadas.tables.presence import drop
from espadas.tables.quick import MINE, RULE_SETS
from espadas.tables.rating import START, kind_of
from espadas.tables.table import Table

log = logging.getLogger("espadas.lobby")

WAIT_RANGE = (1.0, 300.0)
"""The wait before robots a person may choose (seconds)."""
LIVE_SINCE = timedelta(minutes=30)
"""A game in progress that moved this recently is live: its people are not seated
by quick play elsewhere, and it is listed to watch."""
VOUCH_EVERY = timedelta(seconds=2)
LISTS_EVERY = timedelta(seconds=1)
LISTS_SOCKETS = 100
"""Beyond this many lobby sockets on an instance, the lists are kept longer than
:data:`LISTS_EVERY` in proportion (300 sockets: 3 s): the frames they cost stay
about one a second for a hundred sockets, however many wait."""
ORPHANS_AFTER = timedelta(seconds=5)
ROUND_GAP_S = 0.1
"""The least time between two rounds: the presses of a busy moment share one."""
MADE_KEPT = 10_000
"""How many tables known to exist each instance remembers (then it starts again)."""


def rule_set_of(rules: Rules) -> str:
    """The quick-play key of a table's rules (for the lists' filter).

    >>> rule_set_of(Rules.from_preset("sala", players=5)), rule_set_of(Rules())
    ('sala-5', 'estandar')
    """
    if rules.preset == "sala" and rules.players != 4:
        return f"sala-{rules.players}"
    return rules.preset


def custom_pool(rules: Rules) -> str:
    """The pool of "my rules": the same rules, the same pool."""
    text = json.dumps(rules.to_dict(), sort_keys=True)
    return "mine-" + hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(eq=False)
class Socket:
    """One lobby socket of this instance: its person (or none) and its outbox."""

    player: str | None
    frames: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    last: str = ""
    own: str = ""
    """The socket's own part of its last frame (``you`` and ``seek``)."""
    shared: str = ""
    """The lists its last frame carried (the same string object while they hold)."""
    seated: bool = False
    """The last frame told its person their table (nothing to leave on closing)."""


class LobbyService:
    """Quick play, open tables and watching, for one instance."""

    def __init__(self, store: Store, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.lobby = store.lobby
        self.hub = hub
        self.settings = settings
        self.sockets: set[Socket] = set()
        self._task: asyncio.Task[None] | None = None
        self._vouched = datetime.min.replace(tzinfo=UTC)
        self._orphans = datetime.min.replace(tzinfo=UTC)
        self._lists: dict[str, Any] = {}
        self._encoded: tuple[dict[str, Any], str] = ({}, "")
        self._listed = datetime.min.replace(tzinfo=UTC)
        self.wake = asyncio.Event()
        self._made: set[str] = set()
        """Tables of the queue known to exist (see :meth:`made`)."""
        self.presence: Presence | None = None
        """The instance's watcher of dropped people (keeps the arrivals' countdowns)."""

    # -- running ------------------------------------------------------------------
    def run(self) -> None:
        self._task = asyncio.create_task(self._rounds())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for socket in self.sockets:
            socket.frames.put_nowait("")

    async def _rounds(self) -> None:
        while True:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a lobby round failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), self.settings.lobby_tick_s)
            # many presses at once make one round, not one each
            await asyncio.sleep(min(ROUND_GAP_S, self.settings.lobby_tick_s))
            self.wake.clear()

    async def round(self) -> None:
        """One round: vouch, form, build, tell (see the module)."""
        now = self.settings.clock.now()
        here = sorted({s.player for s in self.sockets if s.player is not None})
        if now - self._vouched >= VOUCH_EVERY:
            await self.lobby.vouch(here, now)
            await self.store.seeks.vouch(here, now)
            if await self.store.seeks.expire(now - STALE):
                self._lists = {}  # an expired seek leaves the lists at once
            self._vouched = now
        try:
            formed = await self.lobby.form(now)
        except Taken:
            formed = []
            self.wake.set()  # someone moved meanwhile: again at once
        if now - self._orphans >= ORPHANS_AFTER:
            formed += await self.lobby.unbuilt(now - ORPHANS_AFTER)
            self._orphans = now
        for seated in formed:
            await self.build(seated)
        await self.tell(here, now)

    async def build(self, seated: Seated) -> None:
        """Creates and starts a table the queue formed (once, whoever asks)."""
        rules = Rules.from_dict(seated.rules)
        now = self.settings.clock.now()
        (creator, name), *others = seated.people
        robots = rules.players - len(seated.people)
        own = LIVE_TURN_LIMIT if self.settings.turn_limit > LIVE_TURN_LIMIT else None
        table, events = Table.create(
            seated.table_id,
            rules,
            creator,
            name,
            now,
            rated=robots == 0,
            absent="robot",
            turn_limit=None if own is None else int(own.total_seconds()),
        )
        for player, other in others:
            events += table.join(player, other, now)
        if robots:
            events += table.add_robots(creator, seated.robot, now, levels=self.levels())
        events += table.start(creator, now)
        arrival = timedelta(seconds=self.settings.lobby_arrival_s)
        if self.presence is not None and self.presence.live(table):
            for player, _name in seated.people:  # each seat waits for its person
                events += drop(table, player, now, arrival)
        try:
            await self.hub.create(table, events)
        except Conflict:
            self._made.add(table.id)
            return  # made already, by this round's claimer or a recovery
        self._made.add(table.id)
        if self.presence is not None:
            self.presence.seen(table, None)  # this instance keeps the countdowns
        self.hub.wake_robots(table.id)

    def levels(self) -> tuple[str, ...]:
        return self.settings.robot_levels()

    # -- telling the sockets ------------------------------------------------------------
    async def tell(self, here: list[str], now: datetime) -> None:
        """Sends each socket its state, where it changed."""
        if not self.sockets:
            return
        entries = await self.lobby.entries(here)
        made = await self.made({e.table_id for e in entries.values() if e.table_id})
        for player, row in list(entries.items()):
            if row.table_id is not None and row.table_id not in made:
                # claimed (by another instance) but not created yet: a person sent
                # there now would find no such table; told at a later round
                entries[player] = replace(row, table_id=None)
        seeks = await self.store.seeks.of_many(here)
        shared = await self._shared(now)  # the lists, encoded once for every socket
        for socket in list(self.sockets):
            entry = entries.get(socket.player) if socket.player else None
            seek = seeks.get(socket.player) if socket.player else None
            own = _compact(
                {
                    "type": "lobby",
                    "you": None if entry is None else entry.public(),
                    "seek": None if seek is None else seek.public(),
                }
            )
            if own == socket.own and shared is socket.shared and socket.last:
                continue  # nothing new for this socket: no frame built
            frame = own[:-1] + "," + shared + "}" if shared else own
            socket.own, socket.shared = own, shared
            if frame != socket.last:
                socket.last = frame
                socket.seated = entry is not None and entry.table_id is not None
                socket.frames.put_nowait(frame)

    async def _shared(self, now: datetime) -> str:
        """The lists as a frame carries them (without braces), encoded again only
        when they were made again."""
        lists = await self.lists(now)
        if lists is not self._encoded[0]:
            self._encoded = (lists, _compact(lists)[1:-1])
        return self._encoded[1]

    async def made(self, table_ids: set[str]) -> set[str]:
        """Those of ``table_ids`` that exist: a table another instance claimed may
        not be created yet. Tables built here, or found once, are not read again."""
        if len(self._made) > MADE_KEPT:
            self._made.clear()
        for table_id in table_ids - self._made:
            if await self.store.version(table_id) is not None:
                self._made.add(table_id)
        return table_ids & self._made

    def connect(self, player: str | None) -> Socket:
        socket = Socket(player)
        self.sockets.add(socket)
        self.wake.set()
        return socket

    async def disconnect(self, socket: Socket) -> None:
        """A lobby socket closed: its person leaves every queue unless another
        lobby socket of theirs is open here, or it had told them their table."""
        self.sockets.discard(socket)
        player = socket.player
        if socket.seated or player is None:
            return
        if not any(s.player == player for s in self.sockets):
            await self.lobby.leave([player])
            if await self.store.seeks.withdraw([player]):
                self._lists = {}
                self.wake.set()

    def resend(self, socket: Socket) -> None:
        socket.last = ""
        self.wake.set()

    # -- the lists ----------------------------------------------------------------------
    async def lists(self, now: datetime | None = None) -> dict[str, Any]:
        """``counts`` (waiting per rule set), ``open`` tables and games to ``watch``
        (highest rated first), made at most once per :data:`LISTS_EVERY`."""
        now = now or self.settings.clock.now()
        if self._lists and now - self._listed < self.lists_every():
            return self._lists
        open_ids = await self.lobby.open_tables()
        playing = await self.lobby.playing(now - LIVE_SINCE)
        seeks = await self.store.seeks.listed()
        found: list[Table] = []
        for table_id in [*open_ids, *playing, *[s.table_id for s in seeks]]:
            if table_id.startswith(CHALLENGE_PREFIX):
                continue  # a daily challenge is played alone
            with contextlib.suppress(UnknownTable):
                found.append(await self.hub.table(table_id))
        subjects = sorted({s for t in found for s in _subjects(t)})
        ratings = await self.lobby.ratings(subjects)
        opened: list[dict[str, Any]] = []
        watched: list[tuple[int, dict[str, Any]]] = []
        sought: dict[str, dict[str, Any]] = {}
        for table in found:
            item = self.describe(table, ratings)
            seats = item["seats"]
            seek = next((s for s in seeks if s.table_id == table.id), None)
            if table.status == "waiting" and seek is not None:
                creator = table.seats[0]
                item |= seek.public() | {"by": None if creator is None else creator.name}
                item["free"] = sum(1 for s in table.seats if s is None)
                sought[table.id] = item
            elif table.status == "waiting" and table.id in open_ids:
                item["free"] = sum(1 for s in table.seats if s is None)
                opened.append(item)
            elif table.status == "playing":
                rated = [s["rating"] for s in seats if s is not None and s["rating"] is not None]
                item["rating"] = rating = round(sum(rated) / len(rated)) if rated else START
                watched.append((rating, item))
        watched.sort(key=lambda pair: (-pair[0], pair[1]["id"]))
        self._lists = {
            "counts": await self.lobby.counts(),
            "open": opened,
            "seeks": [sought[s.table_id] for s in seeks if s.table_id in sought],
            "watch": [item for _, item in watched],
        }
        self._listed = now
        return self._lists

    def lists_every(self) -> timedelta:
        """How long the lists are kept: :data:`LISTS_EVERY`, longer when many
        sockets watch the lobby (each new list is a frame to each of them)."""
        return LISTS_EVERY * max(1.0, len(self.sockets) / LISTS_SOCKETS)

    def describe(self, table: Table, ratings: dict[tuple[str, str], int]) -> dict[str, Any]:
        """A table as the lobby's lists show it: id, rule set, players, the seats
        (name, robot, rating) and ``live`` or ``days``."""
        kind = kind_of(table.rules.partnerships)
        return {
            "id": table.id,
            "rules": rule_set_of(table.rules),
            "players": table.rules.players,
            "seats": [_seat(s, kind, ratings) for s in table.seats],
            "turns": turns_of(limit(table.turn_seconds, self.settings.turn_limit)),
        }

    # -- quick play -------------------------------------------------------------------
    async def quick(
        self,
        player: Player,
        key: str,
        wait: float | None,
        robot: str | None,
        min_completion: float = 0.0,
    ) -> Entry:
        """Puts ``player`` in the queue of rule set ``key``, seated only with people
        who finish at least ``min_completion`` of their rated games; refused with a
        clear 4xx for an unknown rule set, a wait or a completion rate out of range,
        an unknown robot, or a person seated at a live game."""
        rules, pool = await self.rules_of(player.id, key)
        wait_s = self.settings.lobby_wait_s if wait is None else wait
        if not WAIT_RANGE[0] <= wait_s <= WAIT_RANGE[1]:
            low, high = WAIT_RANGE
            raise ApiError(422, "lobby_bad_wait", low=int(low), high=int(high))
        if not 0.0 <= min_completion <= 1.0:
            raise ApiError(422, "lobby_bad_completion")
        level = robot or "experto"
        if level not in self.levels():
            raise ApiError(422, "lobby_bad_robot", levels=", ".join(self.levels()))
        now = self.settings.clock.now()
        kind = kind_of(rules.partnerships)
        standing = await self.lobby.standing(player.id, now - LIVE_SINCE, kind)
        if standing.busy:
            raise ApiError(409, "lobby_playing")
        completion = (await self.store.club.completion(player.id)).rate
        entry = await self.lobby.join(
            player.id,
            player.name,
            pool,
            rules.to_dict(),
            standing.rating,
            wait_s,
            level,
            now,
            completion,
            min_completion,
        )
        # one way to wait at a time
        if standing.seeking and await self.store.seeks.withdraw([player.id]):
            self._lists = {}
        self.wake.set()
        return entry

    async def rules_of(self, player_id: str, key: str) -> tuple[Rules, str]:
        """The rules of a quick-play key and its pool (422 for an unknown key, 409
        for ``mine`` before any table)."""
        if key in RULE_SETS:
            preset, options = RULE_SETS[key]
            return Rules.from_preset(preset, **options), key
        if key == MINE:
            rules = await self._last_rules(player_id)
            if rules is None:
                raise ApiError(409, "lobby_no_last_table")
            return rules, custom_pool(rules)
        raise ApiError(422, "lobby_bad_rules", rules=", ".join([*RULE_SETS, MINE]))

    async def _last_rules(self, player_id: str) -> Rules | None:
        for row in await self.store.tables_of(player_id, limit=20):
            with contextlib.suppress(UnknownTable):
                table = await self.hub.table(row["id"])
                if table.creator == player_id and not table.id.startswith(CHALLENGE_PREFIX):
                    return table.rules
        return None

    async def leave(self, player_id: str) -> bool:
        left = await self.lobby.leave([player_id]) > 0
        self.wake.set()
        return left


def _compact(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def turns_of(turn_limit: timedelta) -> str:
    """``live`` for a turn limit under an hour, else ``days``.

    >>> turns_of(LIVE_TURN_LIMIT), turns_of(timedelta(hours=48))
    ('live', 'days')
    """
    return "live" if turn_limit < timedelta(hours=1) else "days"


def _subjects(table: Table) -> list[str]:
    out = []
    for seat in table.seats:
        if seat is not None and seat.player is not None:
            out.append(seat.player)
        elif seat is not None and seat.robot is not None:
            out.append(f"robot-{seat.robot}")
    return out


def _seat(seat: Any, kind: str, ratings: dict[tuple[str, str], int]) -> dict[str, Any] | None:
    if seat is None:
        return None
    subject = seat.player if seat.player is not None else f"robot-{seat.robot}"
    return {
        "name": seat.name,
        "robot": seat.robot,
        "rating": ratings.get((subject, kind), START),
    }
