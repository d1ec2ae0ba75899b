"""Nils lost by the partner and blind nil offered (``espadas.robots.cover``): hand-made
hands where the partner could cover and did not, could not, and did; and random
hands against a computation written from RULES.md (``engine_helpers``)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import deal_of, expected_proper, play_cards, rule_sets, start
from espadas.engine import BLIND_NIL, Bid, BidValue, Card, Game, Hand, Rules, deal_cards
from espadas.robots.cover import beats_winner, blind_nil_offers, cover_faults, lost_by_partner

N, E, S, W = range(4)
PAGAT = Rules.from_preset("pagat")
CIEN = Rules.from_preset("cien")

# E (seat 1) bids Nil holding the lone K of hearts; W (seat 3) is its partner.
# Deal A: W holds the A of hearts, and may cover the K.
DEAL_A = deal_of("AKQJT.765.AKQ.32", ".K.JT98765.AKQJT", "98765.T983.43.98", "432.AQJ42.2.7654")
# Deal B: the A of hearts is with S (an opponent): W's hearts are all below the K.
DEAL_B = deal_of("AKQJT.765.AKQ.32", ".K.JT98765.AKQJT", "98765.AT98.43.98", "432.QJ432.2.7654")
# Deal C: W is void in hearts and holds spades, diamonds and clubs.
DEAL_C = deal_of("AKQJT.765.AKQ.32", ".K.JT98765.AKQJT", "98.AQJT98432..54", "765432..432.9876")
NIL_E = {N: 6, E: 0, S: 3, W: 3}


def hand_after(
    rules: Rules, deal: tuple[int, ...], dealer: int, plays: str, bids: Mapping[int, BidValue]
) -> Hand:
    """The hand of a game with ``deal`` after the ``bids`` and the cards ``plays``."""
    game = start(rules, deal, dealer=dealer, bids=bids)
    play_cards(game, plays)
    return game.hand


# the partner plays after the Nil bidder ---------------------------------------------
def test_partner_after_could_cover_and_did_not() -> None:
    hand = hand_after(PAGAT, DEAL_A, 3, "5H KH 3H 2H", NIL_E)  # N leads; W keeps its A
    assert hand.winners == [E]
    assert cover_faults(hand, E) == (0,)
    assert lost_by_partner(hand, E)


def test_partner_after_could_not_cover() -> None:
    hand = hand_after(PAGAT, DEAL_B, 3, "5H KH 8H 2H", NIL_E)
    assert hand.winners == [E]
    assert cover_faults(hand, E) == ()
    assert not lost_by_partner(hand, E)


def test_partner_after_covered() -> None:
    hand = hand_after(PAGAT, DEAL_A, 3, "5H KH 3H AH", NIL_E)
    assert hand.winners == [W]
    assert cover_faults(hand, E) == () and not lost_by_partner(hand, E)


def test_partner_void_could_ruff_and_discarded() -> None:
    hand = hand_after(PAGAT, DEAL_C, 3, "5H KH 2H 9C", NIL_E)
    assert hand.winners == [E]
    assert cover_faults(hand, E) == (0,)


def test_partner_void_may_not_ruff_the_first_trick_in_cien() -> None:
    # cien: no spades in the first trick while W holds another suit, so W cannot cover
    hand = hand_after(CIEN, DEAL_C, 3, "5H KH 2H 9C", NIL_E)
    assert hand.winners == [E]
    assert cover_faults(hand, E) == ()  # in pagat the same trick is a fault (above)


# the partner plays before the Nil bidder --------------------------------------------
def test_partner_before_held_a_higher_card_and_led_low() -> None:
    hand = hand_after(PAGAT, DEAL_A, 2, "2H 5H KH 3H", NIL_E)  # W leads (dealer S)
    assert hand.winners == [E]
    assert cover_faults(hand, E) == (0,)


def test_partner_before_held_nothing_higher() -> None:
    hand = hand_after(PAGAT, DEAL_B, 2, "2H 5H KH 8H", NIL_E)
    assert hand.winners == [E]
    assert cover_faults(hand, E) == ()


# which trick broke the Nil ------------------------------------------------------------
def test_only_the_trick_that_broke_the_nil_counts() -> None:
    # E leads (dealer N): the A of clubs (W cannot beat it), then the K of hearts (W could)
    hand = hand_after(PAGAT, DEAL_A, 0, "AC 8C 4C 2C KH 3H 2H 5H", NIL_E)
    assert hand.winners == [E, E]
    assert cover_faults(hand, E) == (1,)
    assert not lost_by_partner(hand, E)  # the Nil was already lost in trick 0
    # the other way round: the K of hearts first, then the A of clubs
    hand = hand_after(PAGAT, DEAL_A, 0, "KH 3H 2H 5H AC 8C 4C 2C", NIL_E)
    assert cover_faults(hand, E) == (0,)
    assert lost_by_partner(hand, E)


def test_no_fault_without_a_nil_or_with_a_partner_nil() -> None:
    both = {N: 6, E: 0, S: 3, W: 0}
    hand = hand_after(PAGAT, DEAL_A, 3, "5H KH 3H 2H", both)
    assert cover_faults(hand, E) == ()  # W bid Nil too: covering would break its own
    hand = hand_after(PAGAT, DEAL_A, 3, "5H KH 3H 2H", {N: 6, E: 1, S: 3, W: 3})
    assert cover_faults(hand, E) == () and not lost_by_partner(hand, E)
    individual = Rules.from_preset("sala", players=4, partnerships=False)
    hand = hand_after(individual, DEAL_A, 3, "5H KH 3H 2H", NIL_E)
    assert cover_faults(hand, E) == ()  # no partner


def test_beats_winner() -> None:
    assert beats_winner(Card("AS"), Card("KS")) and not beats_winner(Card("QS"), Card("KS"))
    assert beats_winner(Card("2S"), Card("AD")) and not beats_winner(Card("AC"), Card("2D"))


# blind nil offered --------------------------------------------------------------------
def test_blind_nil_is_offered_where_nil_is_legal() -> None:
    game = start(CIEN, DEAL_A, dealer=3, bids={N: 4, E: BLIND_NIL, S: 3, W: 3})
    assert blind_nil_offers(game.hand) == (True, True, True, True)
    assert game.hand.blind == [False, True, False, False]
    assert blind_nil_offers(start(PAGAT, DEAL_A, dealer=3, bids=NIL_E).hand) == (False,) * 4
    # suicide: once the partner bid a number, Nil is the only bid left, blind nil too;
    # no hell: the last bid may not make the total 13, and Nil is then refused
    suicide = Rules.from_preset("cien", suicide=True)
    game = start(suicide, DEAL_A, dealer=3, bids={N: 4, E: 4, S: 0, W: 0})
    assert blind_nil_offers(game.hand) == (True, True, True, True)
    no_hell = Rules.from_preset("cien", no_hell=True)
    game = start(no_hell, DEAL_A, dealer=3, bids={N: 6, E: 4, S: 3, W: 1})
    assert blind_nil_offers(game.hand) == (True, True, True, False)


# random hands against RULES.md --------------------------------------------------------
def expected_faults(hand_rules: Rules, game: Game, seat: int) -> tuple[int, ...]:
    """The cover faults of ``seat`` computed from the deal and the cards played, with
    the legality of ``engine_helpers`` (written from RULES.md)."""
    hand = game.hand
    partner = (seat + 2) % 4
    if hand.bids[seat] != 0 or hand.bids[partner] == 0:
        return ()
    held = {s: {Card(c) for c in range(52) if hand.deal[s] >> c & 1} for s in range(4)}
    out: list[int] = []
    for t, winner in enumerate(hand.winners):
        leader = hand.leaders[t]
        trick = hand.plays[4 * t : 4 * t + 4]
        before = hand.plays[: 4 * t]
        order = [(leader + k) % 4 for k in range(4)]
        if winner == seat:
            k = order.index(partner)
            proper = expected_proper(hand_rules, held[partner], before + trick[:k], trick[:k])
            w = trick[order.index(seat)]
            if any((c // 13 == w // 13 and c > w) or (c >= 39 and w < 39) for c in proper):
                out.append(t)
        for k, s in enumerate(order):
            held[s].discard(Card(trick[k]))
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(
    rules=rule_sets(force={"players": 4, "partnerships": True}, repair=True),
    seed=st.integers(0, 2**32),
)
def test_random_hands_agree_with_rules_md(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, first_dealer=seed % 4)
    game.deal(deal_cards(rules, rng, seed % 4))
    while game.phase == "bidding":
        legal = game.legal_bids()
        numbers = [b for b in legal if b != BLIND_NIL]
        wanted = 0 if 0 in numbers and rng.random() < 0.5 else rng.choice(numbers)
        game.apply(Bid(wanted))
    while game.phase == "playing":
        game.play(rng.choice(sorted(game.hand.proper_plays())))
    hand = game.hand
    for seat in range(4):
        faults = cover_faults(hand, seat)
        assert faults == expected_faults(rules, game, seat)
        assert all(hand.winners[t] == seat for t in faults)
        first = next((t for t, w in enumerate(hand.winners) if w == seat), None)
        assert lost_by_partner(hand, seat) == (first is not None and first in faults)
