"""The play-out kernel against the engine, the single source of the rules.

Random positions from real engine games (every preset and first-trick option):
the kernel's proper plays equal the engine's, and every card of a kernel
play-out is accepted by the engine in order, ending with the same trick counts.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from espadas.engine import Game, Rules
from espadas.engine.hand import first_lead_card
from espadas.engine.record import game_record, rebuild
from espadas.robots import kernel

RULES = [
    Rules.from_preset("pagat"),
    Rules.from_preset("estandar", renege="prevented"),
    Rules.from_preset("cien"),
    Rules.from_preset("sala", first_lead="two_of_clubs"),
    Rules.from_preset("sala", players=3),
    Rules.from_preset("sala", players=5, spades_in_first_trick="forbidden"),
    Rules.from_preset("sala", players=6, first_lead="two_of_clubs"),
]


def position(rules: Rules, seed: int) -> Game:
    """A game stopped at a random point of the play of its first hand."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed)
    while game.phase == "bidding":
        bids = [b for b in game.legal_bids() if b != "blind_nil"]
        game.bid(rng.choice([b for b in bids if 0 <= b <= 3] or bids))  # Nil bids too
    stop = rng.randrange(rules.players * rules.hand_size)
    for _ in range(stop):
        game.play(game.proper_plays().pick(rng))
    return game


def kernel_args(game: Game) -> dict[str, Any]:
    hand = game.hand
    rules = game.rules
    n = rules.players
    trick = hand.current_trick()
    assert trick is not None
    leader, cards = trick
    trick0 = np.zeros(n, dtype=np.int64)
    trick0[: len(cards)] = cards
    forced = -1
    if rules.first_lead == "two_of_clubs":
        forced = first_lead_card(rules)
    return {
        "n": n,
        "size": rules.hand_size,
        "leader": leader,
        "trick0": trick0,
        "trick_len0": len(cards),
        "tricks0": np.array(hand.tricks, dtype=np.int64),
        "broken0": hand.broken,
        "plays_done0": len(hand.plays),
        "first_forbidden": rules.spades_in_first_trick == "forbidden",
        "forced0": forced,
        "bids": np.array([hand.bids], dtype=np.int64),
        "partner": np.array(
            [(s + 2) % 4 if rules.partnerships else -1 for s in range(n)], dtype=np.int64
        ),
    }


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.preset}-{r.players}")
def test_proper_plays_match_the_engine(rules: Rules) -> None:
    for seed in range(150):
        game = position(rules, seed)
        hand = game.hand
        a = kernel_args(game)
        led = int(a["trick0"][0]) // 13 if a["trick_len0"] else -1
        mask = kernel.proper_mask(
            hand.held[hand.to_act],
            led,
            a["trick_len0"] == 0,
            hand.broken,
            a["first_forbidden"] and len(hand.plays) < rules.players,
            a["forced0"] if not hand.plays else -1,
        )
        assert mask == int(game.proper_plays()), (seed, game_record(game))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.preset}-{r.players}")
@pytest.mark.parametrize("eps", [0, 80, 1000])
def test_playouts_are_legal_in_the_engine(rules: Rules, eps: int) -> None:
    for seed in range(40):
        game = position(rules, seed)
        hand = game.hand
        a = kernel_args(game)
        rows = 3
        held = np.array([hand.held] * rows, dtype=np.int64)
        left = rules.players * rules.hand_size - len(hand.plays)
        trace = np.full((rows, left), -1, dtype=np.int64)
        out = kernel.playouts(
            held,
            a["n"],
            a["size"],
            a["leader"],
            a["trick0"],
            a["trick_len0"],
            a["tricks0"],
            a["broken0"],
            a["plays_done0"],
            a["first_forbidden"],
            a["forced0"],
            a["bids"],
            a["partner"],
            np.full(rows, -1, dtype=np.int64),
            np.array([seed * 7 + r for r in range(rows)], dtype=np.int64),
            eps,
            trace,
        )
        for r in range(rows):
            copy = rebuild(game_record(game))
            for card in trace[r]:
                assert int(card) in copy.proper_plays(), (seed, r, game_record(copy))
                copy.play(int(card))
            assert copy.hand.over
            assert copy.hand.tricks == [int(x) for x in out[r]]


def test_first_card_is_played_first() -> None:
    game = position(RULES[0], 3)
    a = kernel_args(game)
    hand = game.hand
    proper = list(game.proper_plays())
    held = np.array([hand.held] * len(proper), dtype=np.int64)
    trace = np.full((len(proper), 52 - len(hand.plays)), -1, dtype=np.int64)
    kernel.playouts(
        held, 4, 13, a["leader"], a["trick0"], a["trick_len0"], a["tricks0"], a["broken0"],
        a["plays_done0"], False, -1, a["bids"], a["partner"],
        np.array(proper, dtype=np.int64), np.arange(len(proper), dtype=np.int64), 80, trace,
    )  # fmt: skip
    assert [int(t[0]) for t in trace] == [int(c) for c in proper]


def test_same_seed_same_playout() -> None:
    game = position(RULES[1], 5)
    a = kernel_args(game)
    held = np.array([game.hand.held] * 2, dtype=np.int64)

    def run() -> np.ndarray:
        out: np.ndarray = kernel.playouts(
            held, 4, 13, a["leader"], a["trick0"], a["trick_len0"], a["tricks0"],
            a["broken0"], a["plays_done0"], False, -1, a["bids"], a["partner"],
            np.array([-1, -1]), np.array([11, 12]), 500, kernel.NO_TRACE,
        )  # fmt: skip
        return out

    assert (run() == run()).all()
    assert kernel.COMPILED


def policy_card(
    seat: int, hands: list[int], trick: list[int], leader: int, bids: list[int], tricks: list[int]
) -> int:
    """The play-out policy's card (no random plays) for ``seat`` in a 4-seat game."""
    n = 4
    cards = np.zeros(n, dtype=np.int64)
    cards[: len(trick)] = trick
    led = trick[0] // 13 if trick else -1
    legal = kernel.proper_mask(hands[seat], led, not trick, True, False, -1)
    card, _ = kernel.choose(
        seat, legal, np.array(hands, dtype=np.int64), cards, len(trick), leader,
        np.array(bids, dtype=np.int64), np.array(tricks, dtype=np.int64),
        np.array([2, 3, 0, 1], dtype=np.int64), n, 13, 1, 0,
        np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64),
    )  # fmt: skip
    return int(card)


def mask(*cards: int) -> int:
    return sum(1 << c for c in cards)


AH, KH, QH, TH, NINE_H, FIVE_H, FOUR_H, TWO_H, AS = 38, 37, 36, 34, 33, 29, 28, 26, 51


def test_policy_ducks_once_the_contract_is_made() -> None:
    # Seat 1's side bid 4 and took 4: it ducks with its highest losing heart.
    hands = [mask(TWO_H), mask(AH, QH, FIVE_H), mask(FOUR_H), mask(TH)]
    card = policy_card(1, hands, [KH], 0, [3, 2, 3, 2], [3, 3, 3, 1])
    assert card == QH


def test_policy_covers_the_partners_nil() -> None:
    # Seat 3 bid Nil and its nine of hearts is winning: seat 1 overtakes it cheaply.
    hands = [mask(KH), mask(TH, TWO_H, AS), mask(QH), mask(FIVE_H)]
    card = policy_card(1, hands, [NINE_H, FOUR_H], 3, [3, 4, 3, 0], [0, 0, 0, 0])
    assert card == TH
