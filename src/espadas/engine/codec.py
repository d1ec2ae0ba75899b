"""The one JSON form of bids, cards and tricks, used by records, tables, views and
the robot protocol (FORMATS.md).

A card is its short text (``"QH"``; ``"10h"``, ``"td"`` and ``"Q♥"`` are read too),
a bid a number of tricks (0 is Nil; ``"nil"`` is read as 0) or ``"blind_nil"``, a
trick ``{"leader": SEAT, "cards": [...]}`` with ``"winner"`` once it is complete.
Reading refuses anything else with a :class:`CodecError` whose ``code`` names what
was wrong (``card_type``, ``bid_type``, ``bid_range``, ``trick_type``).

>>> card_json(Card("QH")), card_from_json("10h")
('QH', Card('TH'))
>>> bid_json(0), bid_from_json("nil"), bid_from_json("blind_nil")
(0, 0, 'blind_nil')
>>> trick_from_json({"leader": 1, "cards": ["AS", "2C"]}, players=4)
(1, (Card('AS'), Card('2C')))
>>> bid_from_json(14, size=13)
Traceback (most recent call last):
...
espadas.engine.errors.CodecError: a bid is 0..13 or "blind_nil", not 14
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from espadas.engine.actions import BLIND_NIL, BidValue
from espadas.engine.card import Card
from espadas.engine.errors import CodecError, ParseError

MAX_CARD_TEXT = 8
"""A card's text is at most this long (``" 10 ♠ "`` and the like); longer is refused
before parsing."""


def show(value: object) -> str:
    """A short JSON rendering of a refused value, for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def card_json(card: int) -> str:
    """``"QH"``: the JSON form of a card."""
    return str(Card(card))


def cards_json(cards: Iterable[int]) -> list[str]:
    """A list of cards in their JSON form, in the given order."""
    return [str(Card(c)) for c in cards]


def card_from_json(raw: object) -> Card:
    """Reads a card such as ``"QH"``; raises :class:`CodecError` (``card_type``)."""
    if isinstance(raw, str) and len(raw) <= MAX_CARD_TEXT:
        try:
            return Card.parse(raw)
        except ParseError:
            pass
    raise CodecError("card_type", f'{show(raw)} is not a card such as "QH"', value=show(raw))


def cards_from_json(raw: object) -> tuple[Card, ...]:
    """Reads a list of cards; raises :class:`CodecError` (``card_type``)."""
    if not isinstance(raw, list):
        raise CodecError("card_type", f"{show(raw)} is not a list of cards", value=show(raw))
    return tuple(card_from_json(c) for c in raw)


def bid_json(value: BidValue) -> int | str:
    """The JSON form of a bid: the number, or ``"blind_nil"``."""
    return value


def bid_from_json(raw: object, *, size: int | None = None, nil_word: bool = True) -> BidValue:
    """Reads a bid: an integer (0 is Nil), ``"nil"`` (unless ``nil_word`` is False) or
    ``"blind_nil"``. With ``size``, a number outside 0..size is refused (``bid_range``);
    anything else that is not a bid raises ``bid_type``."""
    if raw == BLIND_NIL:
        return BLIND_NIL
    if nil_word and raw == "nil":
        return 0
    if isinstance(raw, bool) or not isinstance(raw, int):
        words = '"nil" or "blind_nil"' if nil_word else '"blind_nil"'
        raise CodecError(
            "bid_type", f"{show(raw)} is not a bid: a bid is 0..N, {words}", value=show(raw)
        )
    if size is not None and not 0 <= raw <= size:
        raise CodecError(
            "bid_range", f'a bid is 0..{size} or "blind_nil", not {raw}', value=raw, max=size
        )
    return raw


def trick_json(leader: int, cards: Iterable[int], winner: int | None = None) -> dict[str, Any]:
    """``{"leader": SEAT, "cards": [...]}``, with ``"winner"`` when one is given."""
    out: dict[str, Any] = {"leader": leader, "cards": cards_json(cards)}
    if winner is not None:
        out["winner"] = winner
    return out


def trick_from_json(raw: object, players: int) -> tuple[int, tuple[Card, ...]]:
    """Reads ``{"leader": SEAT, "cards": [...]}`` (a ``"winner"`` key is allowed and
    ignored: the engine decides who wins); raises :class:`CodecError` (``trick_type``,
    ``card_type``)."""
    if not isinstance(raw, dict) or not {"leader", "cards"} <= set(raw) <= {
        "leader",
        "cards",
        "winner",
    }:
        raise CodecError(
            "trick_type",
            f'a trick is {{"leader": SEAT, "cards": [...]}}, not {show(raw)}',
            value=show(raw),
        )
    leader = raw["leader"]
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players:
        raise CodecError(
            "trick_type",
            f"a trick's leader is a seat 0..{players - 1}, not {show(leader)}",
            value=show(leader),
        )
    cards = cards_from_json(raw["cards"])
    if len(cards) > players:
        raise CodecError(
            "trick_type", f"a trick has at most {players} cards, not {len(cards)}", value=len(cards)
        )
    return leader, cards
