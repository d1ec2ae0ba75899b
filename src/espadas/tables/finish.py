"""A finished game as the club counts it: who sat where, places, scores and each
seat's statistics (one :class:`FinishedGame` per table, made when its game ends
and made again, the same, by a rebuild from the stored log).

People are counted by their player id, robots by their level as the subject
``robot-LEVEL``. Abandoned and timed-out games rank the side that left last
(the engine's result says so), and it loses.

>>> from datetime import UTC, datetime
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> _ = table.start("ana", at)
>>> _ = table.act("ana", "abandon", at)
>>> done = finished_game(table)
>>> [(s.subject, s.place) for s in done.seats], done.ranks, done.kind
([('ana', 2), ('robot-normal', 1), ('robot-normal', 2), ('robot-normal', 1)], [2, 1], 'partnership')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from espadas.engine.game import Game
from espadas.tables.event import Event
from espadas.tables.rating import kind_of
from espadas.tables.statistics import SeatStats, seat_statistics
from espadas.tables.table import Table

ROBOT_PREFIX = "robot-"


def robot_subject(level: str) -> str:
    """The subject a robot level is rated as (``robot-experto``)."""
    return ROBOT_PREFIX + level


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game."""

    seat: int
    subject: str
    name: str
    side: int
    place: int
    """1 for the winning side; sides with equal scores share a place (not the side
    that left, which is last); ``won`` is the engine's one winner."""
    won: bool
    score: int
    stats: SeatStats


@dataclass(frozen=True)
class FinishedGame:
    """What the club counts of one finished table."""

    table_id: str
    finished_at: datetime
    preset: str
    kind: str
    rated: bool
    reason: str
    seats: tuple[SeatResult, ...]
    ranks: list[int]
    """Each side's place (OpenSkill's ranks)."""

    @property
    def players(self) -> int:
        return len(self.seats)


def side_places(game: Game) -> list[int]:
    """Each side's place in the final ranking, ties sharing the better place."""
    result = game.result
    assert result is not None
    sides = game.rules.sides
    order = [s for s in dict.fromkeys(result.ranking) if 0 <= s < sides]
    left = [s for s in range(sides) if s not in order]
    left.sort(key=lambda s: (-game.scores[s], s))
    if result.loser is not None and result.loser in order:
        order.remove(result.loser)
        order = [*order, *left, result.loser]
    else:
        order = [*order, *left]
    places = [0] * sides
    for i, side in enumerate(order):
        previous = order[i - 1] if i else None
        tied = (
            previous is not None
            and side != result.loser
            and game.scores[side] == game.scores[previous]
        )
        places[side] = places[previous] if tied and previous is not None else i + 1
    return places


def finished_game(table: Table) -> FinishedGame:
    """The club's account of ``table``, whose game is over."""
    game = table.game
    if game is None or game.result is None or table.updated_at is None:
        raise ValueError(f"the game of table {table.id} is not over")
    rules = game.rules
    places = side_places(game)
    stats = seat_statistics(game)
    seats: list[SeatResult] = []
    for i, occupant in enumerate(table.seats):
        assert occupant is not None
        if occupant.robot is not None:
            subject = robot_subject(occupant.robot)
        else:
            subject = occupant.player or ""
        side = rules.side_of(i)
        seats.append(
            SeatResult(
                i,
                subject,
                occupant.name,
                side,
                places[side],
                places[side] == 1 and game.result.winner == side,
                game.scores[side],
                stats[i],
            )
        )
    return FinishedGame(
        table.id,
        table.updated_at,
        rules.preset,
        kind_of(rules.partnerships),
        table.rated and not table.replaced,  # a robot replaced a person: not rated
        game.result.reason,
        tuple(seats),
        places,
    )


def finished_from_log(table_id: str, events: Iterable[Event]) -> FinishedGame | None:
    """The club's account of a stored log, or None when its game is not over. The
    game ends with the event that decided it (later events, a rematch's mark, do
    not move its time)."""
    table = Table(table_id, keep_events=False)
    for event in events:
        table.apply(event)
        if table.status == "finished":
            return None if table.boards else finished_game(table)  # a challenge: apart
    return None
