"""Dealing: cards one at a time clockwise from the dealer's left, with a given rng.

>>> import random
>>> from espadas.engine.rules import Rules
>>> d = deal_cards(Rules.from_preset("sala", players=3), random.Random(5))
>>> [len(CardSet(h)) for h in d]
[17, 17, 17]
"""

from __future__ import annotations

import random

from espadas.engine.cardset import CardSet
from espadas.engine.rules import Rules

_DECKS: dict[int, list[int]] = {}


def deal_cards(rules: Rules, rng: random.Random, dealer: int = 0) -> tuple[int, ...]:
    """A shuffled deal: one card mask per seat. The seat left of ``dealer`` gets the first card."""
    deck = _DECKS.get(rules.removed)
    if deck is None:
        deck = [c for c in range(52) if not (rules.removed >> c) & 1]
        _DECKS[rules.removed] = deck
    cards = deck[:]
    n = rules.players
    first = (dealer + 1) % n
    seat_of = [(first + i) % n for i in range(len(cards))]
    hands = [0] * n
    # Fisher-Yates driven by one wide random integer (64 bits more than log2(52!)),
    # each card dealt as its position is fixed: cheaper than rng.shuffle, and the
    # same for a seeded Random and for the server's SystemRandom.
    x = rng.getrandbits(290)
    for i in range(len(cards) - 1, 0, -1):
        x, j = divmod(x, i + 1)
        c = cards[j]
        cards[j] = cards[i]
        hands[seat_of[i]] |= 1 << c
    hands[seat_of[0]] |= 1 << cards[0]
    return tuple(hands)


def parse_deal(texts: list[str]) -> tuple[int, ...]:
    """Reads one PBN hand per seat."""
    return tuple(int(CardSet.parse(t)) for t in texts)
