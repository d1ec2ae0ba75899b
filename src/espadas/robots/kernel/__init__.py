"""A compiled play-out kernel for the search robots.

Plays the rest of a hand from a position where every hand is known (a sampled
deal), many times over, with a fast policy that follows the habits of the
rule-based robot ``normal`` (:mod:`espadas.robots.heuristics`), so that the
simulated partner and opponents play as the real ones do: its own Nil first
(the highest card that loses), the partner's Nil (cover it), an opponent's Nil
(keep it winning, lead low into it), then the side's contract: while tricks are
needed win cheaply (second hand low, third hand high, never overtake a partner
who holds the trick), draw trumps, cash winners, lead from strength; once it is
made, duck with the highest losing card, unless the opponents can be set. Where
``normal`` weighs odds, the policy reads the sampled hands. A small share of
plays is random so that play-outs differ. Compiled with numba when it is
installed (it is a dependency); the same code runs as plain Python otherwise.

The engine stays the single source of the rules: this kernel re-states only
what a play-out needs (follow suit, the lead rule, the first-trick spade rule,
the trick winner) and ``tests/robots/test_kernel.py`` checks it against the engine
over many random positions.

Cards are the engine's ints (``suit * 13 + rank``, spades 39..51); hands are
52-bit masks in int64 arrays. The package, from the bottom up:

- :mod:`~espadas.robots.kernel.jit`: compiling (numba, cached on disk);
- :mod:`~espadas.robots.kernel.cards`: card primitives and the rules of a trick;
- :mod:`~espadas.robots.kernel.seats`: the partner array (``NO_PARTNER``);
- :mod:`~espadas.robots.kernel.tactics`: what the policy weighs;
- :mod:`~espadas.robots.kernel.leads`, :mod:`~espadas.robots.kernel.follows`: the
  policy's named leads and follows; :mod:`~espadas.robots.kernel.policy`: the policy;
- :mod:`~espadas.robots.kernel.playouts`: play-outs;
- :mod:`~espadas.robots.kernel.sampling`: sampled deals and how well they fit the play;
- :mod:`~espadas.robots.kernel.exact`: exact search of the end of a hand (alpha-beta).

>>> import numpy as np
>>> held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)  # one spade each
>>> out = playouts(held, 4, 1, 0, np.zeros(4, np.int64), 0, np.zeros(4, np.int64), True,
...                0, False, -1, np.ones((1, 4), np.int64), np.array([2, 3, 0, 1]),
...                np.array([-1]), np.array([7]), 0, NO_TRACE)
>>> out[0].tolist()   # the ace of spades (seat 0) wins the only trick
[1, 0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from espadas.robots.kernel.cards import (
    above,
    beating,
    beats_card,
    can_beat,
    forced_to_win,
    highest,
    lowest,
    lowest_rank,
    next_random,
    nth_card,
    popcount,
    proper_mask,
    suit_mask,
    winning,
)
from espadas.robots.kernel.exact import exact_values
from espadas.robots.kernel.jit import COMPILED, jit
from espadas.robots.kernel.playouts import NO_TRACE, playouts
from espadas.robots.kernel.policy import choose
from espadas.robots.kernel.sampling import agreement, sample_deals
from espadas.robots.kernel.seats import NO_PARTNER, partners
from espadas.robots.kernel.tactics import (
    card_value,
    discard,
    dump,
    holds,
    low_card,
    side_contract,
    side_need,
)

WARM_PARTS = ("playouts", "sampling", "exact")
"""The kernel's entry points, in the groups :func:`warm_up` compiles: the play-outs;
the sampled deals and how well they fit the play; the exact search."""


def warm_up(parts: Collection[str] = WARM_PARTS) -> None:
    """Compiles (or loads the cached compilation of) the kernel before timing starts
    (:func:`espadas.robots.expert.warm_up` also builds experto's per-suit tables).

    ``parts`` (of :data:`WARM_PARTS`) picks what to compile, so that separate
    processes can compile a new checkout's kernel side by side: compiling is
    single-threaded, and the play-outs and the sampling take about 10 s each.

    >>> warm_up(["exact"])
    >>> warm_up(["nothing"])
    Traceback (most recent call last):
    ...
    ValueError: unknown parts of the kernel: nothing (known: playouts, sampling, exact)
    """
    unknown = sorted(set(parts) - set(WARM_PARTS))
    if unknown:
        raise ValueError(
            f"unknown parts of the kernel: {', '.join(unknown)} (known: {', '.join(WARM_PARTS)})"
        )
    held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    if "playouts" in parts:
        playouts(
            held, 4, 1, 0, zeros, 0, zeros, True, 0, False, -1, np.ones((1, 4), dtype=np.int64),
            np.array([2, 3, 0, 1], dtype=np.int64), np.array([-1], dtype=np.int64),
            np.array([1], dtype=np.int64), 0, NO_TRACE,
        )  # fmt: skip
    if "sampling" in parts:
        sample_deals(0, 1, 14, np.zeros(4, np.int64), np.array([0, 1, 1, 1]), np.array([1, 2, 3]),
                     1, 1, 1)  # fmt: skip
        agreement(
            held, np.zeros(4, dtype=np.int64), 4, 1, np.zeros(0, dtype=np.int64),
            np.zeros(1, dtype=np.int64), 0, np.ones(4, dtype=np.int64),
            np.array([2, 3, 0, 1], dtype=np.int64), False, -1, np.full((2, 4), 0.5), 1,
        )  # fmt: skip
    if "exact" in parts:
        exact_values(
            held, 4, 0, zeros, 0, True, 0, False, np.array([1, 0, 1, 0], dtype=np.int64),
            np.array([51], dtype=np.int64), 2, np.zeros(16),
        )  # fmt: skip


__all__ = [
    "COMPILED",
    "NO_PARTNER",
    "NO_TRACE",
    "WARM_PARTS",
    "above",
    "agreement",
    "beating",
    "beats_card",
    "can_beat",
    "card_value",
    "choose",
    "discard",
    "dump",
    "exact_values",
    "forced_to_win",
    "highest",
    "holds",
    "jit",
    "low_card",
    "lowest",
    "lowest_rank",
    "next_random",
    "nth_card",
    "partners",
    "playouts",
    "popcount",
    "proper_mask",
    "sample_deals",
    "side_contract",
    "side_need",
    "suit_mask",
    "winning",
]
