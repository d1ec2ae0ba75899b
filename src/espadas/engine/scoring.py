"""Scoring of one hand (RULES.md section 6): a pure function.

>>> from espadas.engine.rules import Rules
>>> r = Rules.from_preset("estandar")
>>> s = score_hand(r, bids=[4, 0, 3, 0], blind=[False] * 4, tricks=[5, 0, 4, 4], bags=[0, 0])
>>> s.points, s.bags
([72, 4], [2, 4])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from espadas.engine.rules import Rules

BIG_CONTRACT_FROM = {3: 10, 4: 8, 5: 7, 6: 6}


class HandScore(NamedTuple):
    """Points of one hand per side (bag penalty included) and bags per side after it."""

    points: list[int]
    bags: list[int]
    penalties: list[int]


def score_hand(
    rules: Rules,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags: Sequence[int],
) -> HandScore:
    """Scores a finished hand. ``bids`` and ``tricks`` are by seat (0 = Nil),
    ``blind`` says which Nil bids were blind, ``bags`` are each side's bags before it."""
    points: list[int] = []
    new_bags: list[int] = []
    penalties: list[int] = []
    for side in range(rules.sides):
        seats = rules.seats_of(side)
        contract = 0
        taken = 0
        pts = 0
        side_bags = 0
        for seat in seats:
            if bids[seat] == 0:
                value = 200 if blind[seat] else 100
                if tricks[seat] == 0:
                    pts += value
                else:
                    pts -= value
                    if not rules.quicksand:
                        pts += tricks[seat]
                        side_bags += tricks[seat]
            else:
                contract += bids[seat]
                taken += tricks[seat]
        if contract > 0:
            if taken >= contract:
                over = taken - contract
                if rules.quicksand:
                    pts += 10 * contract - 10 * over
                else:
                    pts += 10 * contract + over
                    side_bags += over
                if rules.bonuses:
                    if contract <= 2 and over == 0 and rules.players in (3, 4):
                        pts += 20
                    pts += 10 * max(0, contract - BIG_CONTRACT_FROM[rules.players])
            elif rules.quicksand:
                pts -= 10 * (contract - taken)
            else:
                pts -= 10 * contract
        total_bags = bags[side] + side_bags
        penalty = 0
        if rules.bags_reset:
            if total_bags >= 10:
                penalty = 100
                total_bags = 0
        else:
            while total_bags >= 10:
                penalty += 100
                total_bags -= 10
        points.append(pts - penalty)
        new_bags.append(total_bags)
        penalties.append(penalty)
    return HandScore(points, new_bags, penalties)
