"""A game across hands: deal, bidding, play, scoring, accusations, end.

>>> import random
>>> from espadas.engine import Game, Rules, Bid
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> game.phase, game.to_act
('bidding', 3)
>>> game.apply(Bid(3))
>>> game.hand.bids[3]
3
>>> game.apply(Bid(99))
Traceback (most recent call last):
...
espadas.engine.errors.IllegalBid: a bid is Nil (0) or 1..13, not 99
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from operator import add

from espadas.engine.actions import (
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
from espadas.engine.cardset import EMPTY, CardSet
from espadas.engine.deal import deal_cards
from espadas.engine.errors import (
    GameOver,
    IllegalAccusation,
    InvalidSeat,
    NotYourTurn,
    RuleError,
    WrongPhase,
)
from espadas.engine.hand import Hand, seat_name
from espadas.engine.result import Result, ScoredHand
from espadas.engine.rules import Rules
from espadas.engine.scoring import score_hand
from espadas.engine.view import PlayerView, PublicView, player_view, public_view

_tuple_new = tuple.__new__  # a NamedTuple built without its Python-level __new__

PHASES = ("dealing", "bidding", "playing", "hand_end", "game_over")
REASONS = ("target", "mercy", "renege", "false_accusation", "abandon", "timeout")


@dataclass(frozen=True)
class Accusation:
    """A renege accusation made in the game: who made it, against whom, after which
    play (its index in the hand), and whether the accused had reneged."""

    by: int
    against: int
    after_play: int
    true: bool


class Game:
    """A game of Spades. Drive it with :meth:`apply` (or :meth:`bid`, :meth:`play`)."""

    def __init__(
        self,
        rules: Rules,
        *,
        first_dealer: int = 0,
        rng: random.Random | None = None,
        hand_limit: int | None = None,
    ) -> None:
        """``hand_limit``: the game ends after that many hands though no target is
        reached (a daily challenge's boards), reason ``"boards"``: the side ahead
        wins, the first side among equals."""
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first_dealer must be a seat 0..{rules.players - 1}")
        self.rules = rules
        self.rng = rng
        self.hand_limit = hand_limit
        self.dealer = first_dealer
        sides = rules.sides
        self.scores = [0] * sides
        self.bags = [0] * sides
        self.hands: list[Hand] = []
        self._hand: Hand  # the current hand, set by deal()
        self.scored: list[ScoredHand] = []
        self.accusations: dict[int, Accusation] = {}
        self.result: Result | None = None
        self.end_outside: tuple[str, int] | None = None
        self.phase = "dealing"
        if rng is not None:
            self.deal(deal_cards(rules, rng, first_dealer))

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        creator: int = 0,
    ) -> Game:
        """A game that deals its own hands with ``rng`` (or ``random.Random(seed)``).
        The first dealer is ``creator`` or drawn with the rng, as the rules say."""
        rules = rules or Rules()
        if rng is None:
            if seed is None:
                raise ValueError("pass a seed or an rng: the engine has no randomness of its own")
            rng = random.Random(seed)
        dealer = creator if rules.first_dealer == "creator" else rng.randrange(rules.players)
        return cls(rules, first_dealer=dealer, rng=rng)

    # state ----------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The current (or last) hand. Raises before the first deal."""
        if not self.hands:
            raise WrongPhase("no_hand", "no hand has been dealt yet")
        return self.hands[-1]

    @property
    def to_act(self) -> int | None:
        """The seat whose bid or play is due, else ``None``."""
        if self.phase in ("bidding", "playing"):
            return self.hands[-1].to_act
        return None

    @property
    def over(self) -> bool:
        """True once the result is known (the last hand's window may still be open)."""
        return self.result is not None

    # actions ----------------------------------------------------------------
    def apply(self, action: Action, by: int | None = None) -> None:
        """Applies one action; ``by`` (optional) is the seat that sends a bid or a play.
        Raises a :class:`RuleError` subclass and changes nothing if refused."""
        if isinstance(action, Play):
            self._check_by(by)
            self.play(action.card)
        elif isinstance(action, Bid):
            self._check_by(by)
            self.bid(action.value)
        elif isinstance(action, Look):
            self.look(action.seat)
        elif isinstance(action, Deal):
            self.deal(action.hands)
        elif isinstance(action, Accuse):
            self.accuse(action.by, action.against)
        elif isinstance(action, NextHand):
            self.next_hand()
        elif isinstance(action, ConfirmEnd):
            self.confirm_end()
        elif isinstance(action, Abandon):
            self.abandon(action.seat)
        elif isinstance(action, Timeout):
            self.timeout(action.seat)
        else:
            raise RuleError("unknown_action", f"{action!r} is not an action")

    def _check_by(self, by: int | None) -> None:
        if by is not None and by != self.to_act:
            if self.to_act is None:
                raise WrongPhase("nobody_to_act", "no bid or play is due now")
            raise NotYourTurn(
                "not_your_turn",
                f"it is {seat_name(self.rules.players, self.to_act)}'s turn",
                seat=self.to_act,
            )

    def _check_running(self) -> None:
        if self.result is not None:
            raise GameOver("game_over", "the game is over")

    def _check_seat(self, seat: int) -> None:
        if (
            isinstance(seat, bool)
            or not isinstance(seat, int)
            or not 0 <= seat < self.rules.players
        ):
            raise InvalidSeat(
                "bad_seat",
                f"{seat!r} is not a seat (0..{self.rules.players - 1})",
                seat=repr(seat),
                max=self.rules.players - 1,
            )

    def deal(self, hands: tuple[int, ...] | list[int]) -> None:
        """Starts the next hand with this deal (one mask per seat)."""
        if self.result is not None:
            raise GameOver("game_over", "the game is over")
        if self.phase != "dealing":
            raise WrongPhase("not_dealing", "a hand is already in progress")
        self._hand = hand = Hand(self.rules, self.dealer, hands)
        self.hands.append(hand)
        self.phase = "bidding"
        # the hand's own bid and legal_bids answer until play starts (see below)
        hand.on_play = self._start_play
        fast = vars(self)
        fast["bid"] = hand.bid
        fast["legal_bids"] = hand.legal_bids

    def look(self, seat: int) -> None:
        """``seat`` looks at its cards (blind-nil games; harmless otherwise)."""
        self._check_running()
        self._check_seat(seat)
        if self.phase not in ("bidding", "playing"):
            raise WrongPhase("no_hand", "there are no cards to look at now")
        self.hands[-1].look(seat)

    # While a hand is bid, ``bid`` and ``legal_bids`` are the hand's own methods, and
    # while it is played ``play`` and ``legal_plays``: put in the instance's dict
    # (which comes before the class's methods) by deal and _start_play, one call per
    # action instead of two, which is most of the engine's speed. Outside those
    # phases the methods below answer: they refuse, or give nothing. No bound method
    # of the game is kept on the game or on its hands once a hand is over, so a game
    # and its hands form no reference cycle and go as soon as they are dropped,
    # without waiting for the garbage collector.
    def bid(self, value: BidValue) -> None:
        """The seat to act bids ``value`` (0 = Nil, or ``"blind_nil"``).
        Raises :class:`IllegalBid`, :class:`WrongPhase` or :class:`GameOver`."""
        self._check_running()
        raise WrongPhase("not_bidding", "no bid is due now", phase=self.phase)

    def play(self, card: int) -> bool:
        """The seat to act plays ``card``; True when that ends the hand.
        Raises :class:`IllegalPlay`, :class:`WrongPhase` or :class:`GameOver`."""
        self._check_running()
        if self.phase == "bidding":
            raise WrongPhase("bids_due", "bids are due before any card is played")
        raise WrongPhase("not_playing", "no card is due now", phase=self.phase)

    def legal_plays(self) -> CardSet:
        """The cards the seat to act may play (empty outside play)."""
        return EMPTY

    def _start_play(self, hand: Hand) -> None:
        self.phase = "playing"
        hand.on_play = None
        hand.on_done = self._score
        fast = vars(self)
        del fast["bid"], fast["legal_bids"]
        fast["play"] = hand.play
        fast["legal_plays"] = hand.legal_plays

    def _release_hand(self) -> None:
        """Takes the hand's own methods (of bidding or of play) out of the instance's
        dict, when the game ends before the hand does."""
        fast = vars(self)
        if "play" in fast:
            del fast["play"], fast["legal_plays"]
            self._hand.on_done = None
        elif "bid" in fast:
            del fast["bid"], fast["legal_bids"]
            self._hand.on_play = None

    def proper_plays(self) -> CardSet:
        """The cards that follow the rules of play (no renege) for the seat to act:
        what a robot, which never reneges, chooses from. Equal to ``legal_plays()``
        when renege is prevented."""
        if self.phase != "playing":
            return EMPTY
        return self._hand.proper_plays()

    def legal_bids(self) -> list[BidValue]:
        """The bids the seat to act may make (empty outside bidding)."""
        return []

    def legal_actions(self) -> list[Action]:
        """The actions due now: bids or plays of the seat to act, or closing the hand.
        Accusations, looking, abandon and timeout claims are always separate choices."""
        if self.phase == "bidding":
            hand = self.hands[-1]
            out: list[Action] = []
            if not hand.looked[hand.to_act]:
                out.append(Look(hand.to_act))
            out.extend(Bid(b) for b in hand.legal_bids())
            return out
        if self.phase == "playing":
            return [Play(c) for c in self._hand.legal_plays()]
        if self.phase == "hand_end":
            return [ConfirmEnd()] if self.result is not None else [NextHand()]
        return []

    def _score(self, hand: Hand) -> None:
        rules = self.rules
        # Every seat has bid once a hand is played out: no None is left in bids.
        score = score_hand(rules, hand.bids, hand.blind, hand.tricks, self.bags)  # type: ignore[arg-type]
        scores = self.scores
        scores[:] = map(add, scores, score.points)
        self.bags = score.bags[:]
        tricks = hand.tricks
        size = rules.hand_size
        if rules.partnerships:
            if tricks[0] + tricks[2] == size:
                boston: int | None = 0
            elif tricks[1] + tricks[3] == size:
                boston = 1
            else:
                boston = None
        else:
            boston = tricks.index(size) if size in tricks else None
        totals = tuple(scores)
        self.scored.append(_tuple_new(ScoredHand, (score, totals, boston)))
        self.phase = "hand_end"
        hand.on_done = None
        fast = vars(self)
        del fast["play"], fast["legal_plays"]
        top = max(totals)
        reached = top >= rules.target
        if reached or (rules.mercy is not None and min(totals) <= rules.mercy):
            leaders = [s for s, v in enumerate(totals) if v == top]
            if len(leaders) == 1:
                self.result = Result(
                    leaders[0], "target" if reached else "mercy", None, self._ranking(None)
                )
        if self.result is None and self.hand_limit and len(self.scored) >= self.hand_limit:
            ranking = self._ranking(None)
            self.result = Result(ranking[0], "boards", None, ranking)

    def _ranking(self, last: int | None) -> tuple[int, ...]:
        sides = [s for s in range(self.rules.sides) if s != last]
        sides.sort(key=lambda s: (-self.scores[s], s))
        return (*sides, last) if last is not None else tuple(sides)

    def next_hand(self) -> None:
        """Closes a finished hand; the dealer passes to the left and the next hand is
        dealt (with the game's rng) or awaited (:meth:`deal`)."""
        if self.result is not None:
            raise GameOver("game_over", "the game is over")
        if self.phase != "hand_end":
            raise WrongPhase("hand_not_over", "the hand is not over yet")
        self.dealer = (self.dealer + 1) % self.rules.players
        self.phase = "dealing"
        if self.rng is not None:
            self.deal(deal_cards(self.rules, self.rng, self.dealer))

    def confirm_end(self) -> None:
        """Closes the last hand of a decided game: no accusation is possible after it."""
        if self.phase == "game_over":
            raise GameOver("game_over", "the game is over")
        if self.phase != "hand_end" or self.result is None:
            raise WrongPhase("not_final", "the game is not decided yet")
        self.phase = "game_over"

    def accuse(self, by: int, against: int) -> Accusation:
        """Seat ``by`` accuses opponent ``against`` of a renege in this hand. The game
        ends at once: the accused's side loses if they reneged, else the accuser's."""
        self._check_seat(by)
        self._check_seat(against)
        if self.rules.renege != "allowed":
            raise IllegalAccusation(
                "renege_prevented", "renege is prevented at this table: there is nothing to accuse"
            )
        if self.phase == "game_over":
            raise GameOver("game_over", "the game is over")
        if not self.hands or self.phase == "dealing":
            raise WrongPhase("no_hand", "no hand is in progress")
        if self.rules.side_of(by) == self.rules.side_of(against):
            raise IllegalAccusation(
                "against_partner", "you may only accuse an opponent", by=by, against=against
            )
        hand = self.hands[-1]
        true = hand.reneged(against)
        acc = Accusation(by, against, len(hand.plays), true)
        loser = self.rules.side_of(against if true else by)
        self.accusations[len(self.hands) - 1] = acc
        self._release_hand()
        self.result = Result(
            1 - loser, "renege" if true else "false_accusation", loser, (1 - loser, loser)
        )
        self.phase = "game_over"
        return acc

    def abandon(self, seat: int) -> None:
        """``seat`` abandons: its side loses."""
        self._check_seat(seat)
        self.end_outside_play("abandon", self.rules.side_of(seat))

    def timeout(self, seat: int) -> None:
        """The turn limit has passed for ``seat``, the seat to act: its side loses."""
        self._check_seat(seat)
        if self.to_act != seat:
            self._check_running()
            raise WrongPhase(
                "not_waiting", f"the game is not waiting for {seat_name(self.rules.players, seat)}"
            )
        self.end_outside_play("timeout", self.rules.side_of(seat))

    def end_outside_play(self, reason: str, loser: int) -> None:
        """Ends the game outside play (``"abandon"`` or ``"timeout"``): side ``loser``
        loses. A record's ``end`` replays through this."""
        self._check_running()
        ranking = self._ranking(loser)
        self.result = Result(ranking[0], reason, loser, ranking)
        self.end_outside = (reason, loser)
        self._release_hand()
        self.phase = "game_over"

    # reading -------------------------------------------------------------------
    def view_for(self, seat: int) -> PlayerView:
        """What ``seat`` may know. See :mod:`espadas.engine.view`."""
        self._check_seat(seat)
        return player_view(self, seat)

    def public_view(self) -> PublicView:
        """What a spectator may know."""
        return public_view(self)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.preset} hand {len(self.hands)} {self.phase}"
            f" scores {self.scores} to_act {self.to_act}>"
        )
