"""How hands and games end: a scored hand and the result of a game.

>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> game.abandon(1)
>>> game.result
Result(winner=0, reason='abandon', loser=1, ranking=(0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from espadas.engine.scoring import HandScore


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning side, the reason, and (for abandon, timeout,
    renege, false accusation) the losing side. ``ranking`` lists every side, best first."""

    winner: int
    reason: str
    loser: int | None
    ranking: tuple[int, ...]


class ScoredHand(NamedTuple):
    """The outcome of a scored hand."""

    score: HandScore
    totals: tuple[int, ...]
    boston: int | None
