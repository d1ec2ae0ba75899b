"""The rules of play, bidding, renege, options and game ends (RULES.md §1-§8),
each on an explicit deal."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import pytest

from engine_helpers import (
    bid_all,
    boston_deal,
    deal_of,
    deck_for,
    full_deck_mask,
    play_cards,
    play_lowest,
    removed_cards,
    snapshot,
    start,
    views,
)
from espadas.engine import (
    BLIND_NIL,
    Abandon,
    Accuse,
    Action,
    Bid,
    Card,
    CardSet,
    ConfirmEnd,
    Deal,
    Game,
    GameOver,
    IllegalAccusation,
    IllegalBid,
    IllegalPlay,
    InvalidDeal,
    InvalidRules,
    Look,
    NextHand,
    NotYourTurn,
    Play,
    RuleError,
    Rules,
    Timeout,
    WrongPhase,
    deal_cards,
)
from espadas.engine.record import game_record, rebuild, replay_summary

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1

# Everyone holds every suit; N holds the top three or four of each.
EVEN = deal_of("AKQ.AKQJ.AKQ.AKQ", "JT9.T987.JT9.JT9", "876.6543.876.876", "5432.2.5432.5432")
# The same, but W is void in hearts and S holds five.
W_VOID_H = deal_of("AKQ.AKQJ.AKQ.AKQ", "JT9.T987.JT9.JT9", "87.65432.876.876", "65432..5432.5432")

BIDS = {N: 5, E: 2, S: 2, W: 2}


def c(text: str) -> Card:
    return Card.parse(text)


def hand_of(game: Game, seat: int) -> CardSet:
    return CardSet(game.hand.held[seat])


def expect_refused(
    game: Game, action: Action, error: type[RuleError], code: str | None = None
) -> RuleError:
    """Applies a refused action: the specific error, and nothing changes."""
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.apply(action)
    assert type(info.value) is error
    if code is not None:
        assert info.value.code == code
    assert snapshot(game) == before
    return info.value


# --------------------------------------------------------------------------
# Lead rule, following suit


@pytest.mark.parametrize("preset", ["estandar", "pagat"])
def test_spades_may_not_be_led_before_they_are_broken(preset: str) -> None:
    game = start(Rules.from_preset(preset), EVEN, dealer=W, bids=BIDS)
    assert game.to_act == N
    non_spades = CardSet.parse("-.AKQJ.AKQ.AKQ")
    assert game.legal_plays() == non_spades
    assert game.hand.proper_plays() == non_spades
    expect_refused(game, Play(c("AS")), IllegalPlay, "spades_not_broken")
    play_cards(game, "AH TH 6H 2H")  # N wins
    assert game.to_act == N
    play_cards(game, "KH 9H 5H")
    # W has no heart left: it may trump
    assert c("2S") in game.legal_plays()
    game.play(c("2S"))
    assert game.hand.winners == [N, W]
    assert game.public_view().spades_broken
    # now W may lead a spade
    assert c("5S") in game.legal_plays()
    game.play(c("5S"))


def test_a_player_holding_only_spades_may_lead_one() -> None:
    game = start(Rules.from_preset("pagat"), boston_deal(N), dealer=W, bids=BIDS)
    assert game.to_act == N
    assert game.legal_plays() == CardSet(cards=[Card(i) for i in range(39, 52)])
    game.play(c("2S"))


def test_a_spade_discard_breaks_spades() -> None:
    game = start(Rules.from_preset("pagat"), W_VOID_H, dealer=W, bids=BIDS)
    play_cards(game, "AH TH 6H")
    game.play(c("6S"))  # W is void in hearts and trumps
    assert game.hand.winners == [W]
    assert game.public_view().spades_broken
    assert c("5S") in game.legal_plays()


def test_must_follow_suit_when_renege_is_prevented() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    game.play(c("AH"))
    assert game.legal_plays() == CardSet.parse("-.T987.-.-")
    assert game.hand.proper_plays() == game.legal_plays()
    err = expect_refused(game, Play(c("JD")), IllegalPlay, "must_follow")
    assert err.params["suit"] == "H"
    expect_refused(game, Play(c("AS")), IllegalPlay, "not_in_hand")
    game.play(c("7H"))


def test_the_highest_spade_or_else_the_highest_of_the_suit_led_wins() -> None:
    game = start(Rules.from_preset("pagat"), W_VOID_H, dealer=W, bids=BIDS)
    play_cards(game, "QH TH 2H 3D")  # W discards: Q of hearts wins
    assert game.hand.winners == [N]
    play_cards(game, "JH 9H 3H 2S")  # W trumps with the lowest spade
    assert game.hand.winners == [N, W]
    assert game.hand.tricks == [1, 0, 0, 1]


# --------------------------------------------------------------------------
# Renege allowed and accusations


def renege_game() -> Game:
    """estandar (renege allowed): N leads AH and E, holding hearts, plays JD."""
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    game.play(c("AH"))
    assert game.legal_plays() == hand_of(game, E)  # any card is accepted
    assert game.hand.proper_plays() == CardSet.parse("-.T987.-.-")
    game.play(c("JD"))
    return game


def test_renege_allowed_accepts_a_renege_and_records_it() -> None:
    game = renege_game()
    assert game.hand.reneges == [(1, E)]
    assert game.hand.reneged(E)
    assert not game.hand.reneged(S)
    assert game.to_act == S


def test_the_lead_rule_holds_when_renege_is_allowed() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    assert game.legal_plays() == CardSet.parse("-.AKQJ.AKQ.AKQ")
    expect_refused(game, Play(c("AS")), IllegalPlay, "spades_not_broken")


def test_a_renege_does_not_show_in_any_view() -> None:
    """Twin deal: E holds no heart (so JD is no renege); S's and N's views and the
    public view are the same in both games."""
    twin = deal_of("AKQ.AKQJ.AKQ.AKQ", "JT9..JT9.JT95432", "876.6543.876.876", "5432.T9872.5432.")
    game = renege_game()
    other = start(Rules.from_preset("estandar"), twin, dealer=W, bids=BIDS)
    play_cards(other, "AH JD")
    assert not other.hand.reneges
    for seat in (N, S):
        assert game.view_for(seat) == other.view_for(seat)
    assert game.public_view() == other.public_view()


def test_true_accusation_loses_the_game_for_the_accused_side() -> None:
    game = renege_game()
    acc = game.accuse(N, E)
    assert acc.true and acc.after_play == 2
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (NS, "renege", EW)
    assert game.phase == "game_over"
    assert game.legal_actions() == []


def test_false_accusation_loses_the_game_for_the_accuser_side() -> None:
    game = renege_game()
    acc = game.accuse(N, W)
    assert not acc.true
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (
        EW,
        "false_accusation",
        NS,
    )


def test_only_plays_before_the_accusation_count() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    game.play(c("AH"))
    game.accuse(W, N)  # N led: no renege
    assert game.result is not None and game.result.reason == "false_accusation"


@pytest.mark.parametrize("when", ["bidding", "before_first_card"])
def test_an_accusation_before_any_card_is_false(when: str) -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W)
    if when == "before_first_card":
        bid_all(game, BIDS)
        assert game.phase == "playing"
    else:
        game.bid(3)
    acc = game.accuse(E, S)
    assert not acc.true and acc.after_play == 0
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (NS, "false_accusation")


def test_accusation_against_a_partner_is_refused() -> None:
    game = renege_game()
    expect_refused(game, Accuse(W, E), IllegalAccusation, "against_partner")
    expect_refused(game, Accuse(E, E), IllegalAccusation, "against_partner")


def test_accusation_is_refused_when_renege_is_prevented() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    game.play(c("AH"))
    expect_refused(game, Accuse(N, E), IllegalAccusation, "renege_prevented")


def test_accusation_after_the_hand_until_next_hand() -> None:
    game = renege_game()
    play_lowest(game)
    assert game.phase == "hand_end" and game.result is None
    acc = game.accuse(S, E)
    assert acc.true and acc.after_play == 52
    assert game.result is not None and game.result.winner == NS


def test_reneges_of_an_earlier_hand_do_not_count() -> None:
    game = renege_game()
    play_lowest(game)
    game.apply(NextHand())
    assert game.phase == "dealing"
    expect_refused(game, Accuse(N, E), WrongPhase, "no_hand")
    game.deal(EVEN)
    acc = game.accuse(N, E)
    assert not acc.true
    assert game.result is not None and game.result.reason == "false_accusation"


def final_hand_with_renege() -> Game:
    """Target 20: S reneges in the hand in which N-S reach the target."""
    game = start(Rules.from_preset("estandar", target=20), EVEN, dealer=W, bids=BIDS)
    play_cards(game, "AH TH")
    assert game.to_act == S
    game.play(c("8D"))  # S holds hearts: a renege
    play_lowest(game)
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (NS, "target")
    assert game.phase == "hand_end"
    assert game.legal_actions() == [ConfirmEnd()]
    return game


def test_accusation_in_the_last_window_decides_the_game() -> None:
    game = final_hand_with_renege()
    acc = game.accuse(E, S)
    assert acc.true
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (EW, "renege", NS)


def test_false_accusation_in_the_last_window_decides_the_game() -> None:
    game = final_hand_with_renege()
    game.accuse(N, W)  # W never reneged
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (EW, "false_accusation")


def test_no_accusation_after_the_end_is_confirmed() -> None:
    game = final_hand_with_renege()
    game.apply(ConfirmEnd())
    assert game.phase == "game_over"
    expect_refused(game, Accuse(E, S), GameOver)


def test_accusation_is_recorded_and_replays() -> None:
    game = final_hand_with_renege()
    game.accuse(E, S)
    record = game_record(game)
    hands = cast(list[dict[str, Any]], record["hands"])
    assert hands[-1]["accusation"] == {"by": E, "against": S, "after_play": 52}
    again = rebuild(record)
    assert again.result == game.result
    assert game_record(again) == record
    assert replay_summary(again)["reason"] == "renege"


# --------------------------------------------------------------------------
# First trick options


@pytest.mark.parametrize("preset", ["pagat", "estandar"])
def test_two_of_clubs_holder_leads_it(preset: str) -> None:
    rules = Rules.from_preset(preset, first_lead="two_of_clubs")
    game = start(rules, EVEN, dealer=W, bids=BIDS)
    assert game.to_act == W  # W holds 2C, not N (left of the dealer)
    assert game.legal_plays() == CardSet([c("2C")])
    assert game.hand.proper_plays() == CardSet([c("2C")])
    expect_refused(game, Play(c("5C")), IllegalPlay, "first_lead")
    expect_refused(game, Play(c("2H")), IllegalPlay, "first_lead")
    game.play(c("2C"))
    assert game.to_act == N
    play_cards(game, "AC JC 8C")
    # after the first trick the winner leads as usual
    assert game.to_act == N
    assert game.legal_plays() == CardSet.parse("-.AKQJ.AKQ.KQ")


@pytest.mark.parametrize(("players", "lowest"), [(3, "3C"), (4, "2C"), (5, "3C"), (6, "3C")])
def test_two_of_clubs_with_removed_cards_is_the_lowest_club(players: int, lowest: str) -> None:
    options: dict[str, Any] = {"players": players, "first_lead": "two_of_clubs"}
    if players == 4:
        options["partnerships"] = False
    rules = Rules.from_preset("sala", **options)
    for seed in range(8):
        deal = deal_cards(rules, random.Random(seed), 0)
        holder = next(s for s in range(players) if c(lowest).bit & deal[s])
        game = start(rules, deal, dealer=0, bids=dict.fromkeys(range(players), 1))
        assert game.to_act == holder
        assert game.legal_plays() == CardSet([c(lowest)])
        game.play(c(lowest))


def test_no_spades_in_the_first_trick() -> None:
    rules = Rules.from_preset("pagat", spades_in_first_trick="forbidden")
    game = start(rules, W_VOID_H, dealer=W, bids=BIDS)
    play_cards(game, "AH TH 2H")
    assert game.legal_plays() == CardSet.parse("-.-.5432.5432")
    expect_refused(game, Play(c("6S")), IllegalPlay, "first_trick_spade")
    game.play(c("2D"))
    # from the second trick on, W may trump
    play_cards(game, "KH 9H 3H")
    assert c("6S") in game.legal_plays()


def test_spades_allowed_in_the_first_trick_by_default() -> None:
    game = start(Rules.from_preset("pagat"), W_VOID_H, dealer=W, bids=BIDS)
    play_cards(game, "AH TH 2H")
    assert c("6S") in game.legal_plays()


def test_no_spades_in_the_first_trick_holds_with_renege_allowed() -> None:
    rules = Rules.from_preset("estandar", spades_in_first_trick="forbidden")
    game = start(rules, W_VOID_H, dealer=W, bids=BIDS)
    game.play(c("AH"))
    # E holds hearts: it may renege with a diamond or a club, never with a spade
    assert game.legal_plays() == CardSet.parse("-.T987.JT9.JT9")
    expect_refused(game, Play(c("JS")), IllegalPlay)
    game.play(c("JD"))
    assert game.hand.reneges == [(1, E)]
    game.play(c("2H"))
    assert game.legal_plays() == CardSet.parse("-.-.5432.5432")
    expect_refused(game, Play(c("6S")), IllegalPlay, "first_trick_spade")


def test_first_trick_led_with_a_spade_by_a_player_holding_only_spades() -> None:
    rules = Rules.from_preset("sala", players=6, spades_in_first_trick="forbidden")
    deal = deal_of(
        "AKQJT987...", "6543.AKQJ..", ".T9876543..", "..AKQJT987.", "..6543.AKQJ", "...T9876543"
    )
    game = start(rules, deal, dealer=5, bids=dict.fromkeys(range(6), 1))
    assert game.to_act == 0
    assert game.legal_plays() == CardSet.parse("AKQJT987...")
    game.play(c("AS"))
    # seat 1 holds spades: it must follow with one
    assert game.legal_plays() == CardSet.parse("6543...")
    expect_refused(game, Play(c("AH")), IllegalPlay, "must_follow")
    game.play(c("3S"))
    # seat 2 holds none: any of its (non-spade) cards
    assert game.legal_plays() == CardSet.parse(".T9876543..")


# --------------------------------------------------------------------------
# Bidding options


def test_bids_range_from_nil_to_the_hand_size() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W)
    assert game.legal_bids() == list(range(14))
    expect_refused(game, Bid(14), IllegalBid, "bid_range")
    expect_refused(game, Bid(-1), IllegalBid, "bid_range")
    expect_refused(game, Bid(cast(Any, "3")), IllegalBid, "bid_type")
    expect_refused(game, Bid(cast(Any, True)), IllegalBid, "bid_type")
    expect_refused(game, Bid(BLIND_NIL), IllegalBid, "blind_nil_off")


def test_no_hell_last_bidder_may_not_make_the_sum_the_hand_size() -> None:
    rules = Rules.from_preset("pagat", no_hell=True)
    game = start(rules, EVEN, dealer=W)
    for value in (3, 3, 3):
        assert game.legal_bids() == list(range(14))
        game.bid(value)
    assert game.to_act == W
    assert game.legal_bids() == [v for v in range(14) if v != 4]
    expect_refused(game, Bid(4), IllegalBid, "no_hell")
    game.bid(5)
    assert game.phase == "playing"


def test_no_hell_may_forbid_nil_and_blind_nil() -> None:
    rules = Rules.from_preset("cien", no_hell=True)
    game = start(rules, EVEN, dealer=W)
    for value in (5, 4, 4):
        game.apply(Look(cast(int, game.to_act)))
        game.bid(value)
    assert game.legal_bids() == list(range(1, 14))  # W has not looked
    expect_refused(game, Bid(0), IllegalBid, "no_hell")
    expect_refused(game, Bid(BLIND_NIL), IllegalBid, "no_hell")
    game.bid(1)


def test_no_hell_only_binds_the_last_bidder() -> None:
    game = start(Rules.from_preset("pagat", no_hell=True), EVEN, dealer=W)
    game.bid(13)
    assert game.legal_bids() == list(range(14))


def test_suicide() -> None:
    rules = Rules.from_preset("pagat", suicide=True)
    game = start(rules, EVEN, dealer=W)
    nil_or_4_up = [0, *range(4, 14)]
    assert game.to_act == N
    assert game.legal_bids() == nil_or_4_up
    expect_refused(game, Bid(2), IllegalBid, "suicide_min")
    game.bid(5)  # N
    assert game.legal_bids() == nil_or_4_up  # E
    game.bid(0)
    assert game.legal_bids() == [0]  # S: N bid a number
    expect_refused(game, Bid(4), IllegalBid, "suicide_nil")
    game.bid(0)
    assert game.legal_bids() == nil_or_4_up  # W: E bid Nil
    expect_refused(game, Bid(3), IllegalBid, "suicide_min")
    game.bid(0)  # double nil is allowed
    assert game.phase == "playing"


def test_suicide_blind_nil_counts_as_nil() -> None:
    rules = Rules.from_preset("cien", suicide=True)
    game = start(rules, EVEN, dealer=W)
    game.bid(BLIND_NIL)  # N
    game.bid(4)  # E
    assert game.legal_bids() == [0, *range(4, 14), BLIND_NIL]  # S: N bid (blind) Nil
    game.bid(6)
    assert game.legal_bids() == [0, BLIND_NIL]  # W: E bid a number


# --------------------------------------------------------------------------
# Blind nil


def test_blind_nil_only_before_looking() -> None:
    game = start(Rules.from_preset("cien"), EVEN, dealer=W)
    assert game.to_act == N
    view = game.view_for(N)
    assert view.held is None
    assert view.looked == (False, False, False, False)
    assert view.legal == (Look(N), *(Bid(v) for v in range(14)), Bid(BLIND_NIL))
    assert game.legal_actions() == list(view.legal)
    game.bid(BLIND_NIL)
    view = game.view_for(N)
    assert view.held == CardSet(EVEN[N])  # revealed after the bid
    assert view.bids[N] == BLIND_NIL
    assert game.public_view().bids[N] == BLIND_NIL
    # E looks first: no blind nil any more
    assert game.view_for(E).held is None
    game.apply(Look(E))
    assert game.view_for(E).held == CardSet(EVEN[E])
    assert game.view_for(E).looked == (True, True, False, False)
    assert BLIND_NIL not in game.legal_bids()
    assert Look(E) not in game.legal_actions()
    expect_refused(game, Bid(BLIND_NIL), IllegalBid, "blind_nil_looked")
    game.bid(0)  # a plain Nil is fine
    # S may look out of turn; W has still not looked
    game.apply(Look(W))
    assert game.view_for(S).held is None
    assert game.view_for(W).held == CardSet(EVEN[W])


def test_blind_nil_scores_200() -> None:
    rules = Rules.from_preset("cien", target=1000)
    game = Game(rules, first_dealer=W)
    # N takes every trick. E blind nil (made), W bids 1 (failed); S blind nil (made), N 13.
    game.deal(boston_deal(N))
    bid_all(game, {N: 13, E: BLIND_NIL, S: BLIND_NIL, W: 1})
    play_lowest(game)
    assert game.scored[-1].score.points == [200 + 130, 200 - 10]
    game.next_hand()
    # E takes every trick: E blind nil fails (-200, 13 bags worth 13), W Nil made (+100);
    # 13 bags reach 10 with bags_reset: -100 and bags go to 0.
    game.deal(boston_deal(E))
    bid_all(game, {N: 1, E: BLIND_NIL, S: 1, W: 0})
    play_lowest(game)
    assert game.scored[-1].score.points == [-20, -200 + 13 + 100 - 100]
    assert game.bags == [0, 0]
    assert game.scores == [310, 3]


def test_blind_nil_counts_as_nil_for_the_contract() -> None:
    game = start(Rules.from_preset("cien"), EVEN, dealer=W)
    bid_all(game, {N: BLIND_NIL, E: 3, S: 4, W: 2})
    assert game.public_view().contract(NS) == 4


# --------------------------------------------------------------------------
# Scoring options in real games


def test_bags_accumulate_across_hands() -> None:
    game = Game(Rules.from_preset("pagat"), first_dealer=N)
    for hand in range(3):
        game.deal(boston_deal(N))
        bid_all(game, {N: 9, S: 0, E: 0, W: 0})  # 4 bags a hand for N-S
        play_lowest(game)
        if hand < 2:
            game.next_hand()
    # 4 + 4 = 8 bags, then 12: -100 and 2 carry over
    assert [f.score.bags[NS] for f in game.scored] == [4, 8, 2]
    assert [f.score.points[NS] for f in game.scored] == [194, 194, 94]


def test_bags_reset_in_a_game() -> None:
    game = Game(Rules.from_preset("pagat", bags_reset=True, target=1000), first_dealer=N)
    for hand in range(3):
        game.deal(boston_deal(N))
        bid_all(game, {N: 9, S: 0, E: 0, W: 0})
        play_lowest(game)
        if hand < 2:
            game.next_hand()
    assert [f.score.bags[NS] for f in game.scored] == [4, 8, 0]
    assert [f.score.points[NS] for f in game.scored] == [194, 194, 94]


def test_quicksand_in_a_game() -> None:
    game = Game(Rules.from_preset("estandar", quicksand=True), first_dealer=N)
    game.deal(boston_deal(N))
    bid_all(game, {N: 5, S: 1, E: 1, W: 1})
    play_lowest(game)
    # N-S contract 6, took 13: 60 - 70; E-W contract 2, took 0: -20
    assert game.scored[-1].score.points == [-10, -20]
    assert game.bags == [0, 0]


def test_sala_bonuses_in_a_game() -> None:
    game = Game(Rules.from_preset("sala"), first_dealer=N)
    game.deal(boston_deal(N))
    bid_all(game, {N: 11, S: 2, E: 1, W: 1})
    play_lowest(game)
    # contract 13 made: 130 + 10 * 5 beyond the 8th; E-W 2 failed: -20
    assert game.scored[-1].score.points == [180, -20]


# --------------------------------------------------------------------------
# Individual games


@pytest.mark.parametrize(("players", "size"), [(3, 17), (4, 13), (5, 10), (6, 8)])
def test_individual_deck_and_hand_size(players: int, size: int) -> None:
    rules = Rules.from_preset("sala", players=players, partnerships=False)
    assert rules.hand_size == size
    assert not rules.partnerships
    assert rules.sides == players
    game = Game.new(rules, seed=players)
    dealt = game.hand.deal
    assert [len(CardSet(m)) for m in dealt] == [size] * players
    union = 0
    for m in dealt:
        assert not union & m
        union |= m
    assert union == full_deck_mask(players)
    assert len(deck_for(players)) == 52 - {3: 1, 4: 0, 5: 2, 6: 4}[players]
    assert game.legal_bids() == list(range(size + 1))
    assert len(game.scores) == players
    # a deal with a removed card is refused
    if players != 4:
        gone = min(removed_cards(players))
        bad = list(dealt)
        taken = CardSet(bad[0]).highest()
        assert taken is not None
        bad[0] = bad[0] ^ taken.bit | gone.bit
        fresh = Game(rules)
        with pytest.raises(InvalidDeal):
            fresh.deal(tuple(bad))
        assert fresh.phase == "dealing" and not fresh.hands


def test_individual_players_without_partnerships_flag() -> None:
    for players in (3, 5, 6):
        rules = Rules.from_preset("sala", players=players)
        assert not rules.partnerships


@pytest.mark.parametrize("players", [3, 5, 6])
def test_individual_game_plays_out(players: int) -> None:
    rules = Rules.from_preset("pagat", players=players)
    game = Game.new(rules, seed=11)
    bid_all(game, dict.fromkeys(range(players), 1))
    play_lowest(game)
    hand = game.hand
    assert sum(hand.tricks) == rules.hand_size
    assert len(hand.plays) == players * rules.hand_size
    assert len(game.scored[-1].score.points) == players


THREE = deal_of("AKQJT98765432.AKQJ..", ".T98765432.AKQJT987.", "..65432.AKQJT9876543")


def three_player_game(bids: dict[int, Any]) -> Game:
    """Seat 0 takes all 17 tricks."""
    game = Game(Rules.from_preset("pagat", players=3), first_dealer=2)
    game.deal(THREE)
    bid_all(game, bids)
    play_lowest(game)
    assert game.hand.tricks == [17, 0, 0]
    return game


def test_individual_abandon_winner_is_the_best_other_seat() -> None:
    game = three_player_game({0: 17, 1: 1, 2: 1})
    assert game.scores == [170, -10, -10]
    assert game.scored[-1].boston == 0
    game.abandon(0)
    assert game.result is not None
    # seats 1 and 2 are equal: the lower seat wins
    assert (game.result.winner, game.result.reason, game.result.loser) == (1, "abandon", 0)
    assert game.result.ranking == (1, 2, 0)
    assert game_record(game)["end"] == {"reason": "abandon", "side": "0"}


def test_individual_abandon_by_another_seat() -> None:
    game = three_player_game({0: 17, 1: 0, 2: 1})
    assert game.scores == [170, 100, -10]
    game.abandon(1)
    assert game.result is not None
    assert (game.result.winner, game.result.loser, game.result.ranking) == (0, 1, (0, 2, 1))


def test_individual_abandon_before_any_score() -> None:
    game = Game.new(Rules.from_preset("sala", players=5), seed=1)
    game.abandon(0)
    assert game.result is not None
    assert (game.result.winner, game.result.ranking) == (1, (1, 2, 3, 4, 0))


def test_individual_timeout() -> None:
    game = three_player_game({0: 17, 1: 0, 2: 1})
    game.next_hand()
    game.deal(THREE)
    assert game.to_act == 1  # dealer 0
    expect_refused(game, Timeout(2), WrongPhase, "not_waiting")
    game.apply(Timeout(1))
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (0, "timeout", 1)
    assert game.result.ranking == (0, 2, 1)
    assert game_record(game)["end"] == {"reason": "timeout", "side": "1"}


@pytest.mark.parametrize("seat", [N, E, S, W])
def test_partnership_abandon(seat: int) -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    game.apply(Abandon(seat))
    assert game.result is not None
    loser = seat % 2
    assert (game.result.winner, game.result.reason, game.result.loser) == (
        1 - loser,
        "abandon",
        loser,
    )
    assert game.phase == "game_over"
    assert game.legal_actions() == []


def test_partnership_timeout_only_for_the_seat_to_act() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    assert game.to_act == N
    for seat in (E, S, W):
        expect_refused(game, Timeout(seat), WrongPhase, "not_waiting")
    game.apply(Timeout(N))
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (EW, "timeout", NS)


def test_no_timeout_when_nobody_is_to_act() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    play_lowest(game)
    assert game.phase == "hand_end"
    expect_refused(game, Timeout(N), WrongPhase, "not_waiting")


def test_abandon_and_timeout_replay() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    game.apply(Timeout(N))
    again = rebuild(game_record(game))
    assert again.result == game.result
    assert game_record(again) == game_record(game)


# --------------------------------------------------------------------------
# Boston


@pytest.mark.parametrize("taker", [N, E, S, W])
def test_boston_is_recorded(taker: int) -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    game.deal(boston_deal(taker))
    bid_all(game, {N: 1, E: 1, S: 1, W: 1})
    play_lowest(game)
    fin = game.scored[-1]
    assert fin.boston == taker % 2
    # no extra points: contract 2 made with 11 overtricks, whose 11 bags cost 100
    side = taker % 2
    assert fin.score.points[side] == 20 + 11 - 100
    assert fin.score.points[1 - side] == -20
    summary = replay_summary(rebuild(game_record(game)))
    assert summary["hands"][0]["boston"] == ("ns", "ew")[side]


def test_no_boston_when_tricks_are_shared() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    play_lowest(game)
    assert game.scored[-1].boston is None


# --------------------------------------------------------------------------
# Refused actions: the specific error, and nothing changes


def bidding() -> Game:
    return start(Rules.from_preset("estandar"), EVEN, dealer=W)


def playing() -> Game:
    return start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)


def playing_pagat() -> Game:
    return start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)


def following_pagat() -> Game:
    game = playing_pagat()
    game.play(c("AH"))
    return game


def hand_over() -> Game:
    game = playing()
    play_lowest(game)
    assert game.result is None
    return game


def decided() -> Game:
    game = start(Rules.from_preset("estandar", target=20), EVEN, dealer=W, bids=BIDS)
    play_lowest(game)
    assert game.result is not None and game.phase == "hand_end"
    return game


def abandoned() -> Game:
    game = playing()
    game.abandon(E)
    return game


def confirmed() -> Game:
    game = decided()
    game.confirm_end()
    return game


def cien_looked() -> Game:
    game = start(Rules.from_preset("cien"), EVEN, dealer=W)
    game.look(N)
    return game


def two_of_clubs() -> Game:
    return start(Rules.from_preset("pagat", first_lead="two_of_clubs"), EVEN, dealer=W, bids=BIDS)


def waiting_for_deal() -> Game:
    game = hand_over()
    game.next_hand()
    return game


REFUSALS: list[tuple[str, Callable[[], Game], Action, type[RuleError], str | None, int | None]] = [
    ("bid too high", bidding, Bid(14), IllegalBid, "bid_range", None),
    ("bid below nil", bidding, Bid(-3), IllegalBid, "bid_range", None),
    ("blind nil off", bidding, Bid(BLIND_NIL), IllegalBid, "blind_nil_off", None),
    ("blind nil after look", cien_looked, Bid(BLIND_NIL), IllegalBid, "blind_nil_looked", None),
    ("card while bidding", bidding, Play(Card.parse("AH")), WrongPhase, "bids_due", None),
    ("bid by wrong seat", bidding, Bid(3), NotYourTurn, "not_your_turn", E),
    ("next hand while bidding", bidding, NextHand(), WrongPhase, "hand_not_over", None),
    ("confirm while bidding", bidding, ConfirmEnd(), WrongPhase, "not_final", None),
    ("timeout other seat", bidding, Timeout(S), WrongPhase, "not_waiting", None),
    ("deal while bidding", bidding, Deal(EVEN), WrongPhase, "not_dealing", None),
    ("accuse partner", bidding, Accuse(N, S), IllegalAccusation, "against_partner", None),
    ("spade lead", playing, Play(Card.parse("AS")), IllegalPlay, "spades_not_broken", None),
    ("card not held", playing, Play(Card.parse("2H")), IllegalPlay, "not_in_hand", None),
    ("bid while playing", playing, Bid(3), WrongPhase, "not_bidding", None),
    ("play by wrong seat", playing, Play(Card.parse("AH")), NotYourTurn, "not_your_turn", S),
    ("renege prevented", following_pagat, Play(Card.parse("JD")), IllegalPlay, "must_follow", None),
    ("accuse in pagat", following_pagat, Accuse(N, E), IllegalAccusation, None, None),
    ("first lead", two_of_clubs, Play(Card.parse("3C")), IllegalPlay, "first_lead", None),
    ("card after the hand", hand_over, Play(Card.parse("AH")), WrongPhase, None, None),
    ("bid after the hand", hand_over, Bid(3), WrongPhase, None, None),
    ("look after the hand", hand_over, Look(N), WrongPhase, None, None),
    ("confirm undecided", hand_over, ConfirmEnd(), WrongPhase, "not_final", None),
    ("play by seat at hand end", hand_over, Play(Card.parse("AH")), WrongPhase, None, N),
    ("next hand when decided", decided, NextHand(), GameOver, None, None),
    ("bid when decided", decided, Bid(3), GameOver, None, None),
    ("abandon when decided", decided, Abandon(N), GameOver, None, None),
    ("timeout when decided", decided, Timeout(N), GameOver, None, None),
    ("look when decided", decided, Look(N), GameOver, None, None),
    ("bid after abandon", abandoned, Bid(3), GameOver, None, None),
    ("play after abandon", abandoned, Play(Card.parse("AH")), GameOver, None, None),
    ("accuse after abandon", abandoned, Accuse(N, E), GameOver, None, None),
    ("abandon twice", abandoned, Abandon(N), GameOver, None, None),
    ("timeout after abandon", abandoned, Timeout(N), GameOver, None, None),
    ("next hand after abandon", abandoned, NextHand(), GameOver, None, None),
    ("confirm after abandon", abandoned, ConfirmEnd(), GameOver, None, None),
    ("deal after abandon", abandoned, Deal(EVEN), GameOver, None, None),
    ("look after abandon", abandoned, Look(N), GameOver, None, None),
    ("confirm twice", confirmed, ConfirmEnd(), GameOver, None, None),
    ("accuse after confirm", confirmed, Accuse(E, N), GameOver, None, None),
    ("accuse while dealing", waiting_for_deal, Accuse(N, E), WrongPhase, "no_hand", None),
    ("bid while dealing", waiting_for_deal, Bid(3), WrongPhase, None, None),
    ("look while dealing", waiting_for_deal, Look(N), WrongPhase, None, None),
    ("timeout while dealing", waiting_for_deal, Timeout(N), WrongPhase, None, None),
]


@pytest.mark.parametrize(
    ("setup", "action", "error", "code", "by"),
    [r[1:] for r in REFUSALS],
    ids=[r[0] for r in REFUSALS],
)
def test_refused_action_raises_and_changes_nothing(
    setup: Callable[[], Game],
    action: Action,
    error: type[RuleError],
    code: str | None,
    by: int | None,
) -> None:
    game = setup()
    before = snapshot(game)
    with pytest.raises(RuleError) as info:
        game.apply(action, by=by)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    if code is not None:
        assert info.value.code == code
    assert str(info.value)  # a message a person can act on
    assert snapshot(game) == before


def test_invalid_deal_changes_nothing() -> None:
    game = Game(Rules.from_preset("estandar"))
    twice = list(EVEN)
    twice[1] = twice[0]
    for deal in (EVEN[:3], tuple(twice), (EVEN[0] | 1, *EVEN[1:])):
        with pytest.raises(InvalidDeal):
            game.deal(deal)
        assert game.phase == "dealing" and not game.hands


def test_bad_seats_are_refused() -> None:
    game = playing()
    for action in (Accuse(N, 9), Accuse(-1, E), Abandon(4), Look(7), Timeout(5)):
        before = snapshot(game)
        with pytest.raises(RuleError):
            game.apply(action)
        assert snapshot(game) == before


def test_refused_actions_leave_the_game_playable() -> None:
    """A refused action in the middle of a hand does not disturb the rest of it."""
    game = following_pagat()
    for bad in (Play(c("JD")), Play(c("AH")), Bid(2), NextHand()):
        with pytest.raises(RuleError):
            game.apply(bad)
    play_lowest(game)
    assert sum(game.hand.tricks) == 13
    assert views(game)[0].held == CardSet(0)


# --------------------------------------------------------------------------
# Invalid rules


@pytest.mark.parametrize(
    ("preset", "options", "code"),
    [
        ("estandar", {"players": 7}, "option_value"),
        ("estandar", {"players": 2}, "option_value"),
        ("sala", {"players": 3, "suicide": True}, "suicide"),
        ("sala", {"players": 4, "partnerships": False, "suicide": True}, "suicide"),
        ("pagat", {"suicide": True, "no_hell": True}, "suicide_no_hell"),
        ("estandar", {"players": 3}, "renege_individual"),
        ("estandar", {"partnerships": False}, "renege_individual"),
        ("sala", {"players": 5, "partnerships": True}, "partnerships"),
        ("nope", {}, "unknown_preset"),
        ("estandar", {"colour": "red"}, "unknown_option"),
        ("estandar", {"renege": "sometimes"}, "option_value"),
        ("estandar", {"blind_nil": 1}, "option_value"),
        ("estandar", {"target": "500"}, "option_value"),
        ("estandar", {"target": True}, "option_value"),
        ("estandar", {"players": 4.0}, "option_value"),
        ("estandar", {"mercy": "low"}, "option_value"),
        ("estandar", {"first_lead": "two_of_spades"}, "option_value"),
        ("estandar", {"target": 0}, "target"),
        ("estandar", {"mercy": 100}, "mercy"),
    ],
)
def test_invalid_rules_are_refused(preset: str, options: dict[str, Any], code: str) -> None:
    with pytest.raises(InvalidRules) as info:
        Rules.from_preset(preset, **options)
    assert info.value.code == code
    assert str(info.value)
    with pytest.raises(InvalidRules):
        Rules.from_dict({"preset": preset, **options})


def test_rules_from_dict_needs_an_object() -> None:
    with pytest.raises(InvalidRules):
        Rules.from_dict(cast(Any, ["sala"]))


def test_replace_checks_the_combination() -> None:
    with pytest.raises(InvalidRules):
        Rules.from_preset("estandar").replace(players=3)
    assert Rules.from_preset("estandar").replace(renege="prevented").renege == "prevented"


@pytest.mark.parametrize(
    "options",
    [
        {"players": 3},
        {"players": 5, "bonuses": False},
        {"players": 4, "partnerships": False},
        {"no_hell": True},
        {"suicide": True},
        {"quicksand": True, "bags_reset": True},
    ],
)
def test_valid_combinations_round_trip(options: dict[str, Any]) -> None:
    rules = Rules.from_preset("sala", **options)
    assert Rules.from_dict(rules.to_dict()) == rules


def test_presets_match_the_table() -> None:
    est = Rules.from_preset("estandar")
    assert (est.target, est.mercy, est.first_dealer, est.renege) == (
        500,
        -200,
        "creator",
        "allowed",
    )
    pagat = Rules.from_preset("pagat")
    assert (pagat.target, pagat.mercy, pagat.first_dealer, pagat.renege) == (
        500,
        None,
        "random",
        "prevented",
    )
    cien = Rules.from_preset("cien")
    assert (cien.target, cien.blind_nil, cien.bags_reset, cien.spades_in_first_trick) == (
        100,
        True,
        True,
        "forbidden",
    )
    sala = Rules.from_preset("sala")
    assert (sala.bonuses, sala.renege, sala.mercy) == (True, "prevented", None)
    for rules in (est, pagat, cien, sala):
        assert rules.players == 4 and rules.partnerships
        assert rules.first_lead == "any"


def test_first_dealer_creator_or_random() -> None:
    assert Game.new(Rules.from_preset("estandar"), seed=5, creator=2).hand.dealer == 2
    dealers = {Game.new(Rules.from_preset("pagat"), seed=s).hand.dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_the_deal_passes_to_the_left() -> None:
    game = Game.new(Rules.from_preset("pagat", target=10_000), seed=3)
    first = game.hand.dealer
    for k in range(1, 6):
        bid_all(game, dict.fromkeys(range(4), 3))
        play_lowest(game)
        game.next_hand()
        assert game.hand.dealer == (first + k) % 4
        assert game.to_act == (first + k + 1) % 4
