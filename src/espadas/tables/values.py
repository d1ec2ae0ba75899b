"""The values a person's table command carries (a bid, a card, a seat), read with
the engine's codec (:mod:`espadas.engine.codec`); a value of the wrong kind is
refused with :class:`~espadas.tables.errors.BadCommand`.

>>> bid_value("nil"), bid_value("blind_nil"), card_value("10h"), seat_value(2)
(0, 'blind_nil', Card('TH'), 2)
>>> bid_value("3")
Traceback (most recent call last):
...
espadas.tables.errors.BadCommand: a bid is a number of tricks, 'nil' or 'blind_nil'
>>> card_value(["AS"])
Traceback (most recent call last):
...
espadas.tables.errors.BadCommand: a card is written like AS, 10H or QD
"""

from __future__ import annotations

from espadas.engine import BidValue, Card, CodecError, codec
from espadas.tables.errors import BadCommand


def bid_value(value: object) -> BidValue:
    """A bid: a number of tricks (the engine checks its range), ``"nil"`` or
    ``"blind_nil"``; anything else raises ``bad_bid``."""
    try:
        return codec.bid_from_json(value)
    except CodecError:
        raise BadCommand("bad_bid", "a bid is a number of tricks, 'nil' or 'blind_nil'") from None


def card_value(value: object) -> Card:
    """A card such as ``"QH"``; what is not a short text raises ``bad_card``. A
    short text that is no card keeps the engine's ``card_syntax`` refusal, which
    names the text."""
    try:
        return codec.card_from_json(value)
    except CodecError:
        if isinstance(value, str) and len(value) <= codec.MAX_CARD_TEXT:
            return Card.parse(value)  # raises ParseError("card_syntax", ...)
        raise BadCommand("bad_card", "a card is written like AS, 10H or QD") from None


def seat_value(value: object) -> int:
    """A seat number (the engine checks that it exists); anything else raises
    ``bad_seat``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadCommand("bad_seat", "say which seat you accuse", seat=repr(value))
    return value
