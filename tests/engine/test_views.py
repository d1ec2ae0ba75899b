"""Views: what one seat, or a spectator, may know (and nothing more)."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from engine_helpers import bid_all, boston_deal, deal_of, play_cards, play_lowest, start, views
from espadas.engine import (
    BLIND_NIL,
    Bid,
    Card,
    CardSet,
    Game,
    Look,
    NextHand,
    Play,
    PlayerView,
    PublicView,
    RuleError,
    Rules,
    Trick,
)

N, E, S, W = 0, 1, 2, 3
EVEN = deal_of("AKQ.AKQJ.AKQ.AKQ", "JT9.T987.JT9.JT9", "876.6543.876.876", "5432.2.5432.5432")
BIDS = {N: 5, E: 2, S: 2, W: 2}


def c(text: str) -> Card:
    return Card.parse(text)


def test_a_view_holds_only_the_seats_own_hand() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    for seat in range(4):
        view = game.view_for(seat)
        assert isinstance(view, PlayerView)
        assert view.seat == seat
        assert view.held == CardSet(EVEN[seat])
    public = game.public_view()
    assert not isinstance(public, PlayerView)
    assert not hasattr(public, "held")
    public_fields = {f.name for f in dataclasses.fields(PublicView)}
    player_fields = {f.name for f in dataclasses.fields(PlayerView)}
    # the seat, its cards and its own choices; nothing about another seat
    assert {"seat", "held", "legal"} <= player_fields - public_fields


def test_the_view_of_a_hand_in_play() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    play_cards(game, "AH TH 6H 2H KH 9H")
    view = game.view_for(S)
    assert view.phase == "playing"
    assert view.hand_number == 1
    assert view.dealer == W
    assert view.to_act == S
    assert view.bids == (5, 2, 2, 2)
    assert view.tricks == (Trick(N, (c("AH"), c("TH"), c("6H"), c("2H")), N),)
    assert view.trick == Trick(N, (c("KH"), c("9H")), None)
    assert view.tricks_taken == (1, 0, 0, 0)
    assert view.cards_left == (11, 11, 12, 12)
    assert not view.spades_broken
    assert view.scores == (0, 0)
    assert view.bags == (0, 0)
    assert view.hand_scores is None
    assert view.result is None
    assert view.held == CardSet.parse("876.543.876.876")
    assert view.legal == tuple(Play(x) for x in CardSet.parse("-.543.-.-"))
    assert view.proper_plays == CardSet.parse("-.543.-.-")
    for seat in (N, E, W):
        assert game.view_for(seat).legal == ()


def test_the_view_at_the_end_of_a_hand() -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    play_lowest(game)
    view = game.view_for(E)
    assert view.phase == "hand_end"
    assert view.to_act is None
    assert view.trick is None
    assert len(view.tricks) == 13
    assert sum(view.tricks_taken) == 13
    assert view.cards_left == (0, 0, 0, 0)
    assert view.held == CardSet(0)
    assert view.hand_scores == tuple(game.scored[-1].score.points)
    assert view.scores == tuple(game.scores)
    assert view.legal == (NextHand(),)


def test_the_view_before_the_first_deal() -> None:
    game = Game(Rules.from_preset("pagat"), first_dealer=2)
    view = game.view_for(N)
    assert view.phase == "dealing"
    assert view.hand_number == 0
    assert view.dealer == 2
    assert view.held is None
    assert view.legal == ()
    assert view.bids == (None,) * 4
    assert game.public_view().to_act is None


def test_bids_show_as_they_are_made() -> None:
    game = start(Rules.from_preset("cien"), EVEN, dealer=W)
    assert game.public_view().bids == (None, None, None, None)
    game.bid(BLIND_NIL)
    game.bid(3)
    assert game.public_view().bids == (BLIND_NIL, 3, None, None)
    assert game.public_view().contract(0) == 0
    assert game.public_view().contract(1) == 3


def test_blind_nil_hand_hidden_until_looked() -> None:
    game = start(Rules.from_preset("cien"), EVEN, dealer=W)
    for seat in range(4):
        assert game.view_for(seat).held is None
    game.apply(Look(S))  # S looks out of turn
    assert game.view_for(S).held == CardSet(EVEN[S])
    assert game.view_for(N).held is None
    assert game.public_view().looked == (False, False, True, False)
    assert game.view_for(N).legal[0] == Look(N)
    assert game.view_for(N).legal[-1] == Bid(BLIND_NIL)
    assert game.view_for(S).legal == ()  # not S's turn


def test_blind_nil_view_same_whatever_the_unseen_cards() -> None:
    """N has not looked: N's view is the same for any deal of N's cards too."""
    other = deal_of("JT9.T987.JT9.JT9", "AKQ.AKQJ.AKQ.AKQ", "876.6543.876.876", "5432.2.5432.5432")
    one = start(Rules.from_preset("cien"), EVEN, dealer=W)
    two = start(Rules.from_preset("cien"), other, dealer=W)
    for game in (one, two):
        game.apply(Look(S))
    assert one.view_for(N) == two.view_for(N)
    assert one.view_for(W) == two.view_for(W)
    assert one.view_for(S) == two.view_for(S)
    assert one.view_for(E) == two.view_for(E)  # E has not looked either
    one.apply(Look(E))
    two.apply(Look(E))
    assert one.view_for(E) != two.view_for(E)


def test_a_view_does_not_change_when_the_game_moves_on() -> None:
    game = start(Rules.from_preset("estandar"), EVEN, dealer=W, bids=BIDS)
    game.play(c("AH"))
    view = game.view_for(E)
    kept = copy.deepcopy(view)
    play_cards(game, "JD 6H 2H")
    play_lowest(game)
    assert view == kept
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.held = None  # type: ignore[misc]


def test_views_of_the_other_seats_do_not_depend_on_a_hidden_swap() -> None:
    """E and W swap their unplayed diamonds: N's and S's views do not change."""
    swapped = deal_of(
        "AKQ.AKQJ.AKQ.AKQ", "JT9.T987.543.JT9", "876.6543.876.876", "5432.2.JT92.5432"
    )
    one = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    two = start(Rules.from_preset("pagat"), swapped, dealer=W, bids=BIDS)
    for game in (one, two):
        play_cards(game, "AH TH 6H 2H AC")
    for seat in (N, S):
        assert one.view_for(seat) == two.view_for(seat)
    assert one.public_view() == two.public_view()
    assert one.view_for(E) != two.view_for(E)


def test_result_in_the_views() -> None:
    game = Game(Rules.from_preset("estandar", target=100), first_dealer=N)
    game.deal(boston_deal(N))
    bid_all(game, {N: 13, S: 0, E: 0, W: 1})
    play_lowest(game)
    assert game.result is not None
    for view in views(game):
        assert view.result == game.result
        assert view.hand_scores == (230, 90)


def test_individual_views() -> None:
    rules = Rules.from_preset("sala", players=5)
    game = Game.new(rules, seed=4)
    view = game.view_for(game.hand.to_act)
    assert len(view.bids) == 5
    assert len(view.scores) == 5
    assert view.held is not None and len(view.held) == 10
    assert view.legal == tuple(Bid(v) for v in range(11))


def test_the_view_between_hands_names_the_next_dealer() -> None:
    game = Game(Rules.from_preset("pagat"), first_dealer=W)
    game.deal(EVEN)
    bid_all(game, BIDS)
    play_lowest(game)
    game.next_hand()
    assert game.phase == "dealing"
    assert game.dealer == N
    assert game.public_view().dealer == N


@pytest.mark.parametrize("seat", [-1, 4, 7])
def test_a_view_for_a_seat_that_does_not_exist_is_refused(seat: int) -> None:
    game = start(Rules.from_preset("pagat"), EVEN, dealer=W, bids=BIDS)
    with pytest.raises((RuleError, ValueError)):
        game.view_for(seat)
