"""A compiled play-out kernel for the search robots.

Plays the rest of a hand from a position where every hand is known (a sampled
deal), many times over, with a fast policy: nil bidders duck, partners do not
overtake each other, a partner's Nil is covered, an opponent's Nil is left
winning, otherwise win cheaply or play low; a small share of plays is random so
that play-outs differ. Compiled with numba when it is installed (it is a
dependency); the same code runs as plain Python otherwise.

The engine stays the single source of the rules: this kernel re-states only
what a play-out needs (follow suit, the lead rule, the first-trick spade rule,
the trick winner) and ``tests/test_kernel.py`` checks it against the engine
over many random positions.

Cards are the engine's ints (``suit * 13 + rank``, spades 39..51); hands are
52-bit masks in int64 arrays.

>>> import numpy as np
>>> held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)  # one spade each
>>> out = playouts(held, 4, 1, 0, np.zeros(4, np.int64), 0, np.zeros(4, np.int64), True,
...                0, False, -1, np.zeros(4, np.int64), np.array([2, 3, 0, 1]),
...                np.array([-1]), np.array([7]), 0, NO_TRACE)
>>> out[0].tolist()   # the ace of spades (seat 0) wins the only trick
[1, 0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

try:  # pragma: no branch
    from numba import njit as _njit

    def jit(fn: F) -> F:
        return _njit(cache=True, nogil=True)(fn)  # type: ignore[return-value]

    COMPILED = True
except ImportError:  # pragma: no cover - numba is a dependency; this is a fallback

    def jit(fn: F) -> F:
        return fn

    COMPILED = False

NO_TRACE = np.zeros((0, 0), dtype=np.int64)
SUIT_BITS = 0x1FFF
SPADES = SUIT_BITS << 39
NON_SPADES = (1 << 39) - 1

_POP = np.zeros(8192, dtype=np.int64)
_HIGH = np.full(8192, -1, dtype=np.int64)
_LOW = np.full(8192, -1, dtype=np.int64)
for _c in range(1, 8192):
    _POP[_c] = bin(_c).count("1")
    _HIGH[_c] = _c.bit_length() - 1
    _LOW[_c] = (_c & -_c).bit_length() - 1


@jit
def popcount(m: int) -> int:
    return int(
        _POP[m & SUIT_BITS]
        + _POP[(m >> 13) & SUIT_BITS]
        + _POP[(m >> 26) & SUIT_BITS]
        + _POP[(m >> 39) & SUIT_BITS]
    )


@jit
def highest(m: int) -> int:
    """The greatest card in ``m`` (spades count highest), or -1."""
    for s in range(3, -1, -1):
        c = (m >> (13 * s)) & SUIT_BITS
        if c:
            return int(13 * s + _HIGH[c])
    return -1


@jit
def lowest(m: int) -> int:
    """The smallest card in ``m``, or -1."""
    for s in range(4):
        c = (m >> (13 * s)) & SUIT_BITS
        if c:
            return int(13 * s + _LOW[c])
    return -1


@jit
def lowest_rank(m: int) -> int:
    """The card of lowest rank in ``m`` (non-spades first on equal ranks), or -1."""
    best = -1
    best_rank = 99
    for s in range(4):
        c = (m >> (13 * s)) & SUIT_BITS
        if c:
            r = int(_LOW[c])
            if r < best_rank:
                best_rank = r
                best = 13 * s + r
    return best


@jit
def next_random(state: int) -> int:
    """A 31-bit linear congruential step: the same in compiled code and in Python."""
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


@jit
def nth_card(m: int, k: int) -> int:
    """The ``k``-th card of ``m`` in ascending order."""
    for s in range(4):
        c = (m >> (13 * s)) & SUIT_BITS
        p = int(_POP[c])
        if k < p:
            for _ in range(k):
                c &= c - 1
            return int(13 * s + _LOW[c])
        k -= p
    return -1


@jit
def proper_mask(
    held: int, led: int, leading: bool, broken: bool, first_trick_forbidden: bool, forced: int
) -> int:
    """The cards that follow the rules (as the engine's proper plays)."""
    if leading:
        if forced >= 0:
            return 1 << forced
        if not broken and held & NON_SPADES:
            return held & NON_SPADES
        return held
    follow = held & (SUIT_BITS << (13 * led))
    if follow:
        return follow
    if first_trick_forbidden and held & NON_SPADES:
        return held & NON_SPADES
    return held


@jit
def winning(trick: np.ndarray, trick_len: int) -> tuple[int, int]:
    """(card, position) of the card winning the first ``trick_len`` cards of a trick:
    the highest spade, else the highest card of the suit led."""
    led = trick[0] // 13
    best = -1
    best_at = 0
    for i in range(trick_len):
        c = trick[i]
        if c > best and (c >= 39 or c // 13 == led):
            best = c
            best_at = i
    return best, best_at


@jit
def beating(best: int, led: int) -> int:
    """The cards that would beat ``best`` in a trick led in suit ``led``."""
    above = ~((1 << (best + 1)) - 1)
    if best >= 39:
        return SPADES & above
    return ((SUIT_BITS << (13 * led)) & above) | SPADES


@jit
def choose(
    seat: int,
    legal: int,
    trick: np.ndarray,
    trick_len: int,
    leader: int,
    remaining: int,
    nil: np.ndarray,
    partner: np.ndarray,
    n: int,
    state: int,
    eps: int,
) -> tuple[int, int]:
    """The policy: returns (card, new rng state)."""
    count = popcount(legal)
    if count == 1:
        return lowest(legal), state
    state = next_random(state)
    if state % 1000 < eps:
        state = next_random(state)
        return nth_card(legal, state % count), state
    if trick_len == 0:
        if nil[seat]:
            return lowest_rank(legal), state
        state = next_random(state)
        start = state % 4
        for i in range(4):
            s = (start + i) % 4
            mine = (legal >> (13 * s)) & SUIT_BITS
            if mine and s != 3:
                top = int(_HIGH[mine])
                if top == int(_HIGH[(remaining >> (13 * s)) & SUIT_BITS]):
                    return 13 * s + top, state  # the top card left in its suit
        for i in range(4):
            s = (start + i) % 4
            mine = (legal >> (13 * s)) & SUIT_BITS
            if mine:
                return 13 * s + int(_LOW[mine]), state
        return lowest(legal), state
    led = trick[0] // 13
    best, best_at = winning(trick, trick_len)
    winning_seat = (leader + best_at) % n
    winners = legal & beating(best, led)
    losers = legal & ~winners
    mate = partner[seat]
    if nil[seat]:
        if losers:
            return highest(losers), state
        return lowest(winners), state
    if mate >= 0 and winning_seat == mate:
        if nil[mate] and winners:
            return lowest(winners), state  # cover partner's Nil
        return lowest_rank(legal) if not legal & (SUIT_BITS << (13 * led)) else lowest(legal), state
    if nil[winning_seat] and losers:
        return highest(losers), state  # leave the Nil bidder winning
    if winners:
        if trick_len == n - 1:
            return lowest(winners), state
        if trick_len == 1 and n == 4 and losers:
            return lowest(losers), state  # second hand low
        same = winners & (SUIT_BITS << (13 * led))
        if same:
            return highest(same), state  # third hand high
        return lowest(winners), state
    if legal & (SUIT_BITS << (13 * led)):
        return lowest(legal), state
    return lowest_rank(legal & NON_SPADES) if legal & NON_SPADES else lowest(legal), state


@jit
def playouts(
    held: np.ndarray,
    n: int,
    size: int,
    leader: int,
    trick0: np.ndarray,
    trick_len0: int,
    tricks0: np.ndarray,
    broken0: bool,
    plays_done0: int,
    first_forbidden: bool,
    forced0: int,
    nil: np.ndarray,
    partner: np.ndarray,
    first_card: np.ndarray,
    seeds: np.ndarray,
    eps: int,
    trace: np.ndarray,
) -> np.ndarray:
    """Plays out every row of ``held`` (int64[rows, n]: the cards each seat holds)
    from one position: ``leader`` led the current trick, whose first ``trick_len0``
    cards are ``trick0``; ``tricks0`` counts tricks taken; ``plays_done0`` cards were
    played this hand; ``forced0`` is the card the very first lead must be (or -1).
    ``first_card[row]`` (or -1) is the card the seat to act plays first.
    ``eps`` is the share of random plays, per thousand. Returns int64[rows, n]:
    the tricks each seat has taken at the end of the hand. When ``trace`` has rows,
    ``trace[row, k]`` receives the k-th card played in that row (for tests)."""
    rows = held.shape[0]
    tracing = trace.shape[0] > 0
    out = np.zeros((rows, n), dtype=np.int64)
    total = n * size
    trick = np.zeros(n, dtype=np.int64)
    hands = np.zeros(n, dtype=np.int64)
    for row in range(rows):
        for s in range(n):
            hands[s] = held[row, s]
            out[row, s] = tricks0[s]
        for i in range(trick_len0):
            trick[i] = trick0[i]
        trick_len = trick_len0
        lead = leader
        broken = broken0
        done = plays_done0
        state = seeds[row] & 0x7FFFFFFF
        forced_card = first_card[row]
        step = 0
        remaining = 0
        for s in range(n):
            remaining |= hands[s]
        while done < total:
            seat = (lead + trick_len) % n
            h = hands[seat]
            if forced_card >= 0:
                card = forced_card
                forced_card = -1
            else:
                led = trick[0] // 13 if trick_len > 0 else -1
                legal = proper_mask(
                    h,
                    led,
                    trick_len == 0,
                    broken,
                    first_forbidden and done < n,
                    forced0 if done == 0 else -1,
                )
                card, state = choose(
                    seat, legal, trick, trick_len, lead, remaining, nil, partner, n, state, eps
                )
            if tracing:
                trace[row, step] = card
            step += 1
            bit = 1 << card
            hands[seat] = h & ~bit
            remaining &= ~bit
            trick[trick_len] = card
            trick_len += 1
            done += 1
            if card >= 39:
                broken = True
            if trick_len == n:
                lead = (lead + winning(trick, n)[1]) % n
                out[row, lead] += 1
                trick_len = 0
    return out


def warm_up() -> None:
    """Compiles (or loads the cached compilation of) the kernel before timing starts."""
    held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    playouts(
        held, 4, 1, 0, zeros, 0, zeros, True, 0, False, -1, zeros,
        np.array([2, 3, 0, 1], dtype=np.int64), np.array([-1], dtype=np.int64),
        np.array([1], dtype=np.int64), 0, NO_TRACE,
    )  # fmt: skip
