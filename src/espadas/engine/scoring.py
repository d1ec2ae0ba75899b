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


def deal_scores(
    rules: Rules, bids: Sequence[int], blind: Sequence[bool], tricks: Sequence[int]
) -> tuple[list[int], list[int]]:
    """Each side's deal score and bags taken in one hand (``bids``: 0 for Nil).

    The hand is scored by the engine from no bags with carried-over bags, so that the
    bags taken in the hand are ``bags left + 10 per 100 of penalty`` even when they
    reach 10 (with ``bags_reset`` the engine would forget how many there were); the
    deal score is the points without the penalty, minus 10 per bag taken.

    >>> rules = Rules.from_preset("pagat")
    >>> deal_scores(rules, [4, 3, 3, 2], [False] * 4, [6, 2, 2, 3])  # 70 + 1 - 10, 50
    ([61, 50], [1, 0])
    >>> deal_scores(rules, [1, 0, 0, 0], [False] * 4, [13, 0, 0, 0])  # 22 + 100 - 120
    ([2, 200], [12, 0])
    """
    carried = rules.replace(bags_reset=False) if rules.bags_reset else rules
    score = score_hand(carried, bids, blind, tricks, [0] * rules.sides)
    bags = [left + penalty // 10 for left, penalty in zip(score.bags, score.penalties, strict=True)]
    points = [
        pts + penalty - 10 * taken
        for pts, penalty, taken in zip(score.points, score.penalties, bags, strict=True)
    ]
    return points, bags


class SideParts(NamedTuple):
    """Where one side's points of a hand come from (what a hand summary shows).

    ``contract_points`` is what the contract earned or lost (overtricks
    included), ``nils`` one ``(seat, blind, made, points)`` per Nil bid,
    ``bonus`` the extra points of the ``bonuses`` option, ``new_bags`` the bags
    this hand added and ``penalty`` the bag penalty; their sum, less the
    penalty, is the side's :attr:`HandScore.points`.
    """

    contract: int
    tricks: int
    contract_points: int
    nils: list[tuple[int, bool, bool, int]]
    bonus: int
    new_bags: int
    penalty: int


def explain_hand(
    rules: Rules,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks: Sequence[int],
    bags: Sequence[int],
) -> list[SideParts]:
    """The parts of :func:`score_hand`'s points, per side (same arguments).

    >>> from espadas.engine.rules import Rules
    >>> r = Rules.from_preset("estandar")
    >>> ns, ew = explain_hand(r, [4, 0, 3, 0], [False] * 4, [5, 0, 4, 4], [0, 0])
    >>> ns.contract, ns.tricks, ns.contract_points, ns.new_bags
    (7, 9, 72, 2)
    >>> ew.nils, ew.contract_points, ew.new_bags
    ([(1, False, True, 100), (3, False, False, -96)], 0, 4)
    """
    score = score_hand(rules, bids, blind, tricks, bags)
    out: list[SideParts] = []
    for side, seats in enumerate(_SIDE_SEATS[rules.partnerships, rules.players]):
        nils: list[tuple[int, bool, bool, int]] = []
        contract = taken = new_bags = bonus = 0
        for seat in seats:
            if bids[seat] == 0:
                value = 200 if blind[seat] else 100
                made = tricks[seat] == 0
                extra = 0 if made or rules.quicksand else tricks[seat]
                nils.append((seat, blind[seat], made, (value if made else -value) + extra))
                new_bags += extra
            else:
                contract += bids[seat]
                taken += tricks[seat]
        if contract > 0 and taken >= contract:
            over = taken - contract
            if not rules.quicksand:
                new_bags += over
            if rules.bonuses:
                if contract <= 2 and over == 0 and rules.players in (3, 4):
                    bonus += 20
                bonus += 10 * max(0, contract - BIG_CONTRACT_FROM[rules.players])
        penalty = score.penalties[side]
        nil_points = sum(n[3] for n in nils)
        contract_points = score.points[side] + penalty - nil_points - bonus
        out.append(SideParts(contract, taken, contract_points, nils, bonus, new_bags, penalty))
    return out
