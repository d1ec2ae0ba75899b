"""The daily challenge's leaderboard as JSON: :func:`espadas.tables.duplicate.score`
over a day's results (entrants by player, direction seat 0) with par, each
player's line on each board against the field.

Made in a worker thread (pure work on values: no store, no event loop).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from espadas.store.challenges import BoardResult
from espadas.tables.challenge import SEAT
from espadas.tables.duplicate import Result, score


def standings_json(
    day: str, closed: bool, boards: int, par: list[int] | None, rows: Sequence[BoardResult]
) -> tuple[bytes, list[str]]:
    """The leaderboard's JSON without its closing brace, and the entrants (player
    ids) in the order of its standings.

    >>> rows = [BoardResult("p1", "Ana", 1, 120, False), BoardResult("p2", "Bea", 1, 80, True)]
    >>> text, entrants = standings_json("2026-12-01", False, 1, [100], rows)
    >>> entrants, json.loads(text + b"}")["standings"][1]["lines"][0]["field"]
    (['p1', 'p2'], 120.0)
    """
    names = {r.player_id: r.name for r in rows}
    par_of = {} if par is None else {(b + 1, SEAT): p for b, p in enumerate(par)}
    table = score([Result(r.player_id, r.board, SEAT, r.points, r.robot) for r in rows], par=par_of)
    standings = []
    for s in table.standings:
        lines = [
            {
                "board": line.result.board,
                "points": line.result.points,
                "robot": line.result.robot,
                "field_size": line.field_size,
                "field": line.field,
                "above": round(line.above, 2),
                "matchpoints": round(line.matchpoints, 2),
                "par": line.par,
            }
            for line in table.lines[s.entrant]
        ]
        standings.append(
            {
                "rank": s.rank,
                "player": s.entrant,
                "name": names[s.entrant],
                "boards": s.boards,
                "total": s.total,
                "matchpoints": s.matchpoints,
                "lines": lines,
            }
        )
    body = {
        "day": day,
        "closed": closed,
        "method": table.method,
        "boards": boards,
        "par": par,
        "standings": standings,
    }
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()[:-1]
    return text, [s.entrant for s in table.standings]
