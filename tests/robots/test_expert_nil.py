"""``experto`` and a standing Nil: the trick in progress decided from the play-outs'
cards, the Nil as a stake of that trick (values.NIL_HOLD), the cards it weighs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from espadas.engine import Bid, Card, Game, Play, Rules, trick_winner
from espadas.robots.expert.robot import ExpertRobot, _distinct_candidates
from espadas.robots.expert.values import NIL_HOLD, nil_stakes, trick_winners
from espadas.robots.positions import load_positions
from espadas.robots.protocol import view_from_request
from profile_helpers import examples

FILE = Path(__file__).parent / "positions" / "basics.json"


@settings(max_examples=examples(200), deadline=None)
@given(
    cards=st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True),
    leader=st.integers(0, 3),
    down=st.integers(0, 3),
)
def test_trick_winners_agree_with_the_engine(cards: list[int], leader: int, down: int) -> None:
    trace = np.array([[*cards[down:], 0, 0, 0]], dtype=np.int64)
    got = trick_winners(4, leader, cards[:down], trace)
    assert int(got[0]) == trick_winner(leader, cards, 4)


def nil_game() -> Game:
    """A game in play where seat 1 bid Nil (seat 3 is its partner)."""
    game = Game.new(Rules.from_preset("estandar"), seed=11)
    while game.phase == "bidding":
        game.apply(Bid(0 if game.to_act == 1 else 3))
    return game


def test_a_nil_lost_after_the_trick_is_only_half_believed() -> None:
    game = nil_game()
    out = np.array([[3, 0, 4, 6], [3, 1, 4, 5], [3, 1, 4, 5]], dtype=np.int64)
    winners = np.array([0, 2, 1])  # row 1: Nil lost later; row 2: lost in this trick
    partner = nil_stakes(game.view_for(3), winners, out)
    assert list(partner) == [0.0, NIL_HOLD * 200, 0.0]
    opponent = nil_stakes(game.view_for(0), winners, out)
    assert list(opponent) == [0.0, -NIL_HOLD * 200, 0.0]


def test_a_card_down_in_the_trick_separates_candidates() -> None:
    positions = {p.id: p for p in load_positions(FILE)}
    for p in positions.values():
        if p.category != "cover_partner_nil":
            continue
        view = view_from_request(p.request)
        weighed = {str(Card(c)) for c in _distinct_candidates(view)}
        assert weighed & set(p.right), p.id  # a covering card is always weighed
        assert weighed - set(p.right), p.id  # and so is a card that lets the Nil fail


def test_experto_covers_its_partners_nil() -> None:
    cover = [p for p in load_positions(FILE) if p.category == "cover_partner_nil"]
    for i, p in enumerate(cover):
        action = ExpertRobot(i, budget_ms=40).act(view_from_request(p.request))
        assert isinstance(action, Play) and str(action.card) in p.right, p.id
