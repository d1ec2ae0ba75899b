"""The ``normal`` robot: always a legal, proper action under every rule option,
deterministic for a seed, fed only views; and it plays like a partner people
trust in the classic situations (covering a Nil, busting one, ducking bags,
bidding)."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from espadas.engine import (
    BLIND_NIL,
    Accuse,
    Action,
    Bid,
    Card,
    CardSet,
    Game,
    Look,
    NextHand,
    Play,
    PlayerView,
    Rules,
    deal_cards,
)
from espadas.robots import Robot
from espadas.robots.bidding import choose_bid, closest_legal, estimate_tricks, nil_chance
from espadas.robots.normal import NormalRobot
from espadas.robots.registry import make_robot
from espadas.robots.tricks import beats
from robot_helpers import TABLES, play_robots

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *TABLES,
    ("sala", {"no_hell": True}),
    ("sala", {"suicide": True}),
    ("sala", {"quicksand": True}),
    ("pagat", {"blind_nil": True}),
    ("pagat", {"first_lead": "two_of_clubs"}),
    ("pagat", {"spades_in_first_trick": "forbidden"}),
    ("pagat", {"bags_reset": True}),
    ("sala", {"players": 5, "first_lead": "two_of_clubs", "quicksand": True}),
    ("sala", {"players": 6, "no_hell": True, "spades_in_first_trick": "forbidden"}),
]


def check_action(game: Game, view: PlayerView, action: Action) -> None:
    assert action in view.legal
    assert action in game.legal_actions() or isinstance(action, Look)
    assert not isinstance(action, Accuse)
    if isinstance(action, Play):
        assert action.card in game.proper_plays(), "a robot never reneges"


def run_game(
    rules: Rules, seed: int, hands: int = 3, timings: list[float] | None = None
) -> list[tuple[int, Action]]:
    """Plays up to ``hands`` hands with a NormalRobot in every seat, checking each
    action against the engine."""
    game = Game.new(rules, seed=seed)
    robots = [NormalRobot(random.Random(seed * 100 + s)) for s in range(rules.players)]
    return play_robots(game, robots, hands=hands, check=check_action, timings=timings)


@pytest.mark.parametrize(("preset", "options"), CONFIGS)
def test_legal_and_proper_under_every_option(preset: str, options: dict[str, Any]) -> None:
    rules = Rules.from_preset(preset, **options)
    plays = 0
    for seed in range(6):
        taken = run_game(rules, seed)
        plays += sum(isinstance(a, Play) for _, a in taken)
    assert plays >= 6 * rules.hand_size * rules.players


def test_plays_whole_games_to_the_end() -> None:
    for preset, options in [("estandar", {"target": 250}), ("cien", {}), ("sala", {"players": 5})]:
        rules = Rules.from_preset(preset, **options)
        game = Game.new(rules, seed=3)
        robots = [NormalRobot(random.Random(s)) for s in range(rules.players)]
        while game.phase != "game_over":
            if game.phase == "hand_end":
                seat = 0
            else:
                assert game.to_act is not None
                seat = game.to_act
            view = game.view_for(seat)
            action = robots[seat].act(view)
            check_action(game, view, action)
            game.apply(action)
        assert game.result is not None


def test_closes_a_finished_hand() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=2)
    robots = [NormalRobot(random.Random(s)) for s in range(4)]
    while game.phase != "hand_end":
        assert game.to_act is not None
        game.apply(robots[game.to_act].act(game.view_for(game.to_act)))
    assert robots[1].act(game.view_for(1)) == NextHand()


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_deterministic_for_a_seed(preset: str, options: dict[str, Any]) -> None:
    rules = Rules.from_preset(preset, **options)
    assert run_game(rules, 11, hands=1) == run_game(rules, 11, hands=1)


def test_made_by_the_registry() -> None:
    robot = make_robot("normal", seed=4)
    assert isinstance(robot, NormalRobot)


def test_only_a_view_and_no_reference_to_the_game() -> None:
    game = Game.new(Rules.from_preset("sala"), seed=8)
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    assert type(view) is PlayerView
    expected = NormalRobot(random.Random(1)).act(view)
    alive = weakref.ref(game)
    del game
    gc.collect()
    assert alive() is None, "the view must not keep the game alive"
    robot = NormalRobot(random.Random(1))
    assert robot.act(view) == expected
    assert set(vars(robot)) == {"rng"}


def test_refuses_a_view_with_nothing_to_do() -> None:
    game = Game.new(Rules(), seed=1)
    idle = next(s for s in range(4) if s != game.to_act)
    with pytest.raises(ValueError):
        NormalRobot(random.Random(0)).act(game.view_for(idle))


def test_decides_fast() -> None:
    timings: list[float] = []
    for preset, options in [("pagat", {}), ("sala", {"players": 3}), ("sala", {"players": 6})]:
        run_game(Rules.from_preset(preset, **options), 5, hands=2, timings=timings)
    timings.sort()
    assert sum(timings) / len(timings) < 0.005
    assert timings[len(timings) * 95 // 100] < 0.005


# Scenarios with explicit deals ---------------------------------------------


def deal_with(rules: Rules, fixed: dict[int, str], seed: int = 0) -> list[int]:
    """A deal in which seat ``s`` holds the cards of ``fixed[s]`` (space-separated),
    the rest dealt at random (with ``seed``) to fill every hand."""
    rng = random.Random(seed)
    hands = [0] * rules.players
    used = rules.removed
    for seat, text in fixed.items():
        for t in text.split():
            bit = 1 << Card.parse(t)
            assert not used & bit, t
            hands[seat] |= bit
            used |= bit
    rest = [c for c in range(52) if not used >> c & 1]
    rng.shuffle(rest)
    for seat in range(rules.players):
        while hands[seat].bit_count() < rules.hand_size:
            hands[seat] |= 1 << rest.pop()
    return hands


def start(rules: Rules, dealer: int, fixed: dict[int, str], bids: list[int]) -> Game:
    """A game dealt with ``fixed`` cards and bid in seat order from the dealer's left."""
    game = Game(rules, first_dealer=dealer)
    game.deal(deal_with(rules, fixed))
    for value in bids:
        game.apply(Bid(value))
    assert game.phase == "playing"
    return game


def play(game: Game, *cards: str) -> None:
    for text in cards:
        game.apply(Play(Card.parse(text)))


def robot_card(game: Game) -> Card:
    seat = game.to_act
    assert seat is not None
    action = NormalRobot(random.Random(0)).act(game.view_for(seat))
    assert isinstance(action, Play)
    return action.card


PAGAT = Rules.from_preset("pagat")


def test_covers_a_partner_nil_by_overtaking() -> None:
    # Dealer W: N leads. N (Nil) leads 5H, E ducks 3H: S overtakes cheaply.
    fixed = {0: "5H 2C 3C 4C", 1: "3H", 2: "2H 7H KH AS KS QS"}
    game = start(PAGAT, 3, fixed, [0, 3, 5, 3])
    play(game, "5H", "3H")
    card = robot_card(game)
    assert beats(card, Card("5H"), 2)
    assert card == Card("7H"), "the lowest card that beats the partner's"


def test_covers_a_partner_nil_that_plays_after() -> None:
    # Dealer N: E leads 2D, S plays, then W, then N (Nil) with only 9D and TD in
    # diamonds: S plays above them so that N can stay under.
    fixed = {0: "9D TD 2C 3C 4C 5C 6C 7C 2H 3H 4H 5H 6H", 1: "2D", 2: "AD QD 5D"}
    game = start(PAGAT, 0, fixed, [3, 4, 3, 0])
    play(game, "2D")
    card = robot_card(game)
    assert card in {Card("AD"), Card("QD")}


def test_leads_low_into_an_opponent_nil() -> None:
    # Dealer W: N leads; E (to N's left) bid Nil.
    fixed = {0: "2C 3D AH KH QH AS", 1: "5C 6C 4D 7D"}
    game = start(PAGAT, 3, fixed, [4, 0, 4, 3])
    card = robot_card(game)
    assert card in {Card("2C"), Card("3D")}


def test_plays_under_an_opponent_nil_card() -> None:
    # Dealer W: N leads 2H, E (Nil) plays 9H: S stays under with its highest low heart.
    fixed = {0: "2H", 1: "9H", 2: "3H 5H KH AH 2C 3C 4C 5C 6C 2D 3D 4D 5D"}
    game = start(PAGAT, 3, fixed, [3, 0, 4, 3])
    play(game, "2H", "9H")
    card = robot_card(game)
    assert not beats(card, Card("9H"), 2)
    assert card == Card("5H")


def test_ducks_bags_once_the_contract_is_made() -> None:
    fixed = {
        0: "AC KC 2D",
        1: "2C 5C 9D",
        2: "3C 6C AD 3D",
        3: "4C 7C",
    }
    game = Game(PAGAT, first_dealer=3)
    game.bags = [9, 0]
    game.deal(deal_with(PAGAT, fixed, seed=5))
    for value in [1, 4, 1, 4]:
        game.apply(Bid(value))
    play(game, "AC", "2C", "3C", "4C", "KC", "5C", "6C", "7C")
    assert game.hand.tricks[0] == 2  # N–S have made their contract of 2
    play(game, "2D", "9D")
    card = robot_card(game)
    assert not beats(card, Card("9D"), 1), "duck with a card that loses"


def test_sets_the_opponents_when_it_pays() -> None:
    fixed = {0: "AC KC 2D", 1: "2C 5C 9D", 2: "3C 6C AD 3D", 3: "4C 7C"}
    game = Game(PAGAT, first_dealer=3)
    game.deal(deal_with(PAGAT, fixed, seed=5))
    for value in [1, 6, 1, 5]:  # E–W need 11 of the 13 tricks
        game.apply(Bid(value))
    play(game, "AC", "2C", "3C", "4C", "KC", "5C", "6C", "7C")
    play(game, "2D", "9D")
    assert beats(robot_card(game), Card("9D"), 1), "one more trick sets them"


def test_never_reneges_beside_a_player_who_does() -> None:
    rules = Rules.from_preset("estandar")
    assert rules.renege == "allowed"
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        wild = seed % 4
        robots: list[Robot] = [NormalRobot(random.Random(s)) for s in range(4)]
        robots[wild] = WildPlayer(random.Random(seed))
        play_robots(game, robots, check=checked_but(wild))  # the whole game, to its end
        assert game.over and len(game.hands) > 1
        assert any(hand.reneged(wild) for hand in game.hands), f"seed {seed}: no renege"


def checked_but(wild: int) -> Callable[[Game, PlayerView, Action], None]:
    """``check_action`` for the actions of every seat but ``wild``."""

    def check(game: Game, view: PlayerView, action: Action) -> None:
        if view.seat != wild:
            check_action(game, view, action)

    return check


class WildPlayer:
    """Any card the table accepts, reneges included."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal)


def test_wins_cheaply_while_tricks_are_needed() -> None:
    fixed = {0: "2D", 1: "9D", 2: "AD KD 3D", 3: "4D"}
    game = start(PAGAT, 3, fixed, [4, 4, 4, 1])
    play(game, "2D", "9D")
    assert robot_card(game) == Card("KD"), "the lowest card that surely wins"


def test_does_not_overtake_a_partner_sure_winner() -> None:
    fixed = {0: "AD", 1: "4D", 2: "KD 3D", 3: "5D"}
    game = start(PAGAT, 3, fixed, [4, 4, 4, 1])
    play(game, "AD", "4D")
    assert robot_card(game) == Card("3D")


def test_own_nil_plays_the_highest_card_that_loses() -> None:
    fixed = {0: "KD", 1: "2D 8D JD AD"}
    game = start(PAGAT, 3, fixed, [4, 0, 4, 4])
    play(game, "KD")
    assert robot_card(game) == Card("JD")


def test_own_nil_discards_a_high_card_when_void() -> None:
    fixed = {0: "KD", 1: "AH 2H 3H 4H 5H 2C 3C 4C 5C AC 6C 7C 2S"}
    game = start(PAGAT, 3, fixed, [4, 0, 4, 4])
    play(game, "KD")
    card = robot_card(game)
    assert card.suit != 3, "never trumps while Nil"
    assert card.rank == 12, "throws an ace"


# Bidding ----------------------------------------------------------------------


def bid_for(hand: str, rules: Rules = PAGAT, before: list[int] | None = None) -> object:
    """The robot's bid with ``hand`` as the first bidder (or after ``before``)."""
    seat_hand = CardSet.parse(hand)
    others = [c for c in range(52) if not seat_hand >> c & 1 and not rules.removed >> c & 1]
    random.Random(0).shuffle(others)
    before = before or []
    n = rules.players
    dealer = (n - 1 - len(before)) % n  # the robot (seat 0) bids after ``before``
    hands = [0] * n
    hands[0] = int(seat_hand)
    k = 0
    for s in range(1, n):
        for _ in range(rules.hand_size):
            hands[s] |= 1 << others[k]
            k += 1
    game = Game(rules, first_dealer=dealer)
    game.deal(hands)
    for value in before:
        game.apply(Bid(value))
    assert game.to_act == 0
    action = NormalRobot(random.Random(0)).act(game.view_for(0))
    assert isinstance(action, Bid)
    return action.value


def test_strong_hand_bids_high() -> None:
    bid = bid_for("AKQJ.A32.A32.432")
    assert isinstance(bid, int) and bid >= 5


def test_low_hand_without_high_spades_bids_nil() -> None:
    assert bid_for("852.8642.7532.64") == 0
    assert bid_for("7.J642.T7532.642") == 0


def test_no_second_nil_in_a_partnership() -> None:
    # Seat 0 bids after its partner (seat 2) bid Nil: W (3) deals, so the order is 1, 2, …
    rules = PAGAT
    value = bid_for("852.8642.7532.64", rules, before=[3, 0, 4])
    assert value != 0


def test_suicide_forces_nil_after_a_partner_number() -> None:
    rules = Rules.from_preset("sala", suicide=True)
    assert bid_for("AKQJ.A32.A32.432", rules, before=[4, 5, 0]) == 0


def test_no_hell_picks_the_nearest_allowed_bid() -> None:
    rules = Rules.from_preset("sala", no_hell=True)
    value = bid_for("AKQ.A32.A32.5432", rules, before=[4, 3, 1])
    assert isinstance(value, int) and value != 13 - 8 and value > 0


def test_closest_legal() -> None:
    assert closest_legal([0, 4, 5, 6], 2) == 4
    assert closest_legal([0], 3) == 0
    assert closest_legal([0, 1, 2, 4], 3) == 2
    assert closest_legal([0, 1, 2], 0) == 0


def test_estimates_are_sane_over_random_deals() -> None:
    rng = random.Random(4)
    sums = []
    for _ in range(300):
        deal = deal_cards(PAGAT, rng)
        sums.append(sum(estimate_tricks(h, PAGAT) for h in deal))
    mean = sum(sums) / len(sums)
    assert 10 <= mean <= 14
    for rules in (Rules.from_preset("sala", players=n) for n in (3, 5, 6)):
        total = sum(
            sum(estimate_tricks(h, rules) for h in deal_cards(rules, rng)) for _ in range(100)
        )
        assert 0.6 * rules.hand_size <= total / 100 <= 1.1 * rules.hand_size


def test_bids_add_up_to_a_sane_total() -> None:
    sums = []
    for seed in range(200):
        game = Game.new(PAGAT, seed=seed)
        robots = [NormalRobot(random.Random(s)) for s in range(4)]
        while game.phase == "bidding":
            assert game.to_act is not None
            game.apply(robots[game.to_act].act(game.view_for(game.to_act)))
        sums.append(sum(b or 0 for b in game.hand.bids))
    assert 9 <= sum(sums) / len(sums) <= 14


def test_nil_chance_orders_hands() -> None:
    low = nil_chance(CardSet.parse("852.8642.7532.64"), PAGAT)
    spade_king = nil_chance(CardSet.parse("K52.8642.7532.64"), PAGAT)
    lone_ace = nil_chance(CardSet.parse("852.A.75432.6432"), PAGAT)
    guarded_ace = nil_chance(CardSet.parse("852.A642.7532.64"), PAGAT)
    assert low > guarded_ace > 0.3 > lone_ace
    assert spade_king < guarded_ace


def test_blind_nil_only_when_far_behind() -> None:
    rules = Rules.from_preset("cien")
    for scores, expected in (([0, 0], "look"), ([0, 70], "blind"), ([70, 0], "look")):
        game = Game(rules, first_dealer=3)
        game.scores = list(scores)
        game.deal(list(deal_cards(rules, random.Random(1))))
        view = game.view_for(0)
        assert view.held is None
        action = NormalRobot(random.Random(0)).act(view)
        assert action == (Bid(BLIND_NIL) if expected == "blind" else Look(0))


def test_bids_after_looking() -> None:
    rules = Rules.from_preset("cien")
    game = Game(rules, first_dealer=3)
    game.deal(list(deal_cards(rules, random.Random(2))))
    robot = NormalRobot(random.Random(0))
    action = robot.act(game.view_for(0))
    assert action == Look(0)
    game.apply(action)
    bid = robot.act(game.view_for(0))
    assert isinstance(bid, Bid) and bid.value != BLIND_NIL
    assert bid == Bid(choose_bid(game.view_for(0)))
