"""Actions: small frozen values that :meth:`Game.apply` takes.

>>> Bid(3), Bid(BLIND_NIL), Play(Card("QH"))
(Bid(value=3), Bid(value='blind_nil'), Play(card=Card('QH')))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from espadas.engine.card import Card

BLIND_NIL: Literal["blind_nil"] = "blind_nil"
BidValue = int | Literal["blind_nil"]
"""A bid: 0 (Nil) up to the hand size, or ``"blind_nil"``."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Starts a hand with these cards, one mask per seat (for games without an rng)."""

    hands: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Look:
    """A seat turns its face-down hand up (only in blind-nil games)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Bid:
    """The seat to act bids ``value``."""

    value: BidValue


@dataclass(frozen=True, slots=True)
class Play:
    """The seat to act plays ``card``."""

    card: Card


@dataclass(frozen=True, slots=True)
class Accuse:
    """Seat ``by`` accuses opponent ``against`` of a renege in this hand."""

    by: int
    against: int


@dataclass(frozen=True, slots=True)
class NextHand:
    """Closes the finished hand (and its accusation window); the next hand follows."""


@dataclass(frozen=True, slots=True)
class ConfirmEnd:
    """Closes the last hand of a decided game (and its accusation window)."""


@dataclass(frozen=True, slots=True)
class Abandon:
    """``seat`` leaves the game; its side loses."""

    seat: int


@dataclass(frozen=True, slots=True)
class Timeout:
    """The seat to act has let the turn limit pass; its side loses."""

    seat: int


Action = Deal | Look | Bid | Play | Accuse | NextHand | ConfirmEnd | Abandon | Timeout
