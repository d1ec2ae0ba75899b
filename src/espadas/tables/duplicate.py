"""Duplicate scoring [puntuación duplicada]: everybody plays the same boards, and
each result is compared with those of the others who held the same cards.

- A **board** is one deal (the cards and the dealer), numbered from 1.
- An entrant's **result** on a board is its side's *deal score*: the hand scored
  from 0–0 with no bags carried in, every bag taken costed at its long-run price of
  10 points (:func:`espadas.engine.deal_scores`, as the arena scores).
- The **field** of a result: the results of the *other* entrants on the same board
  in the same direction (the seat that held the same cards). Par (below) is never
  part of the field.
- **Points above the field**: the result minus the mean of the field. A board
  nobody else played in that direction gives 0.
- **Matchpoints**: the share of the field the result beats, a tie counting half, in
  per cent. A board nobody else played gives 50.
- **Standings** rank entrants by their total of points above the field over the
  boards they played (``method="total"``) or by their mean matchpoints
  (``method="matchpoints"``), the other figure breaking ties; entrants equal on
  both share a rank. An entrant who left still has a result on every remaining
  board: the robot that took their seat played it (``robot=True``), and it counts.
- **Par** is the robots' own result on a board in that direction (the robot
  seated in the entrant's place): shown beside each result, never scored.

>>> results = [Result("ana", 1, 0, 120), Result("bea", 1, 0, 80), Result("cai", 1, 0, 80),
...            Result("ana", 2, 0, -40), Result("bea", 2, 0, 60)]
>>> table = score(results, par={(1, 0): 100})
>>> [(s.rank, s.entrant, s.total, s.matchpoints) for s in table.standings]
[(1, 'bea', 80.0, 62.5), (2, 'ana', -60.0, 50.0), (3, 'cai', -20.0, 25.0)]
>>> [(s.rank, s.entrant) for s in score(results, method="total").standings]
[(1, 'bea'), (2, 'cai'), (3, 'ana')]
>>> tied = score([Result("ana", 1, 0, 50), Result("bea", 1, 0, 50), Result("cai", 1, 0, 10)])
>>> [(s.rank, s.entrant) for s in tied.standings]
[(1, 'ana'), (1, 'bea'), (3, 'cai')]
>>> ana = table.lines["ana"][0]
>>> ana.field_size, ana.field, ana.above, ana.matchpoints, ana.par
(2, 80.0, 40.0, 100.0, 100)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

from espadas.engine.record import rebuild
from espadas.engine.scoring import deal_scores

Method = Literal["total", "matchpoints"]
METHODS: tuple[Method, ...] = ("matchpoints", "total")


class Result(NamedTuple):
    """One entrant's result on one board, played from ``direction`` (a seat)."""

    entrant: str
    board: int
    direction: int
    points: int
    robot: bool = False
    """Played by the robot that took the seat of an entrant who had left."""


@dataclass(frozen=True)
class Line:
    """A result against its field."""

    result: Result
    field_size: int
    field: float | None
    """The mean of the field's results; None when nobody else played the board."""
    above: float
    matchpoints: float
    par: int | None


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: str
    boards: int
    total: float
    """Points above the field, summed over the boards played."""
    matchpoints: float
    """Mean matchpoints over the boards played, in per cent."""


@dataclass(frozen=True)
class Table:
    """The standings and each entrant's lines (by board)."""

    method: Method
    standings: list[Standing]
    lines: dict[str, list[Line]]


class DuplicateError(ValueError):
    """Results that cannot be scored (an entrant with two results on one board)."""


def score(
    results: Iterable[Result],
    par: Mapping[tuple[int, int], int] | None = None,
    method: Method = "matchpoints",
) -> Table:
    """Scores ``results`` (see the module docstring); ``par`` maps (board,
    direction) to the robots' result there."""
    if method not in METHODS:
        raise DuplicateError(f"method is one of {', '.join(METHODS)}, not {method!r}")
    par = par or {}
    groups: dict[tuple[int, int], list[Result]] = defaultdict(list)
    seen: set[tuple[str, int]] = set()
    for r in results:
        if (r.entrant, r.board) in seen:
            raise DuplicateError(f"{r.entrant} has two results on board {r.board}")
        seen.add((r.entrant, r.board))
        groups[(r.board, r.direction)].append(r)
    lines: dict[str, list[Line]] = defaultdict(list)
    for key in sorted(groups):
        group = groups[key]
        field = _Field([r.points for r in group])
        for r in group:
            lines[r.entrant].append(field.line(r, par.get(key)))
    standings = [_standing(name, own) for name, own in lines.items()]
    return Table(method, _ranked(standings, method), {k: lines[k] for k in sorted(lines)})


class _Field:
    """The results of one board in one direction, sorted once: each result's field
    (all the others) is read off in O(log n), so a day of many entrants scores fast.
    The figures are those of summing the others one by one: the sums are of
    integers, the beaten counts of halves (both exact in floating point)."""

    def __init__(self, points: list[int]) -> None:
        self.sorted = sorted(points)
        self.total = sum(points)

    def line(self, result: Result, par: int | None) -> Line:
        others = len(self.sorted) - 1
        if not others:
            return Line(result, 0, None, 0.0, 50.0, par)
        p = result.points
        mean = (self.total - p) / others
        below = bisect_left(self.sorted, p)
        ties = bisect_right(self.sorted, p) - below - 1  # the others equal to p
        beaten = below + 0.5 * ties
        return Line(result, others, mean, p - mean, 100 * beaten / others, par)


def _standing(entrant: str, own: list[Line]) -> Standing:
    total = round(sum(line.above for line in own), 6)
    matchpoints = round(sum(line.matchpoints for line in own) / len(own), 6)
    return Standing(0, entrant, len(own), total, matchpoints)


def _ranked(standings: list[Standing], method: Method) -> list[Standing]:
    def key(s: Standing) -> tuple[float, float]:
        return (s.matchpoints, s.total) if method == "matchpoints" else (s.total, s.matchpoints)

    ordered = sorted(standings, key=lambda s: (tuple(-v for v in key(s)), s.entrant))
    out: list[Standing] = []
    for i, s in enumerate(ordered):
        rank = out[-1].rank if out and key(ordered[i - 1]) == key(s) else i + 1
        out.append(Standing(rank, s.entrant, s.boards, s.total, s.matchpoints))
    return out


class Played(NamedTuple):
    """One finished hand of a record, as duplicate scoring sees it."""

    board: int
    deal: tuple[int, ...]
    dealer: int
    points: int


def record_results(data: object, seat: int) -> list[Played]:
    """Each finished hand of a game record (FORMATS.md section 2), hand ``i`` being
    board ``i + 1``: its cards, dealer, and the deal score of ``seat``'s side.

    Raises :class:`~espadas.engine.errors.RecordError` or
    :class:`~espadas.engine.errors.ReplayError` for a record the engine refuses, and
    :class:`DuplicateError` for a seat the record does not have."""
    game = rebuild(data)
    rules = game.rules
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < rules.players:
        raise DuplicateError(f"seat is 0..{rules.players - 1}, not {seat!r}")
    side = rules.side_of(seat)
    out = []
    for i, hand in enumerate(game.hands):
        if not hand.over:
            break
        bids = [0 if b is None else b for b in hand.bids]
        points, _ = deal_scores(rules, bids, hand.blind, hand.tricks)
        out.append(Played(i + 1, tuple(hand.deal), hand.dealer, points[side]))
    return out
