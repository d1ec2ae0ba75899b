"""Card primitives of the kernel: hands as 52-bit masks (the engine's card ints,
``suit * 13 + rank``, spades 39..51), counted and searched with processor
instructions, and the few rules a play-out needs (follow suit, the lead rule, the
first-trick spade rule, the trick winner). The mask constants are the engine's
(:mod:`espadas.engine.cardset`).

>>> popcount(0b1011), highest(0b1011), lowest(0b1000), lowest(0)
(3, 3, 3, -1)
>>> bool(beats_card(51, 38, 2)), proper_mask(1 << 51 | 1 << 0, -1, True, False, False, -1)
(True, 1)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from espadas.engine.cardset import NON_SPADES, SPADES, SUIT_MASKS
from espadas.robots.kernel.jit import COMPILED, jit
from espadas.robots.tricks import beats

SUIT_BITS = SUIT_MASKS[0]
"""The 13 bits of a suit, shifted by ``13 * suit``."""

_POP = np.zeros(8192, dtype=np.int64)
_LOW = np.full(8192, -1, dtype=np.int64)
for _c in range(1, 8192):
    _POP[_c] = bin(_c).count("1")
    _LOW[_c] = (_c & -_c).bit_length() - 1


if COMPILED:
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @jit
    def popcount(m: int) -> int:
        """The number of cards in ``m`` (one processor instruction)."""
        return int(_ctpop(m))  # type: ignore[call-arg]

    @jit
    def highest(m: int) -> int:
        """The greatest card in ``m`` (spades count highest), or -1."""
        return 63 - int(_ctlz(m)) if m else -1  # type: ignore[call-arg]

    @jit
    def lowest(m: int) -> int:
        """The smallest card in ``m``, or -1."""
        return int(_cttz(m)) if m else -1  # type: ignore[call-arg]

else:  # pragma: no cover - plain Python, when numba is missing

    def popcount(m: int) -> int:
        return int(m).bit_count()

    def highest(m: int) -> int:
        return int(m).bit_length() - 1

    def lowest(m: int) -> int:
        return (int(m) & -int(m)).bit_length() - 1


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


beats_card = jit(beats)
""":func:`espadas.robots.tricks.beats`, compiled."""


@jit
def beating(best: int, led: int) -> int:
    """The cards that would beat ``best`` in a trick led in suit ``led``."""
    above = ~((1 << (best + 1)) - 1)
    if best >= 39:
        return SPADES & above
    return ((SUIT_BITS << (13 * led)) & above) | SPADES


@jit
def suit_mask(suit: int) -> int:
    return SUIT_BITS << (13 * suit)


@jit
def above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it."""
    return suit_mask(card // 13) & ~((2 << card) - 1)


@jit
def can_beat(hand: int, best: int, led: int) -> bool:
    """Whether a seat holding ``hand`` may (and can) beat ``best`` in a trick led in
    ``led``: following suit when it can, trumping when void."""
    follow = hand & suit_mask(led)
    if follow:
        return best // 13 == led and (follow & above(best)) != 0
    if best >= 39:
        return (hand & above(best)) != 0
    return (hand & SPADES) != 0


@jit
def forced_to_win(hand: int, bar: int, led: int) -> bool:
    """Whether a seat holding ``hand`` must beat ``bar`` in a trick led in ``led``."""
    if hand == 0:
        return False
    follow = hand & suit_mask(led)
    if follow:
        return bar // 13 == led and (follow & ~above(bar)) == 0
    if bar >= 39:
        return (hand & ~above(bar)) == 0
    return (hand & NON_SPADES) == 0
