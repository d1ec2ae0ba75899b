"""Views: what one seat, or a spectator, may know. Never the state itself.

A :class:`PlayerView` holds the seat's own hand (``None`` while a blind-nil
hand is face down), every bid, the played cards, scores and bags, and the
actions open to that seat. A :class:`PublicView` is the same without any hand.

>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("cien"), seed=3)
>>> view = game.view_for(game.to_act)
>>> view.held is None, view.legal[0]
(True, Look(seat=2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from espadas.engine.actions import BLIND_NIL, Action, Bid, BidValue, Look, Play
from espadas.engine.card import CARDS, Card
from espadas.engine.cardset import CardSet
from espadas.engine.hand import Hand
from espadas.engine.result import Result, ScoredHand
from espadas.engine.rules import Rules


@dataclass(frozen=True)
class Trick:
    """A trick: who led, the cards in playing order, and the winner once complete."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None


@dataclass(frozen=True)
class PublicView:
    """What everyone at the table, spectators included, may know."""

    rules: Rules
    hand_number: int
    dealer: int
    phase: str
    to_act: int | None
    looked: tuple[bool, ...]
    bids: tuple[BidValue | None, ...]
    tricks: tuple[Trick, ...]
    trick: Trick | None
    tricks_taken: tuple[int, ...]
    cards_left: tuple[int, ...]
    spades_broken: bool
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    hand_scores: tuple[int, ...] | None
    result: Result | None

    def contract(self, side: int) -> int:
        """The sum of the side's non-Nil bids so far."""
        return sum(
            b for s in self.rules.seats_of(side) if isinstance(b := self.bids[s], int) and b > 0
        )


@dataclass(frozen=True)
class PlayerView(PublicView):
    """A seat's view: the public view plus its own hand and the actions open to it."""

    seat: int
    held: CardSet | None
    legal: tuple[Action, ...]
    proper_plays: CardSet
    """When this seat is to play: the cards that follow the rules (no renege).
    In renege-allowed games ``legal`` also holds the cards the table accepts."""


@dataclass(frozen=True)
class FullView(PlayerView):
    """A seat's view plus every hand: only for the arena's ``omnisciente`` robot,
    which measures how far the others are from perfect information. Never offered
    at a table."""

    all_held: tuple[CardSet, ...]


class ViewSource(Protocol):
    """What a view is built from: the parts of a game everyone may see, and its hands.
    :class:`~espadas.engine.game.Game` has them; this module never imports it (the
    game imports its views, not the other way round)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def hands(self) -> Sequence[Hand]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def bags(self) -> Sequence[int]: ...
    @property
    def scored(self) -> Sequence[ScoredHand]: ...
    @property
    def result(self) -> Result | None: ...
    def legal_actions(self) -> Sequence[Action]: ...


def finished_tricks(hand: Hand) -> tuple[Trick, ...]:
    """The finished tricks of ``hand``, built once each: every view of the hand,
    for every seat and after every action, shares them (``hand.memo``).

    >>> from espadas.engine import Game, Rules
    >>> game = Game.new(Rules.from_preset("estandar"), seed=1)
    >>> while len(game.hand.winners) < 2:
    ...     game.apply(game.legal_actions()[0], by=game.to_act)
    >>> tricks = finished_tricks(game.hand)
    >>> len(tricks), tricks is finished_tricks(game.hand)
    (2, True)
    """
    memo: tuple[Trick, ...] = hand.memo  # type: ignore[assignment]
    if len(memo) < len(hand.winners):
        memo += tuple(
            Trick(lead, tuple(CARDS[c] for c in cards), w)
            for lead, cards, w in hand.completed_tricks(len(memo))
        )
        hand.memo = memo
    return memo


def _public_fields(game: ViewSource) -> dict[str, object]:
    rules = game.rules
    n = rules.players
    if not game.hands:
        return {
            "rules": rules,
            "hand_number": 0,
            "dealer": game.dealer,
            "phase": game.phase,
            "to_act": None,
            "looked": (False,) * n,
            "bids": (None,) * n,
            "tricks": (),
            "trick": None,
            "tricks_taken": (0,) * n,
            "cards_left": (0,) * n,
            "spades_broken": False,
            "scores": tuple(game.scores),
            "bags": tuple(game.bags),
            "hand_scores": None,
            "result": game.result,
        }
    hand = game.hands[-1]
    bids: list[BidValue | None] = [BLIND_NIL if hand.blind[s] else hand.bids[s] for s in range(n)]
    current = hand.current_trick()
    finished = len(game.scored) == len(game.hands)
    return {
        "rules": rules,
        "hand_number": len(game.hands),
        "dealer": game.dealer,
        "phase": game.phase,
        "to_act": game.to_act,
        "looked": tuple(hand.looked),
        "bids": tuple(bids),
        "tricks": finished_tricks(hand),
        "trick": None
        if current is None
        else Trick(current[0], tuple(CARDS[c] for c in current[1]), None),
        "tricks_taken": tuple(hand.tricks),
        "cards_left": tuple(m.bit_count() for m in hand.held),
        "spades_broken": hand.broken,
        "scores": tuple(game.scores),
        "bags": tuple(game.bags),
        "hand_scores": tuple(game.scored[-1].score.points) if finished else None,
        "result": game.result,
    }


def public_view(game: ViewSource) -> PublicView:
    """The spectators' view of ``game``."""
    return PublicView(**_public_fields(game))  # type: ignore[arg-type]


def player_view(game: ViewSource, seat: int) -> PlayerView:
    """The view of ``seat``: its own hand only, and only once it has looked."""
    fields = _public_fields(game)
    hand_cards: CardSet | None = None
    legal: tuple[Action, ...] = ()
    proper = CardSet(0)
    if game.hands:
        hand = game.hands[-1]
        if hand.looked[seat]:
            hand_cards = CardSet(hand.held[seat])
        if game.to_act == seat:
            if game.phase == "bidding":
                bids = tuple(Bid(b) for b in hand.legal_bids())
                legal = ((Look(seat), *bids)) if not hand.looked[seat] else bids
            elif game.phase == "playing":
                legal = tuple(Play(c) for c in hand.legal_plays())
                proper = hand.proper_plays()
        elif game.phase == "hand_end":
            legal = tuple(game.legal_actions())
    return PlayerView(
        **fields,  # type: ignore[arg-type]
        seat=seat,
        held=hand_cards,
        legal=legal,
        proper_plays=proper,
    )


def full_view(game: ViewSource, seat: int) -> FullView:
    """Everything: the seat's view and the cards every seat holds now."""
    view = player_view(game, seat)
    held = game.hands[-1].held if game.hands else [0] * game.rules.players
    fields = {f: getattr(view, f) for f in view.__dataclass_fields__}
    return FullView(**fields, all_held=tuple(CardSet(m) for m in held))
