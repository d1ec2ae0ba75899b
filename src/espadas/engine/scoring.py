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

_tuple_new = tuple.__new__  # a NamedTuple built without its Python-level __new__
BIG_CONTRACT_FROM = {3: 10, 4: 8, 5: 7, 6: 6}
# The seats of each side by (partnerships, players), as Rules.seats_of gives them.
_SIDE_SEATS = {(True, 4): ((0, 2), (1, 3))} | {
    (False, n): tuple((seat,) for seat in range(n)) for n in (3, 4, 5, 6)
}


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
    quicksand = rules.quicksand
    for side, seats in enumerate(_SIDE_SEATS[rules.partnerships, rules.players]):
        contract = 0
        taken = 0
        pts = 0
        side_bags = 0
        for seat in seats:
            bid = bids[seat]
            took = tricks[seat]
            if bid == 0:
                value = 200 if blind[seat] else 100
                if took == 0:
                    pts += value
                else:
                    pts -= value
                    if not quicksand:
                        pts += took
                        side_bags += took
            else:
                contract += bid
                taken += took
        if contract > 0:
            if taken >= contract:
                over = taken - contract
                if quicksand:
                    pts += 10 * contract - 10 * over
                else:
                    pts += 10 * contract + over
                    side_bags += over
                if rules.bonuses:
                    if contract <= 2 and over == 0 and rules.players in (3, 4):
                        pts += 20
                    pts += 10 * max(0, contract - BIG_CONTRACT_FROM[rules.players])
            elif quicksand:
                pts -= 10 * (contract - taken)
            else:
                pts -= 10 * contract
        total_bags = bags[side] + side_bags
        penalty = 0
        if total_bags >= 10:
            if rules.bags_reset:
                penalty = 100
                total_bags = 0
            else:
                while total_bags >= 10:
                    penalty += 100
                    total_bags -= 10
        points.append(pts - penalty)
        new_bags.append(total_bags)
        penalties.append(penalty)
    return _tuple_new(HandScore, (points, new_bags, penalties))
