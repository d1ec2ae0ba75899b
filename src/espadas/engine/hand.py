"""One hand [mano] as a state machine: bidding, then play, trick by trick.

A :class:`Hand` is the fast core the :class:`~espadas.engine.game.Game` drives;
most callers use the game. Seats are ints, cards are ints (or :class:`Card`).

>>> from espadas.engine.rules import Rules
>>> from espadas.engine.deal import deal_cards
>>> import random
>>> r = Rules.from_preset("pagat")
>>> h = Hand(r, dealer=0, deal=deal_cards(r, random.Random(1)))
>>> h.to_act, h.phase
(1, 'bidding')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from espadas.engine.actions import BLIND_NIL, BidValue
from espadas.engine.card import CARDS, Card, Suit
from espadas.engine.cardset import FULL, NON_SPADES, SUIT_MASKS, CardSet
from espadas.engine.errors import IllegalBid, IllegalPlay, InvalidDeal, WrongPhase
from espadas.engine.rules import Rules

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SEAT_NAMES = ("N", "E", "S", "W")
# (bit, suit) of each card, by its index
_INFO = [(1 << card, card // 13) for card in range(52)]
_new = int.__new__  # CardSet(mask) without its checks, for masks built here
# _NEXT[n][i]: the seat after seat i % n (i up to 2n - 1), with n players
_NEXT = {n: tuple((i + 1) % n for i in range(2 * n)) for n in range(3, 7)}
_ALL_BIDS = {size: tuple(range(size + 1)) for size in range(8, 18)}
# _RENEGE[i][seat] == (i, seat): an entry of Hand.reneges, made once (no new tuple for
# the garbage collector to count at every renege)
_RENEGE = tuple(tuple((i, seat) for seat in range(6)) for i in range(52))


def seat_name(players: int, seat: int) -> str:
    """``N``/``E``/``S``/``W`` with 4 players, else ``seat 3``."""
    return SEAT_NAMES[seat] if players == 4 else f"seat {seat}"


def trick_winner(leader: int, cards: Sequence[int], players: int) -> int:
    """The seat that wins a complete trick: the highest spade, else the highest card
    of the suit led.

    >>> from espadas.engine.card import Card
    >>> trick_winner(1, [Card("KD"), Card("2S"), Card("AD"), Card("5D")], 4)
    2
    """
    led = cards[0] // 13
    best = max(c for c in cards if c >= 39 or c // 13 == led)
    return (leader + list(cards).index(best)) % players


def first_lead_card(rules: Rules) -> int:
    """The card that leads the first trick with ``first_lead = two_of_clubs``: the 2♣,
    or the lowest club dealt when the 2♣ is removed.

    >>> from espadas.engine.rules import Rules
    >>> str(CARDS[first_lead_card(Rules.from_preset("sala", players=3))])
    '3C'
    """
    clubs = SUIT_MASKS[0] & ~rules.removed
    return (clubs & -clubs).bit_length() - 1


def check_deal(rules: Rules, deal: Sequence[int]) -> tuple[int, ...]:
    """Returns the deal as a tuple of masks, or raises :class:`InvalidDeal`."""
    n = rules.players
    # The usual case at once: n plain ints of hand_size cards that together are the
    # deck are n disjoint hands without a removed card. Anything else is looked at
    # one check at a time below, for the error it earns.
    if len(deal) == n:
        union = 0
        size = rules.hand_size
        for mask in deal:
            if type(mask) is not int or mask.bit_count() != size:
                break
            union |= mask
        else:
            if union == FULL ^ rules.removed:
                return tuple(deal)
    if len(deal) != n:
        raise InvalidDeal("deal_hands", f"a deal has {n} hands, not {len(deal)}", hands=len(deal))
    seen = 0
    for seat, mask in enumerate(deal):
        if not isinstance(mask, int) or mask < 0 or mask & ~FULL:
            raise InvalidDeal("deal_mask", f"hand {seat} is not a set of cards", seat=seat)
        if mask.bit_count() != rules.hand_size:
            raise InvalidDeal(
                "deal_size",
                f"hand {seat} has {mask.bit_count()} cards; each hand has {rules.hand_size}",
                seat=seat,
            )
        if mask & seen:
            dup = CARDS[(mask & seen & -(mask & seen)).bit_length() - 1]
            raise InvalidDeal("deal_duplicate", f"{dup} is dealt twice", card=str(dup))
        if mask & rules.removed:
            bad = CARDS[(mask & rules.removed & -(mask & rules.removed)).bit_length() - 1]
            raise InvalidDeal(
                "deal_removed",
                f"{bad} is removed from the deck with {n} players",
                card=str(bad),
            )
        seen |= mask
    return tuple(map(int, deal))


def _not_a_card(card: object) -> IllegalPlay:
    return IllegalPlay("card_type", f"{card!r} is not a card", card=repr(card))


def _info_of(card: int) -> tuple[int, int]:
    """The (bit, suit) of a card given as an int; raises IllegalPlay for anything else."""
    try:
        if not 0 <= card < 52 or card is True or card is False:
            raise TypeError
        return _INFO[card]
    except TypeError:
        raise _not_a_card(card) from None


class Hand:
    """Bidding and play of one deal. Refused actions raise and change nothing."""

    __slots__ = (
        "_all_bids",
        "_any_follow",
        "_best",
        "_constrained",
        "_first_forbidden",
        "_first_trick",
        "_forced",
        "_led",
        "_next",
        "_renege_allowed",
        "_winner",
        "bid_order",
        "bids",
        "blind",
        "broken",
        "deal",
        "dealer",
        "held",
        "leader",
        "leaders",
        "looked",
        "memo",
        "n",
        "on_done",
        "on_play",
        "phase",
        "plays",
        "reneges",
        "rules",
        "size",
        "to_act",
        "tricks",
        "winners",
    )

    def __init__(self, rules: Rules, dealer: int, deal: Sequence[int]) -> None:
        self.rules = rules
        self.n = n = rules.players
        self.size = size = rules.hand_size
        self.deal = check_deal(rules, deal)
        self.dealer = dealer
        self.held = list(self.deal)
        self.looked = [not rules.blind_nil] * n
        self.bids: list[int | None] = [None] * n
        self.blind = [False] * n
        self.bid_order: list[BidValue] = []
        self.to_act = (dealer + 1) % n
        self.phase = "bidding"
        self.plays: list[int] = []
        self.leaders: list[int] = []
        self.winners: list[int] = []
        self.memo: tuple[object, ...] = ()
        """The finished tricks as views show them, kept by :mod:`espadas.engine.view`
        (a finished trick never changes)."""
        self.tricks = [0] * n
        self.broken = False
        self.reneges: list[tuple[int, int]] = []
        self.leader = -1
        # _led: the suit led in the trick in progress; -1 while a lead is due, -2
        # outside play (bidding, or the hand is over): one test for the hot path.
        self._led = -2
        self._best = -1  # the best card of the trick in progress, and its seat
        self._winner = -1
        self._forced = -1
        self._renege_allowed = rules.renege == "allowed"
        self._first_forbidden = rules.spades_in_first_trick == "forbidden"
        self._first_trick = self._first_forbidden  # still in the first trick, with it
        # any card may follow: renege allowed, and no first-trick rule (any more)
        self._any_follow = self._renege_allowed and not self._first_trick
        self._constrained = rules.suicide or rules.no_hell
        self._next = _NEXT[n]
        self._all_bids = _ALL_BIDS[size]
        self.on_done: Callable[[Hand], object] | None = None
        self.on_play: Callable[[Hand], object] | None = None  # called when play starts

    # bidding ----------------------------------------------------------------
    def legal_bids(self) -> list[BidValue]:
        """The bids the seat to act may make (``"blind_nil"`` while it has not looked)."""
        if self.phase != "bidding":
            return []
        out: list[BidValue]
        if self._constrained:
            out = [v for v in self._all_bids if self._bid_problem(v) is None]
        else:
            out = list(self._all_bids)
        if not self.looked[self.to_act] and self.rules.blind_nil and 0 in out:
            out.append(BLIND_NIL)
        return out

    def _bid_problem(self, value: int) -> tuple[str, str] | None:
        seat = self.to_act
        if self.rules.suicide:
            partner = self.rules.partner_of(seat)  # suicide is played in partnerships only
            partner_bid = None if partner is None else self.bids[partner]
            if partner_bid is not None and partner_bid > 0 and value != 0:
                return (
                    "suicide_nil",
                    "suicide: your partner bid a number, so you must bid Nil",
                )
            if 0 < value < 4:
                return ("suicide_min", "suicide: bid Nil or 4 or more")
        if self.rules.no_hell and len(self.bid_order) == self.n - 1:
            total = sum(b for b in self.bids if b is not None)
            if total + value == self.size:
                return (
                    "no_hell",
                    f"no hell: the bids may not add up to {self.size}; "
                    f"you may not bid {value if value else 'Nil'}",
                )
        return None

    def bid(self, value: BidValue) -> None:
        """The seat to act bids. Raises :class:`IllegalBid` or :class:`WrongPhase`."""
        if self.phase != "bidding":
            raise WrongPhase("not_bidding", "bidding is over: play a card", phase=self.phase)
        seat = self.to_act
        blind = False
        if type(value) is int:  # the usual case, which the tests below let through
            number = value
        elif value == BLIND_NIL:
            if not self.rules.blind_nil:
                raise IllegalBid("blind_nil_off", "blind nil is not played at this table")
            if self.looked[seat]:
                raise IllegalBid(
                    "blind_nil_looked", "blind nil is only for a player who has not looked"
                )
            blind = True
            number = 0
        elif isinstance(value, bool) or not isinstance(value, int):
            raise IllegalBid(
                "bid_type",
                f"{value!r} is not a bid: bid a number 0 (Nil) to {self.size}",
                value=repr(value),
                max=self.size,
            )
        else:
            number = value
        if not 0 <= number <= self.size:
            raise IllegalBid(
                "bid_range",
                f"a bid is Nil (0) or 1..{self.size}, not {number}",
                value=number,
                max=self.size,
            )
        if self._constrained:
            problem = self._bid_problem(number)
            if problem is not None:
                raise IllegalBid(problem[0], problem[1], value=number, size=self.size)
        self.bids[seat] = number
        self.blind[seat] = blind
        self.looked[seat] = True
        bid_order = self.bid_order
        bid_order.append(BLIND_NIL if blind else number)
        if len(bid_order) == self.n:
            self._start_play()
        else:
            self.to_act = self._next[seat]

    def look(self, seat: int) -> None:
        """``seat`` turns its cards face up (blind-nil games)."""
        self.looked[seat] = True

    def _start_play(self) -> None:
        self.phase = "playing"
        leader = (self.dealer + 1) % self.n
        if self.rules.first_lead == "two_of_clubs":
            self._forced = first_lead_card(self.rules)
            leader = next(s for s in range(self.n) if self.deal[s] >> self._forced & 1)
        self.leader = leader
        self.to_act = leader
        self.leaders.append(leader)
        self._led = -1
        if self.on_play is not None:
            self.on_play(self)

    # play ---------------------------------------------------------------------
    def _proper(self, held: int) -> int:
        if self._led < 0:
            if self._forced >= 0:
                return 1 << self._forced
            if not self.broken and held & NON_SPADES:
                return held & NON_SPADES
            return held
        follow = held & SUIT_MASKS[self._led]
        if follow:
            return follow
        if self._first_trick and held & NON_SPADES:
            return held & NON_SPADES
        return held

    def _accepted(self, held: int) -> int:
        if self._led < 0 or not self._renege_allowed:
            return self._proper(held)
        if self._first_trick and self._led != 3 and held & NON_SPADES:
            return held & NON_SPADES
        return held

    def legal_plays(self) -> CardSet:
        """The cards the table accepts from the seat to act (reneges included when
        renege is allowed)."""
        led = self._led
        if led >= 0:
            if self._any_follow:
                return _new(CardSet, self.held[self.to_act])
            held = self.held[self.to_act]
            if self._first_trick:
                return _new(CardSet, self._accepted(held))
            return _new(CardSet, held & SUIT_MASKS[led] or held)
        if led == -1:
            held = self.held[self.to_act]
            if self._forced >= 0:
                return _new(CardSet, 1 << self._forced)
            if not self.broken and held & NON_SPADES:
                return _new(CardSet, held & NON_SPADES)
            return _new(CardSet, held)
        return _new(CardSet, 0)

    def proper_plays(self) -> CardSet:
        """The cards that follow the rules of play (no renege)."""
        if self._led < -1:
            return _new(CardSet, 0)
        return _new(CardSet, self._proper(self.held[self.to_act]))

    def play(self, card: int) -> bool:
        """The seat to act plays ``card``; returns True when that ends the hand.
        Raises :class:`IllegalPlay` or :class:`WrongPhase` and changes nothing."""
        led = self._led
        if led < -1:
            if self.phase == "bidding":
                raise WrongPhase("bids_due", "bids are due before any card is played")
            raise WrongPhase("hand_over", "this hand is over")
        if type(card) is Card:  # the usual case: a member of CARDS, always 0..51
            bit, suit = _INFO[card]
        else:
            bit, suit = _info_of(card)
        seat = self.to_act
        held = self.held
        mine = held[seat]
        left = mine ^ bit
        if left > mine:  # the bit was not set
            raise IllegalPlay(
                "not_in_hand", f"{CARDS[card]} is not in your hand", card=str(CARDS[card])
            )
        if led < 0:  # a lead
            if (self._forced >= 0 and card != self._forced) or (
                suit == 3 and not self.broken and mine & NON_SPADES
            ):
                raise self._why_not(mine, card)
            held[seat] = left
            self.plays.append(card)
            self._led = suit
            self._best = card
            self._winner = seat
            if suit == 3:
                self.broken = True
            self.to_act = self._next[seat]
            return False
        plays = self.plays
        # The trick's best card so far wins it: a higher card of the suit led, or a
        # spade above every spade so far (any spade is above every other card).
        if suit == led:
            if card > self._best:
                self._best = card
                self._winner = seat
        else:  # a renege or a void
            if mine & SUIT_MASKS[led]:
                if not self._renege_allowed or (
                    suit == 3 and self._first_trick and mine & NON_SPADES
                ):
                    raise self._why_not(mine, card)
                self.reneges.append(_RENEGE[len(plays)][seat])
            elif suit == 3 and self._first_trick and mine & NON_SPADES:
                raise self._why_not(mine, card)
            if suit == 3:
                self.broken = True
                if card > self._best:
                    self._best = card
                    self._winner = seat
        held[seat] = left
        plays.append(card)
        seat = self._next[seat]
        if seat != self.leader:
            self.to_act = seat
            return False
        winner = self._winner
        self.tricks[winner] += 1
        winners = self.winners
        winners.append(winner)
        self._forced = -1
        self._first_trick = False
        self._any_follow = self._renege_allowed
        if len(winners) == self.size:
            self.phase = "hand_end"
            self._led = -2
            self.to_act = -1
            if self.on_done is not None:
                self.on_done(self)
            return True
        self._led = -1
        self.leader = winner
        self.to_act = winner
        self.leaders.append(winner)
        return False

    def _why_not(self, held: int, card: int) -> IllegalPlay:
        c = CARDS[card]
        if self._led < 0:
            if self._forced >= 0:
                forced = CARDS[self._forced]
                return IllegalPlay(
                    "first_lead", f"the first trick is led with {forced}", card=str(forced)
                )
            return IllegalPlay(
                "spades_not_broken",
                f"spades are not broken: you may not lead {c} while you hold another suit",
                card=str(c),
            )
        if held & SUIT_MASKS[self._led]:
            suit = Suit(self._led)
            return IllegalPlay(
                "must_follow",
                f"you must follow {SUIT_NAMES[suit]}: you may not play {c}",
                card=str(c),
                suit=suit.char,
            )
        return IllegalPlay(
            "first_trick_spade",
            f"no spades in the first trick while you hold another suit: you may not play {c}",
            card=str(c),
        )

    # reading --------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the last trick is taken."""
        return self.phase == "hand_end"

    def completed_tricks(self, start: int = 0) -> list[tuple[int, tuple[int, ...], int]]:
        """(leader, cards, winner) of each finished trick, from trick ``start`` on."""
        n = self.n
        return [
            (self.leaders[i], tuple(self.plays[i * n : (i + 1) * n]), w)
            for i, w in enumerate(self.winners[start:], start=start)
        ]

    def current_trick(self) -> tuple[int, tuple[int, ...]] | None:
        """(leader, cards so far) of the trick in progress, if any card is down or due."""
        if self.phase != "playing":
            return None
        return (self.leader, tuple(self.plays[len(self.winners) * self.n :]))

    def reneged(self, seat: int) -> bool:
        """Whether ``seat`` has reneged in this hand (revealed only by an accusation)."""
        return any(s == seat for _, s in self.reneges)
