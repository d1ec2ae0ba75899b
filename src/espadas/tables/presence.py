"""Dropped connections in live games: a seat that waits for its person a while.

In a live game (the server's turn limit under :data:`LIVE_LIMIT`), when a seated
person's last connection to the table closes, the server writes ``away`` to the
table's log (:func:`drop`): the seat shows "disconnected" with a countdown to
``until`` (the server's drop wait after the drop, 90 seconds by default). If the
person comes back before then, ``back`` (:func:`back`) ends it and play goes on
as if nothing happened. If not, the table's absent rule applies at once
(:func:`~espadas.tables.absent.expire`): a robot takes the seat, or the other
side may close the game.

Like the chat, these entries are not part of the game: the engine never sees
them, the game's record stays as it was, and a robot's decision taken before
them still holds (:func:`~espadas.tables.chat.game_version`). Being in the log,
they are stored before anyone is told, survive a restart and reach every
instance as any other new version of the table.

>>> from datetime import UTC, datetime, timedelta
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> _ = table.start("ana", at)
>>> [(e.type, e.data["seat"]) for e in drop(table, "ana", at, timedelta(seconds=90))]
[('away', 0)]
>>> away_seats(table)[0].until == at + timedelta(seconds=90), drop(table, "ana", at, DROP_WAIT)
(True, [])
>>> [e.type for e in back(table, "ana", at)], away_seats(table), back(table, "ana", at)
(['back'], {}, [])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Protocol

from espadas.engine import Game
from espadas.tables.event import Event
from espadas.tables.seat import Seat

DROP_WAIT = timedelta(seconds=90)
"""How long a dropped person's seat waits for them (the server's default)."""
LIVE_LIMIT = timedelta(hours=1)
"""A game is live when its turn limit is under this: only then does a seat wait
for a dropped person (in a game by days, closing the page is how one plays)."""
EVENTS = frozenset({"away", "back"})
"""The entries of a table's log that this module writes."""


@dataclass(frozen=True)
class Away:
    """A seat whose person's last connection closed."""

    player: str
    since: datetime
    until: datetime
    """When the absent rule applies, unless they are back."""


class Presence:
    """The seats waiting for their person (the replay of the ``away`` and ``back``
    entries), and how many such entries the log holds."""

    def __init__(self) -> None:
        self.away: dict[int, Away] = {}
        self.events = 0

    def handler(self, event: Event) -> Callable[..., None] | None:
        """What applies ``event`` (given its data), if it is one of :data:`EVENTS`."""
        if event.type == "away":
            return partial(self._on_away, event.at)
        if event.type == "back":
            return self._on_back
        return None

    def _on_away(self, at: datetime, seat: int, player: str, until: str) -> None:
        self.away[seat] = Away(player, at, datetime.fromisoformat(until))
        self.events += 1

    def _on_back(self, seat: int, player: str) -> None:
        self.away.pop(seat, None)
        self.events += 1


class PresenceTable(Protocol):
    """What this module needs of a table (:class:`~espadas.tables.table.Table`)."""

    version: int
    game: Game | None
    seats: list[Seat | None]
    presence: Presence

    def seat_of(self, player: str | None) -> int | None: ...

    def apply(self, event: Event) -> None: ...


def is_live(turn_limit: timedelta) -> bool:
    """Whether games under ``turn_limit`` are live (a seat waits for a dropped person).

    >>> is_live(timedelta(minutes=5)), is_live(timedelta(hours=48))
    (True, False)
    """
    return turn_limit < LIVE_LIMIT


def in_play(table: PresenceTable) -> bool:
    """Whether the table's game has started and not ended."""
    return table.game is not None and table.game.result is None


def away_seats(table: PresenceTable) -> dict[int, Away]:
    """The seats now waiting for their person: the game goes on, and the seat is
    still that person's (not replaced by a robot since)."""
    if not in_play(table):
        return {}
    out: dict[int, Away] = {}
    for seat, away in table.presence.away.items():
        occupant = table.seats[seat]
        if occupant is not None and occupant.player == away.player:
            out[seat] = away
    return out


def away_until(table: PresenceTable, seat: int) -> datetime | None:
    """When ``seat``'s countdown ends, if it waits for its dropped person: then
    the claim (or the robot) is open against it without waiting for the turn
    limit (:meth:`~espadas.tables.table.Table.claim_open_at`)."""
    away = away_seats(table).get(seat)
    return None if away is None else away.until


def _entry(table: PresenceTable, kind: str, at: datetime, **data: object) -> list[Event]:
    event = Event(table.version + 1, kind, dict(data), at)
    table.apply(event)
    return [event]


def drop(table: PresenceTable, player: str, at: datetime, wait: timedelta) -> list[Event]:
    """``player``'s last connection closed at ``at``: their seat waits ``wait``
    for them (nothing if they hold no seat, the game is not in play, or the seat
    waits already)."""
    seat = table.seat_of(player)
    if seat is None or not in_play(table) or seat in away_seats(table):
        return []
    until = (at + wait).isoformat()
    return _entry(table, "away", at, seat=seat, player=player, until=until)


def back(table: PresenceTable, player: str, at: datetime) -> list[Event]:
    """``player`` is connected again: their seat no longer waits (nothing if it
    did not)."""
    seat = table.seat_of(player)
    if seat is None or seat not in away_seats(table):
        return []
    return _entry(table, "back", at, seat=seat, player=player)


def presence_json(table: PresenceTable) -> list[dict[str, object]]:
    """The seats waiting for their person, for the table's view: ``seat``,
    ``since`` and ``until`` (ISO 8601)."""
    return [
        {"seat": seat, "since": away.since.isoformat(), "until": away.until.isoformat()}
        for seat, away in sorted(away_seats(table).items())
    ]
