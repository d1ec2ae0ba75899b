"""A player's play of one board of a closed day's challenge, for the side-by-side
replay [repetición comparada]: the board's hand from their table's record, step
by step (:func:`espadas.tables.replay.replay_steps`, scored from 0–0 as duplicate
scoring scores it), with the links to their whole game's replay and to its
analysis where one is done.

Only once the day has closed (before, the route refuses: 409 ``challenge_open``):
until then nobody's table, cards or play of a board reach anyone else.
"""

from __future__ import annotations

from typing import Any

from espadas.server.challenges import Challenges
from espadas.server.errors import ApiError
from espadas.tables.replay import replay_steps

ANALYSIS_LEVEL = "experto"
"""The analysis linked to (the level the replay page starts by default)."""


def board_hand(record: dict[str, Any], board: int) -> dict[str, Any] | None:
    """A record of board ``board`` alone (hand ``board`` of a challenge table's
    record), or None when the table never played it.

    >>> record = {"format": "espadas-record/1", "rules": {}, "players": [], "hands": [{"n": 1}]}
    >>> board_hand(record, 1)["hands"], board_hand(record, 2)
    ([{'n': 1}], None)
    """
    hands = record["hands"]
    if not 1 <= board <= len(hands):
        return None
    alone = {key: value for key, value in record.items() if key not in ("hands", "end")}
    alone["hands"] = [hands[board - 1]]
    return alone


async def board_play(challenges: Challenges, day: str, board: int, player: str) -> dict[str, Any]:
    """``player``'s play of ``board`` on ``day`` (closed: the caller checks). 404
    ``no_play``: they did not play that day, or the board was never played at
    their table (they left before it: the robots' par stands for it)."""
    attempt = await challenges.store.challenges.attempt(day, player)
    if attempt is None:
        raise ApiError(404, "no_play")
    table = await challenges.hub.table(attempt.table_id)
    record = table.record()
    alone = board_hand(record, board)
    if alone is None:
        raise ApiError(404, "no_play")
    rows = [r for r in await challenges.store.challenges.results(day) if r.player_id == player]
    result = next((r for r in rows if r.board == board), None)
    analysis = await challenges.store.analyses.read(attempt.table_id, ANALYSIS_LEVEL)
    done = analysis is not None and analysis.status == "done"
    return {
        "day": day,
        "board": board,
        "player": player,
        "name": attempt.name,
        "table": attempt.table_id,
        "players": record["players"],
        "rules": record["rules"],
        "points": None if result is None else result.points,
        "robot": attempt.left_board is not None and board >= attempt.left_board,
        "steps": replay_steps(alone),
        "replay": f"/mesa/{attempt.table_id}/repeticion",
        "analysis": f"/mesa/{attempt.table_id}/repeticion#analysis" if done else None,
    }
