"""The ten worked examples of RULES.md §9, with their exact numbers.

Scoring examples call ``score_hand``; the examples about the flow of a game
(bidding order, mercy, target, ties) play real games with explicit deals.
"""

from __future__ import annotations

import pytest

from engine_helpers import boston_deal, deal_of, expected_score, play_hand, play_lowest
from espadas.engine import (
    ConfirmEnd,
    Game,
    NextHand,
    Rules,
    score_hand,
)

NS, EW = 0, 1
N, E, S, W = 0, 1, 2, 3


# Dealt with seed 1. With West dealing (North leads) and every player playing
# its lowest proper card, N takes 4, E 1, S 1 and W 7 tricks.
FIVE_EIGHT = ("A9.T8.32.AKT9754", "Q6.AKQ653.JT75.Q", "T72.J9.A964.J632", "KJ8543.742.KQ8.8")


def pbn(*hands: str) -> tuple[int, ...]:
    return deal_of(*hands)


# --------------------------------------------------------------------------
# 1. Bidding order and contracts


def test_example_1_bidding_order_and_contracts() -> None:
    rules = Rules.from_preset("estandar")
    game = Game(rules, first_dealer=S)
    game.deal(pbn(*FIVE_EIGHT))
    order = []
    for value in (3, 1, 4, 4):  # West, North, East, South
        order.append(game.to_act)
        game.bid(value)
    assert order == [W, N, E, S]
    view = game.public_view()
    assert view.bids == (1, 4, 4, 3)
    assert view.contract(NS) == 5
    assert view.contract(EW) == 7
    assert game.phase == "playing"
    assert game.to_act == W  # left of the dealer leads
    play_lowest(game)
    tricks = game.hand.tricks
    ns, ew = tricks[N] + tricks[S], tricks[E] + tricks[W]
    # "N-S must take 5, E-W 7": each side scores its contract iff it takes that many
    want_ns = 50 + (ns - 5) if ns >= 5 else -50
    want_ew = 70 + (ew - 7) if ew >= 7 else -70
    assert game.scored[0].score.points == [want_ns, want_ew]


# --------------------------------------------------------------------------
# 2-8. Scoring


def side_bids(ns: tuple[int, int], ew: tuple[int, int]) -> list[int]:
    """Bids by seat from (N, S) and (E, W)."""
    return [ns[0], ew[0], ns[1], ew[1]]


@pytest.mark.parametrize(
    ("took", "points", "bags", "total"),
    [(7, 52, 9, 389), (8, 53 - 100, 0, 290), (9, 54 - 100, 1, 291)],
)
def test_example_2_bags_carry_over(took: int, points: int, bags: int, total: int) -> None:
    for preset in ("estandar", "pagat"):
        rules = Rules.from_preset(preset)
        # N-S bid 3 + 2 = 5 and take `took`; E-W bid 4 + 4 and take the rest
        tricks = [took - 3, 3, 3, 13 - took - 3]
        s = score_hand(rules, side_bids((3, 2), (4, 4)), [False] * 4, tricks, [7, 0])
        assert s.points[NS] == points
        assert s.bags[NS] == bags
        assert 337 + s.points[NS] == total


def test_example_3_contract_with_overtricks() -> None:
    rules = Rules.from_preset("estandar")
    s = score_hand(rules, side_bids((4, 3), (2, 2)), [False] * 4, [5, 2, 4, 2], [0, 0])
    assert s.points[NS] == 72
    assert s.bags[NS] == 2


@pytest.mark.parametrize("preset", ["sala", "estandar"])
def test_example_4_made_and_failed(preset: str) -> None:
    rules = Rules.from_preset(preset)
    # N-S bid 2 + 2 = 4 and take 6
    s = score_hand(rules, side_bids((2, 2), (3, 2)), [False] * 4, [3, 4, 3, 3], [0, 0])
    assert s.points[NS] == 42
    assert s.bags[NS] == 2
    s = score_hand(rules, side_bids((3, 2), (4, 4)), [False] * 4, [2, 5, 2, 4], [0, 0])
    assert s.points[NS] == -50
    assert s.bags[NS] == 0


@pytest.mark.parametrize("preset", ["sala", "estandar", "pagat"])
@pytest.mark.parametrize(
    ("nil_took", "partner_took", "points", "bags"),
    [(0, 3, 100 - 40, 0), (1, 5, 41 + 1 - 100, 2), (1, 3, -100 - 40 + 1, 1)],
)
def test_example_5_nil_beside_a_bid_of_4(
    preset: str, nil_took: int, partner_took: int, points: int, bags: int
) -> None:
    rules = Rules.from_preset(preset)
    # N bids Nil, S bids 4; E-W bid 3 + 3 and take the rest
    rest = 13 - nil_took - partner_took
    tricks = [nil_took, rest // 2, partner_took, rest - rest // 2]
    s = score_hand(rules, side_bids((0, 4), (3, 3)), [False] * 4, tricks, [0, 0])
    assert s.points[NS] == points
    assert s.bags[NS] == bags


def test_example_6_sala_bonuses_individual() -> None:
    rules = Rules.from_preset("sala", players=4, partnerships=False)
    assert not rules.partnerships and rules.bonuses
    cases = [(2, 3, 21), (10, 11, 121), (1, 1, 30)]
    for bid, took, points in cases:
        others = 13 - took
        bids = [bid, 1, 1, 1]
        tricks = [took, others, 0, 0]
        s = score_hand(rules, bids, [False] * 4, tricks, [0, 0, 0, 0])
        assert s.points[0] == points, (bid, took)


def test_example_6_sala_bonuses_partnership() -> None:
    rules = Rules.from_preset("sala")
    s = score_hand(rules, side_bids((1, 1), (5, 5)), [False] * 4, [2, 5, 1, 5], [0, 0])
    assert s.points[NS] == 21
    s = score_hand(rules, side_bids((5, 5), (1, 1)), [False] * 4, [6, 1, 5, 1], [0, 0])
    assert s.points[NS] == 100 + 20 + 1
    assert s.points[EW] == 20 + 20  # contract 2 made exactly


def test_example_6_exact_bonus_only_with_3_or_4_players() -> None:
    for players, bonus in ((3, 20), (4, 20), (5, 0), (6, 0)):
        rules = Rules.from_preset("sala", players=players, partnerships=False)
        size = rules.hand_size
        bids = [1] + [1] * (players - 1)
        tricks = [1, size - 1] + [0] * (players - 2)
        s = score_hand(rules, bids, [False] * players, tricks, [0] * players)
        assert s.points[0] == 10 + bonus, players


def test_example_6_big_contract_thresholds() -> None:
    # +10 per contracted trick beyond the 10th/8th/7th/6th with 3/4/5/6 players
    for players, beyond in ((3, 10), (4, 8), (5, 7), (6, 6)):
        rules = Rules.from_preset("sala", players=players, partnerships=False)
        size = rules.hand_size
        bid = beyond + 2
        bids = [bid] + [1] * (players - 1)
        tricks = [bid, size - bid] + [0] * (players - 2)
        s = score_hand(rules, bids, [False] * players, tricks, [0] * players)
        assert s.points[0] == 10 * bid + 20, players


@pytest.mark.parametrize("preset", ["estandar", "sala"])
def test_example_7_quicksand(preset: str) -> None:
    rules = Rules.from_preset(preset, quicksand=True)
    s = score_hand(rules, side_bids((4, 3), (2, 2)), [False] * 4, [5, 2, 4, 2], [0, 0])
    assert (s.points[NS], s.bags[NS]) == (50, 0)
    s = score_hand(rules, side_bids((3, 3), (4, 4)), [False] * 4, [2, 5, 2, 4], [0, 0])
    assert (s.points[NS], s.bags[NS]) == (-20, 0)
    s = score_hand(rules, side_bids((4, 3), (3, 3)), [False] * 4, [4, 3, 3, 3], [0, 0])
    assert (s.points[NS], s.bags[NS]) == (70, 0)


def test_example_7_quicksand_failed_nil_gives_no_bag() -> None:
    rules = Rules.from_preset("estandar", quicksand=True)
    s = score_hand(rules, side_bids((0, 4), (3, 3)), [False] * 4, [2, 4, 4, 3], [0, 0])
    assert (s.points[NS], s.bags[NS]) == (-100 + 40, 0)


def test_example_8_cien_bags_reset() -> None:
    rules = Rules.from_preset("cien")
    s = score_hand(rules, side_bids((2, 2), (3, 3)), [False] * 4, [4, 3, 3, 3], [8, 0])
    assert s.points[NS] == 43 - 100 == -57
    assert s.bags[NS] == 0
    assert s.penalties[NS] == 100


def test_example_8_twenty_bags_in_one_go_carry_over() -> None:
    rules = Rules.from_preset("estandar")
    # N-S 9 bags; bid 1 + 1 and take 13: 11 bags more, 20 in all: -200, 0 left
    s = score_hand(rules, side_bids((1, 1), (2, 2)), [False] * 4, [7, 0, 6, 0], [9, 0])
    assert s.points[NS] == 20 + 11 - 200
    assert s.bags[NS] == 0
    # and with bags_reset only -100 once
    rules = Rules.from_preset("estandar", bags_reset=True)
    s = score_hand(rules, side_bids((1, 1), (2, 2)), [False] * 4, [7, 0, 6, 0], [9, 0])
    assert s.points[NS] == 20 + 11 - 100
    assert s.bags[NS] == 0


@pytest.mark.parametrize(
    ("preset", "options"),
    [("estandar", {}), ("sala", {}), ("cien", {}), ("sala", {"quicksand": True})],
)
def test_scoring_examples_agree_with_the_test_scorer(preset: str, options: dict[str, bool]) -> None:
    """The independent scorer of engine_helpers gives the same numbers on the
    examples' hands, so the property tests rest on a checked base."""
    rules = Rules.from_preset(preset, **options)
    hands = [
        (side_bids((4, 3), (2, 2)), [5, 2, 4, 2], [0, 0]),
        (side_bids((0, 4), (3, 3)), [1, 4, 5, 3], [0, 0]),
        (side_bids((2, 2), (3, 3)), [4, 3, 3, 3], [8, 0]),
        (side_bids((5, 5), (1, 1)), [6, 1, 5, 1], [3, 9]),
    ]
    for bids, tricks, bags in hands:
        s = score_hand(rules, bids, [False] * 4, tricks, bags)
        ex = expected_score(rules, bids, tricks, bags)
        assert (s.points, s.bags) == (ex.points, ex.bags)


# --------------------------------------------------------------------------
# 9. Mercy


def test_example_9_mercy_ends_the_game() -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    # hand 1: E-W take all 13. N-S bid 13 + 2 = 15: -150. E bids 13, W Nil: +230.
    play_hand(game, boston_deal(E), {N: 13, S: 2, E: 13, W: 0})
    assert game.scores == [-150, 230]
    assert game.result is None
    game.next_hand()
    # hand 2: N-S bid 3 + 3 = 6 and fail: -60 -> -210, at or below the floor of -200
    play_hand(game, boston_deal(E), {N: 3, S: 3, E: 13, W: 0})
    assert game.scored[-1].score.points == [-60, 230]
    assert game.scores == [-210, 460]
    assert game.result is not None
    assert game.result.reason == "mercy"
    assert game.result.winner == EW
    assert game.legal_actions() == [ConfirmEnd()]
    game.confirm_end()
    assert game.phase == "game_over"


def test_example_9_mercy_tie_plays_another_hand() -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    # both sides bid 15 and fail twice: -150 each, then -300 each
    play_hand(game, boston_deal(E), {N: 13, S: 2, E: 13, W: 2})
    assert game.scores == [-150, -150]
    game.next_hand()
    play_hand(game, boston_deal(N), {N: 13, S: 2, E: 13, W: 2})
    assert game.scores == [-300, -300]
    # both at or below -200 with equal points: no result, another hand
    assert game.result is None
    assert game.phase == "hand_end"
    assert game.legal_actions() == [NextHand()]
    game.next_hand()
    # hand 3: N-S bid 1 + 1 and fail (-20); E-W bid 15 and fail (-150)
    play_hand(game, boston_deal(E), {N: 1, S: 1, E: 13, W: 2})
    assert game.scores == [-320, -450]
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (NS, "mercy")


def test_mercy_and_target_in_one_hand_the_reason_is_target() -> None:
    game = Game(Rules.from_preset("estandar", target=200), first_dealer=N)
    # N takes all: N bids 13, S Nil: +230 (reaches 200). E-W bid 13 + 13: -260.
    play_hand(game, boston_deal(N), {N: 13, S: 0, E: 13, W: 13})
    assert game.scores == [230, -260]
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (NS, "target")


def test_no_mercy_in_a_preset_without_a_floor() -> None:
    game = Game(Rules.from_preset("pagat"), first_dealer=N)
    play_hand(game, boston_deal(E), {N: 13, S: 13, E: 13, W: 0})
    assert game.scores == [-260, 230]
    assert game.result is None
    assert game.legal_actions() == [NextHand()]


# --------------------------------------------------------------------------
# 10. Target


def reach_495_480(game: Game) -> None:
    """Three hands that bring N-S to 495 (5 bags) and E-W to 480 (0 bags)."""
    # N takes all: N 13 + S Nil = 230; E Nil, W 5: 100 - 50 = 50
    play_hand(game, boston_deal(N), {N: 13, S: 0, E: 0, W: 5})
    assert game.scores == [230, 50]
    game.next_hand()
    # E takes all: E 13 + W Nil = 230; N Nil, S 2: 100 - 20 = 80
    play_hand(game, boston_deal(E), {N: 0, S: 2, E: 13, W: 0})
    assert game.scores == [310, 280]
    game.next_hand()
    # N takes all: N 8 + S Nil = 100 + 80 + 5 = 185 (5 bags); E-W Nil + Nil = 200
    play_hand(game, boston_deal(N), {N: 8, S: 0, E: 0, W: 0})
    assert game.scores == [495, 480]
    assert game.bags == [5, 0]
    assert game.result is None
    game.next_hand()


def test_example_10_target_higher_score_wins() -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    reach_495_480(game)
    # A (N-S) bids 2 + 2 = 4 and takes 5; B (E-W) bids 3 + 2 = 5 and takes 8
    play_hand(game, pbn(*FIVE_EIGHT), {N: 2, E: 3, S: 2, W: 2})
    assert game.hand.dealer == W
    assert game.hand.tricks == [4, 1, 1, 7]
    assert game.scored[-1].score.points == [41, 53]
    assert game.scores == [536, 533]
    assert game.result is not None
    assert (game.result.winner, game.result.reason, game.result.loser) == (NS, "target", None)
    assert game.legal_actions() == [ConfirmEnd()]


def test_example_10_tie_at_the_target_plays_another_hand() -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    # N takes all: N 13 + S Nil = 230; E Nil, W 9: 100 - 90 = 10
    play_hand(game, boston_deal(N), {N: 13, S: 0, E: 0, W: 9})
    game.next_hand()
    # E takes all: E 13 + W Nil = 230; N Nil, S 9: 10
    play_hand(game, boston_deal(E), {N: 0, S: 9, E: 13, W: 0})
    game.next_hand()
    # N takes all: N 13 + S Nil = 230; E-W Nil + Nil = 200
    play_hand(game, boston_deal(N), {N: 13, S: 0, E: 0, W: 0})
    assert game.scores == [470, 440]
    game.next_hand()
    # N-S bid 4 + 1 = 5 and take 5: +50; E-W bid 1 + 7 = 8 and take 8: +80
    play_hand(game, pbn(*FIVE_EIGHT), {N: 4, E: 1, S: 1, W: 7})
    assert game.scores == [520, 520]
    assert game.result is None
    assert game.phase == "hand_end"
    assert game.legal_actions() == [NextHand()]
    game.next_hand()
    assert game.phase == "dealing"
    # the fifth hand decides: N takes all, N 13 + S Nil = 230; E-W 1 + 1 fail: -20
    play_hand(game, boston_deal(N), {N: 13, S: 0, E: 1, W: 1})
    assert game.scores == [750, 500]
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (NS, "target")


def test_boston_deal_is_a_boston() -> None:
    game = Game(Rules.from_preset("estandar"), first_dealer=N)
    play_hand(game, boston_deal(W), {N: 1, S: 1, E: 0, W: 13})
    assert game.hand.tricks == [0, 0, 0, 13]
    assert game.scored[-1].boston == EW
    assert game.hand.bid_order == [0, 1, 13, 1]  # E, S, W, N
