"""Dealing: cards one at a time clockwise from the dealer's left, with a given rng.

>>> import random
>>> from espadas.engine.rules import Rules
>>> d = deal_cards(Rules.from_preset("sala", players=3), random.Random(5))
>>> [h.bit_count() for h in d]
[17, 17, 17]
"""

from __future__ import annotations

import random
from itertools import islice

from espadas.engine.rules import Rules

_DECKS: dict[int, list[int]] = {}
_BITS = [1 << c for c in range(52)]


def deal_cards(rules: Rules, rng: random.Random, dealer: int = 0) -> tuple[int, ...]:
    """A shuffled deal: one card mask per seat. The seat left of ``dealer`` gets the first card."""
    deck = _DECKS.get(rules.removed)
    if deck is None:
        deck = [c for c in range(52) if not (rules.removed >> c) & 1]
        _DECKS[rules.removed] = deck
    # A uniform shuffle: sort the deck by one random key per card (fewer steps in
    # Python than rng.shuffle; the same for a seeded Random and SystemRandom).
    keys = list(islice(iter(rng.random, None), 52))  # indexed by card; rng.random() x 52
    order = sorted(deck, key=keys.__getitem__)
    n = rules.players
    first = (dealer + 1) % n
    hands = [0] * n
    for k in range(n):
        # one card at a time clockwise from the dealer's left: every n-th card
        hands[(first + k) % n] = sum(map(_BITS.__getitem__, order[k::n]))
    return tuple(hands)
