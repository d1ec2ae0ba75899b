"""The rules engine: pure Python, standard library only, no I/O, no clock,
no global randomness. See RULES.md for the game it implements.

>>> from espadas.engine import Game, Rules, Bid, Play
>>> game = Game.new(Rules.from_preset("estandar", target=250), seed=7)
>>> while game.phase == "bidding":
...     game.apply(Bid(3))
>>> game.phase
'playing'
"""

from espadas.engine.actions import (
    BLIND_NIL,
    Abandon,
    Accuse,
    Action,
    Bid,
    BidValue,
    ConfirmEnd,
    Deal,
    Look,
    NextHand,
    Play,
    Timeout,
)
from espadas.engine.card import CARDS, Card, Suit
from espadas.engine.cardset import DECK, EMPTY, CardSet
from espadas.engine.deal import deal_cards
from espadas.engine.errors import (
    CodecError,
    EspadasError,
    GameOver,
    IllegalAccusation,
    IllegalBid,
    IllegalPlay,
    InvalidDeal,
    InvalidRules,
    InvalidSeat,
    NotYourTurn,
    ParseError,
    RuleError,
    WrongPhase,
)
from espadas.engine.game import Accusation, Game
from espadas.engine.hand import Hand, seat_name, trick_winner
from espadas.engine.result import Result, ScoredHand
from espadas.engine.rules import OPTIONS, PRESETS, Rules
from espadas.engine.scoring import HandScore, SideParts, deal_scores, explain_hand, score_hand
from espadas.engine.view import FullView, PlayerView, PublicView, Trick, full_view

__all__ = [
    "BLIND_NIL",
    "CARDS",
    "DECK",
    "EMPTY",
    "OPTIONS",
    "PRESETS",
    "Abandon",
    "Accusation",
    "Accuse",
    "Action",
    "Bid",
    "BidValue",
    "Card",
    "CardSet",
    "CodecError",
    "ConfirmEnd",
    "Deal",
    "EspadasError",
    "FullView",
    "Game",
    "GameOver",
    "Hand",
    "HandScore",
    "IllegalAccusation",
    "IllegalBid",
    "IllegalPlay",
    "InvalidDeal",
    "InvalidRules",
    "InvalidSeat",
    "Look",
    "NextHand",
    "NotYourTurn",
    "ParseError",
    "Play",
    "PlayerView",
    "PublicView",
    "Result",
    "RuleError",
    "Rules",
    "ScoredHand",
    "SideParts",
    "Suit",
    "Timeout",
    "Trick",
    "WrongPhase",
    "deal_cards",
    "deal_scores",
    "explain_hand",
    "full_view",
    "score_hand",
    "seat_name",
    "trick_winner",
]
