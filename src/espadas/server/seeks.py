"""Seeks: a table opened in the lobby with conditions, accepted by sitting at it.

A person posts a seek with a quick-play rule set, ``live`` (a turn of
:data:`~espadas.tables.clock.LIVE_TURN_LIMIT`) or by ``days`` (the club's turn
limit when it is a day or more, else two days), rated or not, and the ratings they
accept. The server opens the table at once, with its creator seated, and lists it
in the lobby. Whoever accepts sits at it (refused outside the ratings, beside a
block, while seated at a live game, or once it filled); when the last seat is
taken the game starts. Until someone accepts it the seek lasts only while its
creator is in the lobby (:class:`~espadas.store.seeks.Seeks`); then their page
goes to the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from espadas.server.errors import ApiError
from espadas.server.lobby import LIVE_SINCE, LobbyService
from espadas.store.seeks import Seek
from espadas.store.store import Player
from espadas.tables.clock import LIVE_TURN_LIMIT, TURN_LIMIT
from espadas.tables.event import Event
from espadas.tables.ids import new_table_id
from espadas.tables.rating import kind_of
from espadas.tables.table import Table

RATING_BOUNDS = (0, 4000)
"""The ratings a seek may name."""
NARROWEST = 50
"""The narrowest range of ratings a seek may ask for."""
TURNS = ("live", "days")


@dataclass(frozen=True)
class SeekSpec:
    """What a person asks for: a quick-play rule set, ``live`` or ``days``, rated
    or not, and the ratings accepted (``None``: no bound)."""

    rules: str
    turns: str
    rated: bool
    min_rating: int | None
    max_rating: int | None

    def bounds(self) -> tuple[int, int]:
        """The ratings accepted, checked: a clear 422 for an absurd range.

        >>> SeekSpec("estandar", "live", True, None, 1800).bounds()
        (0, 1800)
        >>> SeekSpec("estandar", "live", True, 1900, 1800).bounds()
        Traceback (most recent call last):
        espadas.server.errors.ApiError: lobby_bad_range
        """
        low = RATING_BOUNDS[0] if self.min_rating is None else self.min_rating
        high = RATING_BOUNDS[1] if self.max_rating is None else self.max_rating
        if not RATING_BOUNDS[0] <= low <= high - NARROWEST < high <= RATING_BOUNDS[1]:
            raise ApiError(
                422, "lobby_bad_range", low=RATING_BOUNDS[0], high=RATING_BOUNDS[1], gap=NARROWEST
            )
        return low, high


class SeekService:
    """Posting, accepting, withdrawing and expiring seeks, for one instance."""

    def __init__(self, lobby: LobbyService) -> None:
        self.lobby = lobby
        self.seeks = lobby.store.seeks

    async def post(self, player: Player, spec: SeekSpec) -> Seek:
        """Opens the seek's table and lists it; refused with a clear 4xx (an
        unknown rule set or turns, an absurd range, a live game in progress, a
        seek of theirs already listed)."""
        low, high = spec.bounds()
        if spec.turns not in TURNS:
            raise ApiError(422, "lobby_bad_turns")
        rules, _pool = await self.lobby.rules_of(player.id, spec.rules)
        settings = self.lobby.settings
        now = settings.clock.now()
        if await self.lobby.lobby.busy(player.id, now - LIVE_SINCE):
            raise ApiError(409, "lobby_playing")
        old = await self.seeks.of(player.id)
        if old is not None:
            if (await self.lobby.hub.table(old.table_id)).status == "waiting":
                raise ApiError(409, "lobby_seek_exists")
            await self.seeks.remove(old.table_id)  # its game started long ago
        turn = turn_limit_of(spec.turns, settings.turn_limit)
        table, events = Table.create(
            new_table_id(),
            rules,
            player.id,
            player.name,
            now,
            rated=spec.rated,
            absent="robot" if spec.turns == "live" else "claim",
            turn_limit=int(turn.total_seconds()),
        )
        await self.lobby.hub.create(table, events)
        seek = Seek(table.id, player.id, spec.rules, spec.turns, spec.rated, low, high, now, False)
        if not await self.seeks.post(seek):
            raise ApiError(409, "lobby_seek_exists")  # posted meanwhile, from another tab
        await self.lobby.leave(player.id)  # one way to wait at a time
        return seek

    async def accept(self, player: Player, table_id: str) -> Table:
        """Sits ``player`` at the seek's table (starting the game when it fills)."""
        seek = await self.seeks.get(table_id)
        if seek is None:
            raise ApiError(404, "lobby_no_seek")
        hub, settings = self.lobby.hub, self.lobby.settings
        table = await hub.table(table_id)
        if table.seat_of(player.id) is not None:
            return table
        now = settings.clock.now()
        seated = [s.player for s in table.seats if s is not None and s.player is not None]
        if await self.lobby.lobby.any_block(player.id, seated):
            raise ApiError(403, "lobby_blocked")
        rating = await self.lobby.lobby.rating(player.id, kind_of(table.rules.partnerships))
        if not seek.min_rating <= rating <= seek.max_rating:
            raise ApiError(
                403, "lobby_out_of_range", low=seek.min_rating, high=seek.max_rating, rating=rating
            )
        if await self.lobby.lobby.busy(player.id, now - LIVE_SINCE):
            raise ApiError(409, "lobby_playing")
        table, _ = await hub.command(table_id, lambda t: t.join(player.id, player.name, now))
        if table.seat_of(player.id) is None:
            raise ApiError(409, "lobby_full")
        await self.seeks.accepted(table_id)
        await self.lobby.leave(player.id)
        if all(seat is not None for seat in table.seats) and table.status == "waiting":
            table, _ = await hub.command(table_id, lambda t: _start_if_full(t, now))
            hub.wake_robots(table_id)
        self.lobby.wake.set()
        return table

    async def withdraw(self, player_id: str) -> bool:
        """Takes out the person's seek nobody accepted yet (whether there was one)."""
        gone = await self.seeks.withdraw([player_id])
        self.lobby.wake.set()
        return bool(gone)


def _start_if_full(table: Table, at: datetime) -> list[Event]:
    """Starts the game of a seek whose last seat was just taken (nothing if it
    started already, from another instance)."""
    if table.status != "waiting" or any(seat is None for seat in table.seats):
        return []
    return table.start(table.creator, at)


def turn_limit_of(turns: str, club: timedelta) -> timedelta:
    """The turn limit of a seek's table: live, or by days (at least two).

    >>> turn_limit_of("live", TURN_LIMIT), turn_limit_of("days", timedelta(hours=1))
    (datetime.timedelta(seconds=300), datetime.timedelta(days=2))
    """
    return LIVE_TURN_LIMIT if turns == "live" else max(club, TURN_LIMIT)
