"""Turn notices planned for a table: who must be told what, and when.

The notices of a turn (:func:`plan`): a notice to the person to act,
reminders at half and at 90 % of the turn limit, and, when the limit passes, a
notice to the other side that they may close the game (or, at a table whose
``absent`` option is ``robot``, put a robot in the absent person's seat). A
robot put in a person's seat tells them so (:func:`replaced`). A move that starts a
turn plans its turn notice (:func:`plan_first`); when that notice is handled
and the turn still waits, the rest are planned (:func:`plan_rest`). Each
planned notice has a unique key, so planning twice (a retry, a second
instance) never makes two. Whether a notice is still due is checked again
when it is sent (:func:`still_due`).

>>> from datetime import UTC, datetime, timedelta
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
>>> _ = table.join("luis", "Luis", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> _ = table.start("ana", at)
>>> for n in plan(table, timedelta(hours=48)):
...     print(n.kind, n.player, (n.due_at - at) / timedelta(hours=1))
turn luis 0.0
reminder_half luis 24.0
reminder_90 luis 43.2
claimable ana 48.0
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from espadas.tables.absent import replacer
from espadas.tables.event import Event
from espadas.tables.table import Table

KINDS = ("turn", "reminder_half", "reminder_90", "claimable", "digest", "replaced")


@dataclass(frozen=True)
class Notice:
    """One notice to send: ``kind`` to ``player`` about ``table`` at ``due_at``,
    valid while the table's turn is still the one of ``version``."""

    key: str
    table: str
    player: str
    kind: str
    version: int
    due_at: datetime


def _waiting(table: Table) -> tuple[int, str] | None:
    """The seat and person the table waits for, if it waits for a person."""
    game = table.game
    if game is None or game.result is not None or game.to_act is None:
        return None
    occupant = table.seats[game.to_act]
    if occupant is None or occupant.player is None:
        return None
    return game.to_act, occupant.player


def plan(table: Table, turn_limit: timedelta, delay: timedelta = timedelta(0)) -> list[Notice]:
    """The notices of the turn now due (none if the table waits for nobody)."""
    waiting = _waiting(table)
    if waiting is None or table.turn_since is None:
        return []
    seat, player = waiting
    start = table.turn_since
    version = table.turn_version

    def notice(kind: str, who: str, due: datetime) -> Notice:
        return Notice(f"{table.id}:{version}:{kind}:{who}", table.id, who, kind, version, due)

    notices = [
        notice("turn", player, start + delay),
        notice("reminder_half", player, start + turn_limit / 2),
        notice("reminder_90", player, start + turn_limit * 0.9),
    ]
    side = table.rules.side_of(seat)
    for other, occupant in enumerate(table.seats):
        if occupant is None or occupant.player is None:
            continue
        if table.rules.side_of(other) != side:
            notices.append(notice("claimable", occupant.player, start + turn_limit))
    told = {n.player for n in notices}
    boss = replacer(table)  # the creator (an event's organiser) may replace too
    if table.absent == "robot" and boss not in told:
        notices.append(notice("claimable", boss, start + turn_limit))
    return notices


def plan_first(
    table: Table, turn_limit: timedelta, delay: timedelta = timedelta(0)
) -> list[Notice]:
    """The notice a move plans: the turn notice alone. The reminders and claim
    notices of that turn (:func:`plan_rest`) are planned when the turn notice is
    handled, so a turn that passes quickly writes one notice, not four or five."""
    return [n for n in plan(table, turn_limit, delay) if n.kind == "turn"]


def plan_rest(table: Table, turn_limit: timedelta, delay: timedelta = timedelta(0)) -> list[Notice]:
    """The notices of the turn now due other than the turn notice (see
    :func:`plan_first`). Together they are :func:`plan`."""
    return [n for n in plan(table, turn_limit, delay) if n.kind != "turn"]


def replaced(table: Table, events: list[Event]) -> list[Notice]:
    """The notices of ``events`` to the people a robot replaced
    (:mod:`espadas.tables.absent`): due at once. Their turn's notices are
    dropped with the turn (a ``replace`` starts a new one)."""
    return [
        Notice(f"{table.id}:{e.seq}:replaced", table.id, e.data["player"], "replaced", e.seq, e.at)
        for e in events
        if e.type == "replace"
    ]


def still_due(table: Table, notice: Notice) -> bool:
    """Whether ``notice`` still means something: the same turn is still due (a
    ``replaced`` notice: the person has not sat down there again)."""
    if notice.kind == "replaced":
        return table.seat_of(notice.player) is None
    waiting = _waiting(table)
    if waiting is None or table.turn_version != notice.version:
        return False
    if notice.kind == "claimable":
        return waiting[1] != notice.player
    return waiting[1] == notice.player
