"""The standing of the game a play of the arena starts from: every side's score
before the hand, and which sides are behind.

The arena scores each hand on its own (see :mod:`espadas.robots.arena`), but the
robots see the game's score and some of their choices depend on it (blind nil is
for a side far behind near the end of the game). So a match can start its plays
from a score, the same for every play of one deal (by seat, so that in duplicate
each robot meets each situation at the same seats):

- ``zero`` (the default): every play starts from 0–0.
- ``mixed``: deal ``i`` starts from one of three situations, ``i % 3``:
  0, *level*: every side at 0;
  1, *one behind*: one side at 30 % of the target, every other at 80 %;
  2, *one ahead*: one side at 80 % of the target, every other at 30 %.
  With partnerships the one side is ``ns`` (so ``ns`` is behind in situation 1
  and ``ew`` in situation 2); in individual games it is seat
  ``(i // 3) % players``, so that over the deals every seat is behind and ahead
  and the dealer (``i % players``) meets every situation.

A side is **behind** when its starting score is below the best starting score of
another side: in ``mixed`` that is 50 % of the target behind a side at 80 % of
it (150 behind 400 in a game to 500, 30 behind 80 in ``cien``'s game to 100).

>>> from espadas.engine import Rules
>>> rules = Rules()
>>> [start_scores(rules, "mixed", i) for i in range(3)]
[(0, 0), (150, 400), (400, 150)]
>>> behind_sides((150, 400)), behind_sides((0, 0))
((True, False), (False, False))
>>> individual = Rules.from_preset("sala", players=3)
>>> start_scores(individual, "mixed", 4), start_scores(individual, "zero", 4)
((400, 150, 400), (0, 0, 0))
"""

from __future__ import annotations

from collections.abc import Sequence

from espadas.engine import Rules

STARTS = ("zero", "mixed")
"""The ways a match can choose the score its plays start from."""

LOW = 0.3
"""The starting score of a side behind (or of the others, one side ahead), as a
share of the target."""
HIGH = 0.8
"""The starting score of the sides not behind, as a share of the target."""


class UnknownStart(ValueError):
    """A start that is not one of :data:`STARTS`."""


def _round10(points: float) -> int:
    return round(points / 10) * 10


def start_scores(rules: Rules, start: str, index: int) -> tuple[int, ...]:
    """Every side's score before the hand of deal ``index`` (see the module)."""
    if start not in STARTS:
        raise UnknownStart(f"unknown start {start!r}; the starts are {', '.join(STARTS)}")
    sides = rules.sides
    situation = index % 3
    if start == "zero" or situation == 0:
        return (0,) * sides
    low, high = _round10(LOW * rules.target), _round10(HIGH * rules.target)
    one, rest = (low, high) if situation == 1 else (high, low)
    chosen = 0 if rules.partnerships else (index // 3) % sides
    return tuple(one if side == chosen else rest for side in range(sides))


def behind_sides(scores: Sequence[int]) -> tuple[bool, ...]:
    """For each side: whether its score is below another side's best."""
    return tuple(
        any(other > mine for s, other in enumerate(scores) if s != side)
        for side, mine in enumerate(scores)
    )
