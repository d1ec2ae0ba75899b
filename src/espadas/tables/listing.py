"""A person's table as their list of tables says it (``GET /api/tables``): who
sits where, the score with their side first, whether it is their turn, and what
kind of table it is (an event's, a daily challenge's, or an ordinary one).

>>> from datetime import UTC, datetime
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> line = table_line(table, "ana")
>>> line["players"], line["you"], line["kind"], line["your_turn"]
(['Ana', 'robot:normal', 'robot:normal', 'robot:normal'], 0, 'table', False)
"""

from __future__ import annotations

from typing import Any

from espadas.tables.challenge import PREFIX as CHALLENGE_PREFIX
from espadas.tables.table import Table
from espadas.tables.tournament import PREFIX as EVENT_PREFIX


def kind_of(table_id: str) -> str:
    """``"event"``, ``"challenge"`` or ``"table"`` by the table's id.

    >>> kind_of("torneo-abc"), kind_of("reto-20260101-x"), kind_of("k3j2h4g5f6")
    ('event', 'challenge', 'table')
    """
    if table_id.startswith(EVENT_PREFIX):
        return "event"
    if table_id.startswith(CHALLENGE_PREFIX):
        return "challenge"
    return "table"


def table_line(table: Table, player: str) -> dict[str, Any]:
    """What ``player``'s list says of ``table``: the seats' names (``robot:LEVEL``
    for a robot), ``player``'s seat, the sides, their scores (``None`` before the
    start), the hand being played, whether ``player`` is to act, and the winning
    side once the game is over."""
    seat = table.seat_of(player)
    game = table.game
    rules = table.rules
    players = [
        None if s is None else (f"robot:{s.robot}" if s.robot is not None else s.name)
        for s in table.seats
    ]
    result = None if game is None else game.result
    return {
        "players": players,
        "you": seat,
        "sides": rules.side_names(),
        "scores": None if game is None else list(game.scores),
        "hand": 0 if game is None else len(game.hands),
        "your_turn": bool(
            game is not None and result is None and seat is not None and game.to_act == seat
        ),
        "winner": None if result is None else rules.side_name(result.winner),
        "kind": kind_of(table.id),
    }
