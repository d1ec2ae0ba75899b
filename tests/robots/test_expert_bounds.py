"""The work of one experto decision stays bounded at every table size: the exact
search of the end of a hand is used only while its tree is no larger than that of
4 players holding 3 cards each (with 6 players, 3 cards each took up to 1 s), and
the heap the warm-up leaves is out of the garbage collector's reach."""

from __future__ import annotations

import gc
import math
import random

import pytest

from espadas.engine import Game, NextHand, Rules
from espadas.robots.expert.robot import EXACT_CARDS, ExpertRobot, searches_exactly
from robot_helpers import TABLES

FOUR_BY_THREE = math.factorial(3) ** 4  # orders of play of 4 hands of 3 cards


@pytest.mark.parametrize(("preset", "options"), TABLES, ids=lambda x: str(x))
def test_exact_search_stays_small(preset: str, options: dict[str, int]) -> None:
    rules = Rules.from_preset(preset, **options)
    exact_at: set[int] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game.new(rules, seed=seed)
        while len(game.scored) < 1:
            if game.phase == "hand_end":
                game.apply(NextHand())
                continue
            seat = game.to_act
            assert seat is not None
            view = game.view_for(seat)
            if view.phase == "playing":
                left = view.cards_left
                if searches_exactly(view):
                    exact_at.add(left[seat])
                    orders = math.prod(math.factorial(c) for c in left)
                    assert orders <= FOUR_BY_THREE, (rules.players, left)
                elif rules.players <= 4:  # unchanged: exact from EXACT_CARDS cards on
                    assert left[seat] > EXACT_CARDS
            game.apply(rng.choice(view.legal), by=seat)
    # the exact search is still used near the end at every table size
    assert exact_at and max(exact_at) >= 2
    if rules.players <= 4:
        assert max(exact_at) == EXACT_CARDS


def test_the_warmed_up_heap_is_frozen() -> None:
    ExpertRobot(1, budget_ms=5)
    assert gc.get_freeze_count() > 10_000  # numba's kernel and the imports
