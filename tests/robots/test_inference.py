"""experto's inference: the bids read as ``normal`` makes them, a separate weight for
the partner's cards and the opponents', and sampled deals resampled by weight."""

from __future__ import annotations

import random

import numpy as np
import pytest

from espadas.engine import Game, Rules, full_view
from espadas.robots.expert import inference
from espadas.robots.expert.robot import ExpertRobot
from espadas.robots.knowledge import Knowledge
from espadas.robots.registry import make_robot

RULE_SETS = {
    "estandar": Rules.from_preset("estandar", renege="prevented"),
    "cien": Rules.from_preset("cien"),
    "sala-5": Rules.from_preset("sala", players=5),
    "no-hell": Rules.from_preset("estandar", renege="prevented", no_hell=True),
}


def bid_then_view(rules: Rules, seed: int, plays: int = 0) -> Game:
    """A game whose bids (and first ``plays`` cards) ``normal`` made."""
    game = Game.new(rules, seed=seed)
    robots = [make_robot("normal", seed + s) for s in range(rules.players)]
    while game.phase == "bidding" or (game.phase == "playing" and plays > 0):
        seat = game.to_act
        assert seat is not None
        if game.phase == "playing":
            plays -= 1
        game.apply(robots[seat].act(game.view_for(seat)), seat)
    return game


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_true_deal_fits_normals_bids(name: str) -> None:
    """``normal``'s bids are a function of its hand: the true deal never weighs less
    than 1, while deals of the same cards shuffled among the others often do."""
    rules = RULE_SETS[name]
    shuffled_less = 0
    for seed in range(40):
        game = bid_then_view(rules, seed)
        seat = seed % rules.players
        view = game.view_for(seat)
        k = Knowledge(view)
        truth = np.array([[int(h) for h in full_view(game, seat).all_held]], dtype=np.int64)
        assert inference.bid_likelihoods(view, truth, k)[0] == pytest.approx(1.0)
        deals = inference.sample_deals(k, 50, seed)
        w = inference.bid_likelihoods(view, deals, k)
        assert ((w > 0) & (w <= 1)).all()
        shuffled_less += int((w < 0.5).any())
    assert shuffled_less >= 30


def test_the_partners_cards_the_opponents_leads_and_follows_weigh_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deal's weight is one factor per card another seat played off the policy:
    the partner's (``MISS_PARTNER``), the opponents' leads (``MISS_LEAD``) and the
    cards they follow with (``MISS``) multiply."""
    rules = RULE_SETS["estandar"]
    missed = [0, 0, 0]
    knobs = ("MISS_PARTNER", "MISS_LEAD", "MISS")
    for seed in range(30):
        game = bid_then_view(rules, seed, plays=random.Random(seed).randrange(8, 40))
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        k = Knowledge(view)
        deals = inference.sample_deals(k, 40, seed)

        def weights(*values: float) -> np.ndarray:
            for name, value in zip(knobs, values, strict=True):
                monkeypatch.setattr(inference, name, value)
            return inference.play_likelihoods(view, deals, k, seed)  # noqa: B023

        each = [weights(*(0.5 if i == j else 1.0 for j in range(3))) for i in range(3)]
        assert np.allclose(weights(0.5, 0.5, 0.5), each[0] * each[1] * each[2])
        assert np.allclose(weights(1.0, 1.0, 1.0), 1.0)
        for i in range(3):
            missed[i] += int((each[i] < 1).any())
    assert min(missed) >= 10, missed


def test_resampled_deals_fit_the_view_and_the_evidence() -> None:
    """``experto`` draws ``OVERSAMPLE`` times the deals it plays out and keeps them in
    proportion to their weight: every kept deal fits the view, all weigh the same,
    and the kept ones explain the cards played better than a plain draw."""
    robot = ExpertRobot(3, budget_ms=40)
    kept_mean = drawn_mean = 0.0
    for seed in range(20):
        game = bid_then_view(RULE_SETS["estandar"], seed, plays=20 + seed)
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        k = Knowledge(view)
        deals, weights = robot._deals(view, 100)
        assert deals.shape == (100, 4) and np.all(weights == 1.0)
        for row in deals.tolist():
            assert row[seat] == k.hand
            assert sum(h for s, h in enumerate(row) if s != seat) == k.unseen
            assert all(not row[s] & k.voids[s] for s in range(4) if s != seat)
        kept_mean += float(inference.play_likelihoods(view, deals, k, seed).mean())
        plain = inference.sample_deals(k, 100, seed)
        drawn_mean += float(inference.play_likelihoods(view, plain, k, seed).mean())
    assert kept_mean > 1.5 * drawn_mean
