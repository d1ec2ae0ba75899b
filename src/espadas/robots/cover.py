"""Covering a partner's Nil, read from a played hand: whether a Nil failed because
of the partner, and at which seats blind nil was offered.

Both are pure functions of a finished (or partly played) engine
:class:`~espadas.engine.Hand`: they replay its bids and cards through a fresh
``Hand`` built from the same rules, dealer and deal, so that each seat's cards and
proper plays at its turn are the engine's own.

- **A cover fault** of the partner ``P`` of a Nil bidder ``N`` is a trick that ``N``
  won with card ``w`` although ``P``, at its turn in that trick, held a proper card
  (one the rules of play allow, without a renege) that beats ``w``, and ``P`` did
  not bid Nil itself (a partner who bid Nil cannot cover without risking its own).
  A card beats ``w`` when it is a higher card of ``w``'s suit, or a spade while
  ``w`` is not. With ``P`` playing after ``N`` this is exact: ``P`` could have taken
  the trick away from ``N``. With ``P`` playing before ``N`` it is the rule of thumb
  "``P`` held a legal card above the card that won": the others might then have
  played differently.
- **A Nil lost by the partner** is a Nil (blind or not) whose *first* trick taken
  was a cover fault: the trick that broke the Nil is one the partner could have
  taken. Tricks the Nil bidder takes after that no longer matter to the Nil.
- **Blind nil offered** to a seat: the rules play blind nil and Nil was a legal
  bid at that seat's turn to bid (suicide and no hell can forbid it), whether or
  not the seat had looked at its cards by then.

>>> from espadas.engine import Bid, Card, Game, Play, Rules
>>> from espadas.engine.cardset import CardSet
>>> deal = [int(CardSet.parse(h)) for h in (
...     "AKQJ.AKQ.AKQ.AKQ", "T987.JT9.JT9.JT9", "65432.876.876.87", ".5432.5432.65432")]
>>> game = Game(Rules.from_preset("pagat"), first_dealer=3)
>>> game.deal(deal)
>>> for bid in (13, 0, 0, 0):
...     game.apply(Bid(bid))
>>> for card in ("AH", "JH", "8H", "5H"):
...     game.apply(Play(Card(card)))
>>> hand = game.hand
>>> cover_faults(hand, 1), lost_by_partner(hand, 1), blind_nil_offers(hand)
((), False, (False, False, False, False))
"""

from __future__ import annotations

from espadas.engine import BLIND_NIL, Hand

__all__ = ["beats_winner", "blind_nil_offers", "cover_faults", "lost_by_partner"]


def beats_winner(card: int, winner: int) -> bool:
    """Whether ``card`` beats ``winner``, the card that won a trick (so of the suit
    led, or a spade): a higher card of its suit, or a spade above a non-spade.

    >>> from espadas.engine import Card
    >>> beats_winner(Card("KH"), Card("QH")), beats_winner(Card("2S"), Card("AH"))
    (True, True)
    >>> beats_winner(Card("AD"), Card("2H")), beats_winner(Card("AH"), Card("2S"))
    (False, False)
    """
    if card // 13 == winner // 13:
        return card > winner
    return card >= 39 and winner < 39


def _fresh(hand: Hand) -> Hand:
    return Hand(hand.rules, hand.dealer, hand.deal)


def blind_nil_offers(hand: Hand) -> tuple[bool, ...]:
    """For each seat: whether blind nil was offered to it (see the module)."""
    offers = [False] * hand.n
    if not hand.rules.blind_nil:
        return tuple(offers)
    replay = _fresh(hand)
    for value in hand.bid_order:
        seat = replay.to_act
        offers[seat] = BLIND_NIL in replay.legal_bids()
        replay.bid(value)
    return tuple(offers)


def cover_faults(hand: Hand, seat: int) -> tuple[int, ...]:
    """The tricks (numbered from 0) that ``seat``, a Nil bidder, won while its
    partner could have beaten its card (see the module); ``()`` when ``seat`` did
    not bid Nil, has no partner, or its partner bid Nil too."""
    partner = hand.rules.partner_of(seat)
    if partner is None or hand.bids[seat] != 0 or hand.bids[partner] in (0, None):
        return ()
    won = {t for t, w in enumerate(hand.winners) if w == seat}
    if not won:
        return ()
    n = hand.n
    replay = _fresh(hand)
    for value in hand.bid_order:
        replay.bid(value)
    faults: list[int] = []
    for i, card in enumerate(hand.plays):
        trick = i // n
        if trick in won and replay.to_act == partner:
            leader = hand.leaders[trick]
            winner = hand.plays[trick * n + (seat - leader) % n]
            if any(beats_winner(c, winner) for c in replay.proper_plays()):
                faults.append(trick)
        replay.play(card)
    return tuple(faults)


def lost_by_partner(hand: Hand, seat: int) -> bool:
    """Whether ``seat``'s Nil failed because of its partner: the first trick it
    took is a cover fault (see the module)."""
    first = next((t for t, w in enumerate(hand.winners) if w == seat), None)
    return first is not None and first in cover_faults(hand, seat)
