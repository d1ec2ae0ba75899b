"""Trick facts written once as plain Python: the rule-based robot calls them as they
are, and the compiled kernel (:mod:`espadas.robots.kernel`) compiles the same
functions, so that both state them alike without ``normal`` paying for a call
into compiled code.

Cards are the engine's ints (``suit * 13 + rank``, spades 39..51).

>>> beats(51, 38, 2), beats(12, 38, 2), beats(37, 36, 2)
(True, False, True)
"""

from __future__ import annotations


def beats(card: int, best: int, led: int) -> bool:
    """Whether ``card`` beats ``best``, the card winning a trick led in suit ``led``."""
    if card >= 39:
        return best < 39 or card > best
    return card // 13 == led and best < 39 and card > best
