"""The daily challenge's leaderboard as JSON: :func:`espadas.tables.duplicate.score`
over a day's results (entrants by player, direction seat 0) with par, each
player's line on each board against the field.

Made in a worker thread (pure work on values: no store, no event loop), once per
version of the day's results; each standing is encoded once, so that an answer
is a join of bytes: the first ``limit`` standings and the asker's own
(:meth:`Board.answer`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from espadas.store.challenges import BoardResult
from espadas.tables.challenge import SEAT
from espadas.tables.duplicate import Result, score


@dataclass(frozen=True)
class Board:
    """A day's standings, encoded: the head (everything but the standings) and
    each standing's JSON, in order, with the entrant (player id) of each."""

    head: bytes
    rows: list[bytes]
    entrants: list[str]
    places: dict[str, int]

    def place(self, entrant: str) -> int | None:
        """``entrant``'s place (from 0), or None if they are not in the standings."""
        return self.places.get(entrant)

    def answer(self, you: int | None, limit: int) -> bytes:
        """The leaderboard's JSON: the first ``limit`` standings, ``entrants`` (how
        many in all), ``you`` (your place from 0, or null) and ``mine`` (your
        standing, or null).

        >>> board = Board(b'{"day":"d"', [b'{"rank":1}', b'{"rank":2}'], ["p1", "p2"], {})
        >>> json.loads(board.answer(1, 1))
        {'day': 'd', 'standings': [{'rank': 1}], 'entrants': 2, 'you': 1, 'mine': {'rank': 2}}
        """
        mine = b"null" if you is None else self.rows[you]
        place = b"null" if you is None else str(you).encode()
        return b"".join(
            (
                self.head,
                b',"standings":[',
                b",".join(self.rows[:limit]),
                b'],"entrants":',
                str(len(self.rows)).encode(),
                b',"you":',
                place,
                b',"mine":',
                mine,
                b"}",
            )
        )


def _dumps(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def standings_json(
    day: str, closed: bool, boards: int, par: list[int] | None, rows: Sequence[BoardResult]
) -> Board:
    """The day's leaderboard, encoded.

    >>> rows = [BoardResult("p1", "Ana", 1, 120, False), BoardResult("p2", "Bea", 1, 80, True)]
    >>> board = standings_json("2026-12-01", False, 1, [100], rows)
    >>> board.entrants, json.loads(board.answer(None, 10))["standings"][1]["lines"][0]["field"]
    (['p1', 'p2'], 120.0)
    """
    names = {r.player_id: r.name for r in rows}
    par_of = {} if par is None else {(b + 1, SEAT): p for b, p in enumerate(par)}
    table = score([Result(r.player_id, r.board, SEAT, r.points, r.robot) for r in rows], par=par_of)
    encoded = []
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
        standing = {
            "rank": s.rank,
            "player": s.entrant,
            "name": names[s.entrant],
            "boards": s.boards,
            "total": s.total,
            "matchpoints": s.matchpoints,
            "lines": lines,
        }
        encoded.append(_dumps(standing))
    head = {"day": day, "closed": closed, "method": table.method, "boards": boards, "par": par}
    entrants = [s.entrant for s in table.standings]
    return Board(_dumps(head)[:-1], encoded, entrants, {e: i for i, e in enumerate(entrants)})
