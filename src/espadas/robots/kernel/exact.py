"""Exact search of the end of a hand, every hand known: minimax with alpha-beta
pruning, without recursion, over the tricks each seat takes from now on."""

from __future__ import annotations

import numpy as np

from espadas.robots.kernel.cards import highest, proper_mask, winning
from espadas.robots.kernel.jit import jit


@jit
def _minimax(
    hands: np.ndarray,
    n: int,
    played: np.ndarray,
    d0: int,
    leader0: int,
    trick_len0: int,
    broken0: bool,
    done0: int,
    first_forbidden: bool,
    maximize: np.ndarray,
    extra: np.ndarray,
    base: int,
    table: np.ndarray,
    stack: np.ndarray,
    bounds: np.ndarray,
) -> float:
    """The minimax value (alpha-beta, without recursion) of a position where every
    hand is known: seats with ``maximize`` set maximize ``table`` (indexed by the
    tricks each seat takes from now on, ``extra``, in base ``base``), the others
    minimize it. ``played[d0 - trick_len0:d0]`` is the trick in progress, led by
    ``leader0``; ``stack`` (int64[depth, 5]) and ``bounds`` (float64[depth, 3]) are
    scratch space: per depth the cards left to try, leader, trick length, spades
    broken and the trick's winner; best value, alpha and beta."""
    d = d0
    stack[d, 1] = leader0
    stack[d, 2] = trick_len0
    stack[d, 3] = 1 if broken0 else 0
    bounds[d, 1] = -1e18
    bounds[d, 2] = 1e18
    enter = True
    v = 0.0
    while True:
        if enter:
            seat = (stack[d, 1] + stack[d, 2]) % n
            if hands[seat] == 0:
                index = 0
                for s in range(n - 1, -1, -1):
                    index = index * base + extra[s]
                v = float(table[index])
                enter = False
            else:
                tl = stack[d, 2]
                led = played[d - tl] // 13 if tl > 0 else -1
                first = first_forbidden and done0 + d - d0 < n
                stack[d, 0] = proper_mask(hands[seat], led, tl == 0, stack[d, 3] != 0, first, -1)
                bounds[d, 0] = -1e18 if maximize[seat] else 1e18
            if not enter:  # a leaf: its value goes to the parent
                if d == d0:
                    return v
                d = _undo(hands, n, played, d, stack, extra)
                _back(maximize, stack, bounds, d, v, n)
        # next card of node d, or the node's value to its parent
        if stack[d, 0] == 0 or bounds[d, 1] >= bounds[d, 2]:
            v = float(bounds[d, 0])
            if d == d0:
                return v
            d = _undo(hands, n, played, d, stack, extra)
            _back(maximize, stack, bounds, d, v, n)
            enter = False
            continue
        m = stack[d, 0]
        low = m & -m
        stack[d, 0] = m ^ low
        c = highest(low)
        seat = (stack[d, 1] + stack[d, 2]) % n
        hands[seat] ^= low
        played[d] = c
        tl = stack[d, 2] + 1
        if tl == n:
            winner = (stack[d, 1] + winning(played[d + 1 - n : d + 1], n)[1]) % n
            extra[winner] += 1
            stack[d, 4] = winner
            stack[d + 1, 1] = winner
            stack[d + 1, 2] = 0
        else:
            stack[d, 4] = -1
            stack[d + 1, 1] = stack[d, 1]
            stack[d + 1, 2] = tl
        stack[d + 1, 3] = 1 if stack[d, 3] != 0 or c >= 39 else 0
        bounds[d + 1, 1] = bounds[d, 1]
        bounds[d + 1, 2] = bounds[d, 2]
        d += 1
        enter = True


@jit
def _undo(
    hands: np.ndarray, n: int, played: np.ndarray, d: int, stack: np.ndarray, extra: np.ndarray
) -> int:
    """Takes back the card played at depth ``d - 1``; returns ``d - 1``."""
    d -= 1
    seat = (stack[d, 1] + stack[d, 2]) % n
    hands[seat] ^= 1 << played[d]
    if stack[d, 4] >= 0:
        extra[stack[d, 4]] -= 1
    return d


@jit
def _back(
    maximize: np.ndarray, stack: np.ndarray, bounds: np.ndarray, d: int, v: float, n: int
) -> None:
    """Gives the value ``v`` of a card tried at depth ``d`` to that node."""
    seat = (stack[d, 1] + stack[d, 2]) % n
    if maximize[seat]:
        if v > bounds[d, 0]:
            bounds[d, 0] = v
        if v > bounds[d, 1]:
            bounds[d, 1] = v
    else:
        if v < bounds[d, 0]:
            bounds[d, 0] = v
        if v < bounds[d, 2]:
            bounds[d, 2] = v


@jit
def exact_values(
    deals: np.ndarray,
    n: int,
    leader: int,
    trick0: np.ndarray,
    trick_len0: int,
    broken0: bool,
    plays_done0: int,
    first_forbidden: bool,
    maximize: np.ndarray,
    candidates: np.ndarray,
    base: int,
    table: np.ndarray,
) -> np.ndarray:
    """The minimax value (see :func:`_minimax`) of playing each of ``candidates`` now,
    in each sampled deal: float64[rows, candidates]."""
    rows = deals.shape[0]
    out = np.zeros((rows, candidates.shape[0]))
    hands = np.zeros(n, dtype=np.int64)
    extra = np.zeros(n, dtype=np.int64)
    depth = trick_len0 + 1 + n * 20
    played = np.zeros(depth, dtype=np.int64)
    stack = np.zeros((depth, 5), dtype=np.int64)
    bounds = np.zeros((depth, 3))
    for j in range(trick_len0):
        played[j] = trick0[j]
    seat = (leader + trick_len0) % n
    d0 = trick_len0
    for row in range(rows):
        for s in range(n):
            hands[s] = deals[row, s]
        for i in range(candidates.shape[0]):
            c = candidates[i]
            played[d0] = c
            hands[seat] ^= 1 << c
            broken = broken0 or c >= 39
            if trick_len0 + 1 == n:
                winner = (leader + winning(played[d0 + 1 - n : d0 + 1], n)[1]) % n
                extra[winner] += 1
                v = _minimax(
                    hands, n, played, d0 + 1, winner, 0, broken, plays_done0 + 1,
                    first_forbidden, maximize, extra, base, table, stack, bounds,
                )  # fmt: skip
                extra[winner] -= 1
            else:
                v = _minimax(
                    hands, n, played, d0 + 1, leader, trick_len0 + 1, broken, plays_done0 + 1,
                    first_forbidden, maximize, extra, base, table, stack, bounds,
                )  # fmt: skip
            hands[seat] ^= 1 << c
            out[row, i] = v
    return out
