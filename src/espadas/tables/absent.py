"""What an absent person's turn allows: the table's ``absent`` option, chosen when
the table is opened, and replacing the absent person by a robot.

- ``claim`` (the default, and what every table opened before the option does):
  once a person has kept the table waiting past the turn limit, the other side may
  close the game (the ``claim`` action of :meth:`~espadas.tables.table.Table.act`),
  and the side that waited loses.
- ``robot``: nobody may claim. Instead, once the claim would be open, the table's
  creator (whatever their seat, seated or not; at an event's table the event's
  organiser instead, the ``create`` event's ``organiser``: :func:`replacer`) or a
  person seated on the other side
  puts a robot in the absent person's seat (:func:`replace`, the log's ``replace``
  entry); play goes on at once and the scores so far are kept. The seat stays a
  robot for the rest of the game: the person replaced watches (their turn notices
  stop) and may not sit down again. A game with a replaced seat no longer counts
  for the ratings (it is no longer a game between the people who sat down); the
  seat's statistics go to the robot, as the record names it.

>>> from datetime import UTC, datetime, timedelta
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at, absent="robot")
>>> _ = table.join("luis", "Luis", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> _ = table.start("ana", at)
>>> opens = replace_open_at(table, "ana", timedelta(hours=48))
>>> table.game.to_act, opens == at + timedelta(hours=48), replace_open_at(table, "luis")
(1, True, None)
>>> [(e.type, e.data) for e in replace(table, "ana", at + timedelta(hours=48))]
[('replace', {'by': 'ana', 'seat': 1, 'level': 'normal', 'player': 'luis'})]
>>> table.robot_to_act, table.seat_of("luis"), table.replaced
(1, None, [1])
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from espadas.engine import Game, Rules
from espadas.tables.clock import TURN_LIMIT
from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.event import Event
from espadas.tables.presence import Presence, away_seats
from espadas.tables.seat import Seat

ABSENT = ("claim", "robot")
"""The values of the ``absent`` option; the first is the default."""
DEFAULT_LEVEL = "experto"
"""The robot put in an absent person's seat at a table with no robot yet."""


def absent_option(value: object) -> str:
    """The ``absent`` option as given; anything but :data:`ABSENT` raises ``bad_absent``."""
    if not isinstance(value, str) or value not in ABSENT:
        raise BadCommand("bad_absent", "an absent player is claimed against or replaced")
    return value


class AbsentTable(Protocol):
    """What claims and replacements need of a table (:class:`~espadas.tables.table.Table`)."""

    version: int
    creator: str
    organiser: str | None
    spare_robot: str | None
    absent: str
    rules: Rules
    game: Game | None
    seats: list[Seat | None]
    presence: Presence

    def seat_of(self, player: str | None) -> int | None: ...

    def claim_open_at(self, turn_limit: timedelta) -> datetime | None: ...

    def apply(self, event: Event) -> None: ...


def robot_level(table: AbsentTable) -> str:
    """The level a replacement robot gets unless told: an event's robots' (the
    ``create`` event's ``robot``), else the table's first robot's, else
    :data:`DEFAULT_LEVEL`."""
    if table.spare_robot is not None:
        return table.spare_robot
    for seat in table.seats:
        if seat is not None and seat.robot is not None:
            return seat.robot
    return DEFAULT_LEVEL


def replacer(table: AbsentTable) -> str:
    """Who may replace an absent person whatever their own seat: the event's
    organiser at an event's table (its creator is a pseudo-player), else the creator."""
    return table.organiser or table.creator


def _may_replace(table: AbsentTable, player: str | None) -> bool:
    """Whether ``player`` is of those who may replace the seat now to act."""
    game = table.game
    if player is None or game is None or game.to_act is None:
        return False
    if player == replacer(table):
        return True
    seat = table.seat_of(player)
    return seat is not None and table.rules.side_of(seat) != table.rules.side_of(game.to_act)


def replace_open_at(
    table: AbsentTable, player: str | None, turn_limit: timedelta = TURN_LIMIT
) -> datetime | None:
    """When ``player`` may put a robot in the seat of the person the table waits
    for; ``None`` if they may not (or the table claims, or waits for nobody)."""
    if table.absent != "robot" or not _may_replace(table, player):
        return None
    return table.claim_open_at(turn_limit)


def replace(
    table: AbsentTable,
    player: str,
    at: datetime,
    level: object = None,
    turn_limit: timedelta = TURN_LIMIT,
    levels: Sequence[str] = (),
) -> list[Event]:
    """``player`` puts a robot of ``level`` (default :func:`robot_level`) in the seat
    of the person who has kept the table waiting past ``turn_limit``. ``levels``
    lists the robots this server offers (its default: the robots' levels)."""
    from espadas.robots.registry import LEVELS

    if table.absent != "robot":
        raise TableError("replace_off", "at this table an absent player is claimed against")
    game = table.game
    opens = table.claim_open_at(turn_limit)
    if game is None or game.to_act is None or opens is None:
        raise TableError("no_replace", "nobody is keeping the table waiting")
    if player != replacer(table):
        seat = table.seat_of(player)
        if seat is None:
            raise NotAllowed("not_seated", "only the players seated at this table may do that")
        if not _may_replace(table, player):
            raise TableError("replace_own", "you cannot replace a person of your own side")
    if at < opens:
        raise TableError(
            "replace_early",
            f"the turn limit has not passed yet (it does at {opens.isoformat()})",
            at=opens.isoformat(timespec="minutes"),
        )
    chosen = robot_level(table) if level is None else level
    offered = tuple(levels) or LEVELS
    if not isinstance(chosen, str) or chosen not in offered:
        shown = str(chosen)[:40]
        raise BadCommand(
            "bad_robot", f"unknown robot {shown!r}", level=shown, levels=", ".join(offered)
        )
    occupant = table.seats[game.to_act]
    assert occupant is not None and occupant.player is not None  # claim_open_at says so
    data: dict[str, Any] = {"by": player, "seat": game.to_act, "level": chosen}
    event = Event(table.version + 1, "replace", data | {"player": occupant.player}, at)
    table.apply(event)
    return [event]


def claim(table: AbsentTable, seat: int, at: datetime, turn_limit: timedelta) -> list[Event]:
    """``seat`` closes the game because the seat to act has kept the table waiting
    past ``turn_limit`` (the ``claim`` action of a table whose option is ``claim``)."""
    game = table.game
    if game is None:
        raise TableError("not_started", "the game has not started yet")
    opens = table.claim_open_at(turn_limit)
    waiting = game.to_act
    if opens is None or waiting is None:
        raise TableError("no_claim", "nobody is keeping the table waiting")
    if table.absent == "robot":
        raise TableError("claim_robot", "at this table an absent player is replaced by a robot")
    if table.rules.side_of(waiting) == table.rules.side_of(seat):
        raise TableError("no_claim_own", "you cannot close the game on your own side")
    if at < opens:
        raise TableError(
            "claim_early",
            f"the turn limit has not passed yet (it does at {opens.isoformat()})",
            at=opens.isoformat(timespec="minutes"),
        )
    event = Event(table.version + 1, "claim", {"by": seat, "seat": waiting}, at)
    table.apply(event)
    return [event]


def expire(table: AbsentTable, at: datetime) -> list[Event]:
    """The absent rule, applied at once to the seats whose dropped person did not
    come back in time (:mod:`espadas.tables.presence`): at a ``robot`` table a
    robot of :func:`robot_level` takes each such seat (a ``replace`` entry whose
    ``by`` is ``None``: nobody asked, the countdown ran out), whoever is to act.
    At a ``claim`` table nothing is written: the claim is open against the seat
    as soon as the game waits for it (:meth:`~espadas.tables.table.Table.claim_open_at`)."""
    if table.absent != "robot":
        return []
    events: list[Event] = []
    for seat, away in sorted(away_seats(table).items()):
        if away.until <= at:
            data = {"by": None, "seat": seat, "level": robot_level(table), "player": away.player}
            event = Event(table.version + 1, "replace", data, at)
            table.apply(event)
            events.append(event)
    return events
