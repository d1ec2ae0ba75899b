"""Errors raised by the engine.

Every refused action raises a subclass of :class:`RuleError`. Each error has a
stable ``code`` and ``params`` so that an interface can say the same thing in
Spanish or English; ``str(error)`` is the English message.

>>> from espadas.engine import IllegalBid
>>> err = IllegalBid("bid_range", "a bid is Nil (0) or 1..13, not 14", value=14, max=13)
>>> err.code, err.params["value"]
('bid_range', 14)
"""

from __future__ import annotations

from typing import Any


class EspadasError(Exception):
    """Root of every error this package raises on purpose."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


class RuleError(EspadasError):
    """An action the rules do not allow. A refused action changes nothing."""


class WrongPhase(RuleError):
    """The action does not belong to the current phase of the game."""


class NotYourTurn(RuleError):
    """Another seat is to act."""


class IllegalBid(RuleError):
    """A bid the rules refuse (range, no hell, suicide, blind nil)."""


class IllegalPlay(RuleError):
    """A card that may not be played now."""


class IllegalAccusation(RuleError):
    """A renege accusation the rules refuse (partner, renege prevented, …)."""


class InvalidSeat(RuleError):
    """A seat number that does not exist at this table."""


class GameOver(RuleError):
    """The game has ended; no further action is possible."""


class InvalidRules(EspadasError, ValueError):
    """An unknown option, a bad value or a combination the rules refuse."""


class ParseError(EspadasError, ValueError):
    """Text that is not a card, a hand or a deal."""


class CodecError(ParseError):
    """A JSON value that is not a bid, a card or a trick (see :mod:`espadas.engine.codec`)."""


class InvalidDeal(EspadasError, ValueError):
    """A deal with the wrong number of hands or cards, a duplicate or a removed card."""


class RecordError(EspadasError, ValueError):
    """A malformed game record (FORMATS.md section 1)."""


class ReplayError(EspadasError):
    """An illegal action in a record: ``hand`` and ``action`` count from 0; the
    action index runs over the hand's bids, then its plays."""

    def __init__(self, hand: int, action: int, message: str, code: str = "illegal") -> None:
        super().__init__(code, message, hand=hand, action=action)
        self.hand = hand
        self.action = action
