"""Cards as small ints.

A card is ``suit * 13 + rank`` with suits clubs, diamonds, hearts, spades
(0..3) and ranks two..ace (0..12), so any spade is greater than any other
card and, within a suit, a higher card is a greater int.

>>> Card.parse("10h"), str(Card.parse("A♠"))
(Card('TH'), 'AS')
>>> Card("QD").suit == Suit.DIAMONDS, Card("QD").rank_char
(True, 'Q')
"""

from __future__ import annotations

from enum import IntEnum

from espadas.engine.errors import ParseError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"

_SUIT_INPUT = {
    "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}  # fmt: skip


class Suit(IntEnum):
    """The four suits; spades are always trump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


class Card(int):
    """One card, an int in 0..51 that prints as ``AS``, ``TH``, ``2C``.

    ``Card("TH")`` parses text; ``Card(34)`` wraps an index.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return cls.parse(value)
        if not 0 <= value < 52:
            raise ParseError("card_index", f"a card index is 0..51, not {value}", value=value)
        return CARDS[value]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Reads ``AS``, ``10h``, ``td``, ``A♠``; raises :class:`ParseError`."""
        t = text.strip().upper()
        if len(t) < 2:
            raise ParseError(
                "card_syntax",
                f"{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
                "and a suit (S, H, D, C or ♠ ♥ ♦ ♣), as in AS or 10H",
                text=text,
            )
        rank_text, suit_text = t[:-1], t[-1]
        suit = _SUIT_INPUT.get(suit_text)
        rank = 8 if rank_text == "10" else RANK_CHARS.find(rank_text) if len(rank_text) == 1 else -1
        if suit is None or rank < 0:
            raise ParseError(
                "card_syntax",
                f"{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) "
                "and a suit (S, H, D, C or ♠ ♥ ♦ ♣), as in AS or 10H",
                text=text,
            )
        return CARDS[suit * 13 + rank]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self % 13

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self % 13]

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def symbol(self) -> str:
        """``A♠``: the form shown to people."""
        return ("10" if self % 13 == 8 else RANK_CHARS[self % 13]) + SUIT_SYMBOLS[self // 13]

    def __str__(self) -> str:
        return RANK_CHARS[self % 13] + SUIT_CHARS[self // 13]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
"""All 52 cards by index."""
