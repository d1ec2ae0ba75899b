"""Dealing: cards one at a time clockwise from the dealer's left, with a given rng.

>>> import random
>>> from espadas.engine.rules import Rules
>>> d = deal_cards(Rules.from_preset("sala", players=3), random.Random(5))
>>> [h.bit_count() for h in d]
[17, 17, 17]
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import call

from espadas.engine.rules import Rules

_DECKS: dict[int, list[int]] = {}
_BITS = [1 << c for c in range(52)]
# _STARTS[n][first][seat]: where seat's cards begin in the shuffled deck when the
# first card goes to seat ``first`` (seat gets every n-th card from there).
_STARTS = {n: [[(s - f) % n for s in range(n)] for f in range(n)] for n in range(3, 7)}


def deal_cards(rules: Rules, rng: random.Random, dealer: int = 0) -> tuple[int, ...]:
    """A shuffled deal: one card mask per seat. The seat left of ``dealer`` gets the first card."""
    deck = _DECKS.get(rules.removed)
    if deck is None:
        deck = [c for c in range(52) if not (rules.removed >> c) & 1]
        _DECKS[rules.removed] = deck
    # A uniform shuffle: sort the deck by one random key per card (fewer steps in
    # Python than rng.shuffle; the same for a seeded Random and SystemRandom).
    keys = list(map(call, repeat(rng.random, 52)))  # indexed by card; rng.random() x 52
    bits = list(map(_BITS.__getitem__, sorted(deck, key=keys.__getitem__)))
    n = rules.players
    starts = _STARTS[n][(dealer + 1) % n]
    if n == 4:  # the usual table, without a loop
        a, b, c, d = starts
        return (sum(bits[a::4]), sum(bits[b::4]), sum(bits[c::4]), sum(bits[d::4]))
    # one card at a time clockwise from the dealer's left: every n-th card
    return tuple([sum(bits[s::n]) for s in starts])
