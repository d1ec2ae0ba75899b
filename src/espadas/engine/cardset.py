"""Sets of cards as 52-bit masks that behave like immutable sets.

>>> hand = CardSet.parse("AKQ.JT9.8765.432")
>>> len(hand), Card("KS") in hand, str(hand.suit(Suit.HEARTS))
(13, True, '.JT9..')
>>> str(hand - CardSet([Card("AS")]))
'KQ.JT9.8765.432'
>>> CardSet.parse("AK..QJ65432.T98")
CardSet('AK..QJ65432.T98')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from math import floor as _floor

from espadas.engine.card import CARDS, RANK_CHARS, Card, Suit
from espadas.engine.errors import ParseError

FULL = (1 << 52) - 1
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
SPADES = SUIT_MASKS[3]
NON_SPADES = FULL ^ SPADES


def _suit_tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For each 13-bit set of ranks ``q``: its size, and its ranks from the lowest."""
    ranks: list[tuple[int, ...]] = [()] * 8192
    for q in range(1, 8192):
        low = q & -q
        ranks[q] = (low.bit_length() - 1, *ranks[q ^ low])
    return tuple(len(r) for r in ranks), tuple(ranks)


_COUNT, _RANKS = _suit_tables()


class CardSet(int):
    """An immutable set of cards stored as a bitmask (bit ``i`` is card ``i``)."""

    __slots__ = ()

    def __new__(cls, cards: int | Iterable[Card | int | str] = 0) -> CardSet:
        if isinstance(cards, int):
            if cards & ~FULL or cards < 0:
                raise ParseError("cardset_mask", f"{cards} is not a 52-card mask", value=cards)
            return int.__new__(cls, cards)
        mask = 0
        for c in cards:
            mask |= 1 << (Card.parse(c) if isinstance(c, str) else Card(c))
        return int.__new__(cls, mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Reads a PBN hand: spades.hearts.diamonds.clubs, ``-`` or empty for a void."""
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise ParseError(
                "hand_syntax",
                f"{text!r} is not a hand: write four suits separated by dots, "
                "spades first, as in AKQ.JT9.8765.432",
                text=text,
            )
        mask = 0
        for i, part in enumerate(parts):
            suit = 3 - i
            if part == "-":
                continue
            for ch in part.upper().replace("10", "T"):
                rank = RANK_CHARS.find(ch)
                if rank < 0:
                    raise ParseError(
                        "hand_syntax", f"{text!r}: {ch!r} is not a rank", text=text, rank=ch
                    )
                bit = 1 << (suit * 13 + rank)
                if mask & bit:
                    raise ParseError(
                        "hand_duplicate",
                        f"{text!r}: {CARDS[suit * 13 + rank]} appears twice",
                        text=text,
                        card=str(CARDS[suit * 13 + rank]),
                    )
                mask |= bit
        return int.__new__(cls, mask)

    # set behaviour -------------------------------------------------------
    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        """Cards in ascending order (clubs first, spades last)."""
        m = int(self)
        while m:
            low = m & -m
            yield CARDS[low.bit_length() - 1]
            m ^= low

    def __reversed__(self) -> Iterator[Card]:
        m = int(self)
        while m:
            i = m.bit_length() - 1
            yield CARDS[i]
            m ^= 1 << i

    def __len__(self) -> int:
        return int.bit_count(self)

    def __bool__(self) -> bool:
        return int(self) != 0

    def __and__(self, other: int) -> CardSet:
        return int.__new__(CardSet, int(self) & other)

    def __or__(self, other: int) -> CardSet:
        return int.__new__(CardSet, int(self) | other)

    def __xor__(self, other: int) -> CardSet:
        return int.__new__(CardSet, int(self) ^ other)

    def __sub__(self, other: int) -> CardSet:
        return int.__new__(CardSet, int(self) & ~other)

    def __invert__(self) -> CardSet:
        return int.__new__(CardSet, FULL & ~int(self))

    def isdisjoint(self, other: int) -> bool:
        return not int(self) & other

    def issubset(self, other: int) -> bool:
        return not int(self) & ~other

    def suit(self, suit: Suit | int) -> CardSet:
        """The cards of one suit."""
        return int.__new__(CardSet, int(self) & SUIT_MASKS[suit])

    def highest(self) -> Card | None:
        return CARDS[int(self).bit_length() - 1] if self else None

    def lowest(self) -> Card | None:
        return CARDS[(int(self) & -int(self)).bit_length() - 1] if self else None

    def pick(self, rng: random.Random) -> Card:
        """A member chosen uniformly at random with ``rng``; raises on an empty set.

        The ``k``-th lowest card, ``k = int(rng.random() * len(self))``."""
        n = self.bit_count()
        if not n:
            raise IndexError("pick from an empty CardSet")
        k = _floor(rng.random() * n)  # = int(): the float is never negative
        # One 26-bit half, then one 13-bit suit of it, then a table: small ints are
        # much cheaper than 52-bit ones, and a table than a walk over the bits.
        # (% and >> are int's own: CardSet overrides neither, so no copy is needed.)
        low = self % 0x4000000
        count = low.bit_count()
        if k < count:  # clubs or diamonds
            suit = low & 0x1FFF
            count = _COUNT[suit]
            if k < count:
                return CARDS[_RANKS[suit][k]]
            return CARDS[13 + _RANKS[low >> 13][k - count]]
        k -= count
        high = self >> 26
        suit = high & 0x1FFF
        count = _COUNT[suit]
        if k < count:
            return CARDS[26 + _RANKS[suit][k]]
        return CARDS[39 + _RANKS[high >> 13][k - count]]

    def cards(self) -> list[Card]:
        """The cards high to low in the display order: spades, hearts, diamonds, clubs."""
        return list(reversed(self))

    # text -----------------------------------------------------------------
    def __str__(self) -> str:
        m = int(self)
        parts = []
        for suit in (3, 2, 1, 0):
            bits = (m >> (13 * suit)) & 0x1FFF
            parts.append("".join(RANK_CHARS[r] for r in range(12, -1, -1) if bits >> r & 1))
        return ".".join(parts)

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"

    def __hash__(self) -> int:
        return int.__hash__(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int) and int(self) == int(other)


EMPTY = CardSet(0)
DECK = CardSet(FULL)
