"""experto and omnisciente: legal, deterministic, and the three scenarios players
complain about elsewhere (a partner's Nil left uncovered, an opponent's Nil left
alone, bags collected once the contract is safe)."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from engine_helpers import deal_of, start
from espadas.engine import Action, Bid, Card, CardSet, Game, Play, PlayerView, Rules, full_view
from espadas.engine.errors import ReplayError
from espadas.engine.record import game_record, rebuild
from espadas.robots.expert import ExpertRobot, OmniscientRobot
from robot_helpers import play_robots

N, E, S, W = 0, 1, 2, 3
PAGAT = Rules.from_preset("pagat")


def robot_card(game: Game, seat: int, omniscient: bool = False) -> Card:
    robot = OmniscientRobot(7, budget_ms=60) if omniscient else ExpertRobot(7, budget_ms=60)
    view = full_view(game, seat) if omniscient else game.view_for(seat)
    action = robot.act(view)
    assert isinstance(action, Play)
    return action.card


@pytest.mark.parametrize("omniscient", [False, True])
def test_covers_partners_nil(omniscient: bool) -> None:
    # W leads 4H, partner N (Nil) must play KH, E plays 2H: S has AH and 3H.
    deal = deal_of(".K.2.QJT98765432", ".2.AKQJT9876543.", "QJT98765432.A3..", "AK.QJT987654..AK")
    game = start(PAGAT, deal, dealer=S, bids={W: 4, N: 0, E: 3, S: 5})
    for text in ("4H", "KH", "2H"):
        game.play(Card(text))
    assert game.to_act == S
    assert robot_card(game, S, omniscient) == Card("AH")


@pytest.mark.parametrize("omniscient", [False, True])
def test_leaves_opponents_nil_winning(omniscient: bool) -> None:
    # W leads 3H, N plays 4H, E (Nil) plays 9H: S, last, plays under the 9.
    deal = deal_of(".4.KQJT98765432.", "KQJT98765432.9..", "A.AKQJT87652.A.A", ".3..KQJT98765432")
    game = start(PAGAT, deal, dealer=S, bids={W: 3, N: 3, E: 0, S: 4})
    for text in ("3H", "4H", "9H"):
        game.play(Card(text))
    card = robot_card(game, S, omniscient)
    assert card.suit == Card("9H").suit and card < Card("9H")


def ducking_position() -> tuple[Game, Card]:
    """A position where S plays last to a trick it may win or lose."""
    for seed in range(200):
        rng = random.Random(seed)
        game = Game.new(PAGAT, seed=seed)
        while game.phase == "bidding":
            game.bid(3)
        while game.phase == "playing":
            trick = game.hand.current_trick()
            assert trick is not None
            tricks = game.hand.tricks
            if (
                game.to_act == S
                and len(trick[1]) == 3
                and min(tricks[0] + tricks[2], tricks[1] + tricks[3]) >= 2
            ):
                led = trick[1][0] // 13
                best = max(c for c in trick[1] if c >= 39 or c // 13 == led)
                proper = list(game.proper_plays())
                lose = [c for c in proper if not (c > best and (c >= 39 or c // 13 == led))]
                if lose and len(lose) < len(proper):
                    return game, Card(best)
            game.play(game.proper_plays().pick(rng))
    raise AssertionError("no ducking position found")


def test_ducks_when_the_contract_is_safe_with_nine_bags() -> None:
    game, best = ducking_position()
    view = game.view_for(S)
    # Every contract is made (all bid 1, each side has two tricks); N–S have 9 bags:
    # one more costs 100 points, and the trick is worth nothing else.
    view = dataclasses.replace(view, bids=(1, 1, 1, 1), bags=(9, 0))
    action = ExpertRobot(3, budget_ms=60).act(view)
    assert isinstance(action, Play)
    trick = view.trick
    assert trick is not None
    led = trick.cards[0].suit
    card = action.card
    assert not (card > best and (card.suit == 3 or card.suit == led))


@pytest.mark.parametrize(
    "rules",
    [
        Rules.from_preset("estandar", target=150),
        Rules.from_preset("cien"),
        Rules.from_preset("sala", players=3, target=150),
        Rules.from_preset("sala", players=6, target=150, first_lead="two_of_clubs"),
        Rules.from_preset("sala", no_hell=True, quicksand=True, target=150),
        Rules.from_preset("pagat", suicide=True, target=150),
    ],
    ids=["estandar", "cien", "sala3", "sala6", "nohell-quicksand", "suicide"],
)
def test_whole_games_are_legal_and_repeatable(rules: Rules) -> None:
    def run() -> dict[str, object]:
        game = Game.new(rules, seed=11)
        robots = [ExpertRobot(100 + s, budget_ms=5) for s in range(rules.players)]
        play_robots(game, robots, hands=2, check=legal_and_proper)
        return game_record(game)

    assert run() == run()


def legal_and_proper(game: Game, view: PlayerView, action: Action) -> None:
    assert action in game.legal_actions()
    if isinstance(action, Play):
        assert action.card in game.proper_plays()  # never a renege


def test_omniscient_needs_a_full_view() -> None:
    game = Game.new(PAGAT, seed=1)
    with pytest.raises(TypeError):
        OmniscientRobot(1, budget_ms=5).act(game.view_for(game.to_act or 0))


@pytest.mark.parametrize("level", ["normal", "experto"])
def test_hidden_cards_do_not_change_a_decision(level: str) -> None:
    """Two deals that differ only in cards seat S cannot see: same view, same action."""
    from espadas.robots.registry import make_robot

    rng = random.Random(5)
    twins = 0
    for seed in range(12):
        game = Game.new(PAGAT, seed=seed)
        while game.phase == "bidding":
            game.bid(3)
        for _ in range(rng.randrange(30)):
            game.play(game.proper_plays().pick(rng))
        while game.to_act != S:
            game.play(game.proper_plays().pick(rng))
        record = game_record(game)
        hand = game.hand
        # shuffle the unplayed cards of the other seats among them, keeping counts
        others = [s for s in range(4) if s != S]
        pool = [c for s in others for c in CardSet(hand.held[s])]
        rng.shuffle(pool)
        deal = list(hand.deal)
        for s in others:
            played = hand.deal[s] & ~hand.held[s]
            take, pool = pool[: len(CardSet(hand.held[s]))], pool[len(CardSet(hand.held[s])) :]
            deal[s] = played | int(CardSet(take))
        record["hands"][0]["deal"] = [str(CardSet(m)) for m in deal]
        try:
            twin = rebuild(record)
        except ReplayError:
            continue  # the new cards make an earlier play illegal: not a twin
        twins += 1
        assert twin.view_for(S) == game.view_for(S)
        first = make_robot(level, 9).act(game.view_for(S))
        second = make_robot(level, 9).act(twin.view_for(S))
        assert first == second
    assert twins >= 3


@pytest.mark.parametrize(
    "rules",
    [
        Rules.from_preset("estandar"),
        Rules.from_preset("sala", players=3),
        Rules.from_preset("sala", players=5),
        Rules.from_preset("sala", players=6),
    ],
    ids=["4", "3", "5", "6"],
)
def test_table_hand_estimates_match_the_rule_based_count(rules: Rules) -> None:
    from espadas.robots.bidding import estimate_tricks, nil_chance
    from espadas.robots.expert import hand_estimates

    rng = random.Random(3)
    hands = [sum(1 << c for c in rng.sample(range(52), rng.randint(0, 17))) for _ in range(500)]
    tricks, nil = hand_estimates(np.array(hands, dtype=np.int64), rules)
    for i, hand in enumerate(hands):
        assert tricks[i] == pytest.approx(estimate_tricks(hand, rules), abs=1e-9)
        assert nil[i] == pytest.approx(nil_chance(hand, rules), abs=1e-9)


def test_sampled_deals_respect_the_view() -> None:
    from espadas.robots.expert import play_likelihoods, sample_deals
    from espadas.robots.knowledge import Knowledge

    for seed in range(40):
        rules = [PAGAT, Rules.from_preset("sala", players=5)][seed % 2]
        rng = random.Random(seed)
        game = Game.new(rules, seed=seed)
        while game.phase == "bidding":
            game.bid(rng.choice([b for b in game.legal_bids() if b != "blind_nil"]))
        for _ in range(rng.randrange(rules.players * rules.hand_size)):
            game.play(game.proper_plays().pick(rng))
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        k = Knowledge(view)
        deals = sample_deals(k, 50, seed)
        assert deals.shape == (50, rules.players)
        for row in deals.tolist():
            assert row[seat] == k.hand
            union = 0
            for s, h in enumerate(row):
                assert h.bit_count() == view.cards_left[s]
                assert not union & h
                union |= h
                if s != seat:
                    assert not h & ~k.unseen
                    assert not h & k.voids[s]  # voids shown (no reneges here)
            assert union == k.unseen | k.hand
        weights = play_likelihoods(view, deals, k, seed)
        assert weights.shape == (50,)
        assert ((weights > 0) & (weights <= 1)).all()
        truth = np.array([[int(h) for h in full_view(game, seat).all_held]], dtype=np.int64)
        assert 0 < play_likelihoods(view, truth, k, seed)[0] <= 1


@pytest.mark.parametrize(
    "rules",
    [PAGAT, Rules.from_preset("sala", players=3), Rules.from_preset("sala", players=5)],
    ids=["4", "3", "5"],
)
def test_compiled_exact_search_matches_the_reference(rules: Rules) -> None:
    from espadas.robots.expert import sample_deals
    from espadas.robots.expert.values import exact_value as _exact
    from espadas.robots.expert.values import exact_values as _exact_values
    from espadas.robots.expert.values import value_for as _value_for
    from espadas.robots.knowledge import Knowledge

    for seed in range(25):
        rng = random.Random(seed)
        game = Game.new(rules, seed=seed)
        while game.phase == "bidding":
            bids = [b for b in game.legal_bids() if b != "blind_nil"]
            game.bid(rng.choice([b for b in bids if 0 <= b <= 4] or bids))
        left = rng.choice([1, 2, 3])
        while game.view_for(game.to_act or 0).cards_left[game.to_act or 0] > left:
            game.play(game.proper_plays().pick(rng))
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        deals = sample_deals(Knowledge(view), 4, seed)
        value = _value_for(view, [b if isinstance(b, int) else 0 for b in view.bids])
        candidates = [int(c) for c in view.proper_plays]
        fast = _exact_values(view, deals, candidates, value)
        for i, deal in enumerate(deals.tolist()):
            for j, card in enumerate(candidates):
                assert fast[i, j] == pytest.approx(_exact(view, deal, card, value))


def test_guessed_bids_keep_the_bids_made() -> None:
    from espadas.robots.expert import guess_bids, sample_deals
    from espadas.robots.knowledge import Knowledge

    for rules in (PAGAT, Rules.from_preset("sala", players=5)):
        game = Game.new(rules, seed=4)
        game.bid(3)
        view = game.view_for(game.to_act or 0)
        guessed = guess_bids(view, sample_deals(Knowledge(view), 30, 1))
        assert guessed.shape == (30, rules.players)
        assert (guessed[:, view.bids.index(3)] == 3).all()
        assert ((guessed >= 0) & (guessed <= rules.hand_size)).all()


def test_a_nil_is_bid_only_well_ahead_of_the_best_number() -> None:
    """``experto`` bids Nil only when its search puts the Nil ``NIL_BID_EDGE`` points
    ahead of every number it weighed; a Nil turned down for that says so
    (``search_nil_edge``) and bids the best number."""
    from espadas.robots.expert.robot import NIL_BID_EDGE

    robot = ExpertRobot(seed=5, budget_ms=5)
    rules = Rules.from_preset("estandar")
    nils = turned_down = 0
    for seed in range(40):
        game = Game.new(rules, seed=seed)
        while game.phase == "bidding":
            explained = robot.explain(game.view_for(game.to_act or 0))
            points = {c.action.value: c.points for c in explained.candidates}  # type: ignore[union-attr]
            numbers = [p for b, p in points.items() if b != 0 and p is not None]
            nil = points.get(0)
            if explained.action == Bid(0) and numbers:
                nils += 1
                assert nil is not None and nil - max(numbers) >= NIL_BID_EDGE
            if explained.reason == "search_nil_edge":
                turned_down += 1
                assert nil is not None and nil - max(numbers) < NIL_BID_EDGE
                assert points[explained.action.value] == max(numbers)  # type: ignore[union-attr]
            game.apply(explained.action)
    assert nils > 0 and turned_down > 0, (nils, turned_down)
