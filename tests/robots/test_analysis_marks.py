"""The marks of the analysis (``espadas.robots.analysis``): a loss is marked only when it
is clear of the search's own noise (more than ``ERROR_FACTOR`` standard errors of the
difference, paired over the same sampled deals), a number bid is marked against Nil
only when the Nil is made more often than not with ``normal`` at every seat, and on
decisions whose answer is known (``tests/analysis_sets.py``) at most one right answer
in twenty is marked while the plain mistakes still are."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from analysis_sets import Case, mistake_cases, right_cases, run
from espadas.cli.analyze import decision_line
from espadas.engine import Action, Bid, CardSet, Game, Rules
from espadas.robots import analysis
from espadas.robots.analysis import (
    ERROR_FACTOR,
    NIL_LEAST,
    THRESHOLDS,
    Decision,
    Verdict,
    judge,
    mark_for,
    verdict_json,
)
from espadas.robots.noise import Samples, pooled

BUDGET = 50.0
"""Search budget (ms) of the tests: a third of experto's."""


# the error of a difference ------------------------------------------------------------
def test_the_error_is_paired_deal_by_deal() -> None:
    rng = np.random.default_rng(1)
    deal = rng.normal(0.0, 60.0, 400)  # what each deal is worth, whatever the action
    values: dict[Action, np.ndarray] = {
        Bid(2): deal + 10.0 + rng.normal(0.0, 2.0, 400),
        Bid(3): deal,
    }
    s = Samples(values, np.ones(400), np.arange(400))
    assert s.mean(Bid(2)) - s.mean(Bid(3)) == pytest.approx(10.0, abs=0.3)
    assert s.error(Bid(2), Bid(3)) == pytest.approx(2.0 / 20.0, rel=0.15)
    assert s.error(Bid(3), Bid(2)) == s.error(Bid(2), Bid(3))
    assert s.error(Bid(2), Bid(2)) == 0.0


def test_rows_of_one_draw_count_as_one() -> None:
    rng = np.random.default_rng(2)
    once = rng.normal(5.0, 20.0, 100)
    values: dict[Action, np.ndarray] = {Bid(2): np.repeat(once, 4), Bid(3): np.zeros(400)}
    apart = Samples(values, np.ones(400), np.arange(400))
    kept = Samples(values, np.ones(400), np.repeat(np.arange(100), 4))
    assert kept.error(Bid(2), Bid(3)) == pytest.approx(2 * apart.error(Bid(2), Bid(3)), rel=0.05)
    both = pooled([kept, kept])
    assert both is not None and len(set(both.draws.tolist())) == 200
    assert both.mean(Bid(2)) == pytest.approx(kept.mean(Bid(2)))
    assert pooled([kept, None]) is None


def test_a_loss_within_twice_its_error_is_not_marked() -> None:
    assert ERROR_FACTOR == 2.0
    assert mark_for(12.0, 5.9) == "mistake" and mark_for(12.0, 6.0) is None
    assert mark_for(35.0, 10.0) == "blunder" and mark_for(35.0, 20.0) is None
    assert mark_for(THRESHOLDS["inaccuracy"] - 0.1, 0.0) is None
    assert mark_for(None, None) is None


# a bid against Nil -----------------------------------------------------------------------
def ak_clubs_bid() -> Decision:
    """``estandar``, the dealer (seat 0) bids last, after 2, 3 (its partner) and 4, with
    ♠T7 ♥93 ♦K765 ♣AK754, and bids 2: the search prefers Nil by far."""
    game = Game(Rules.from_preset("estandar"), first_dealer=0)
    hands = ("T7.93.K765.AK754", "K53.KJT874.8.JT6", "J964.AQ2.J432.92", "AQ82.65.AQT9.Q83")
    game.deal([int(CardSet.parse(h)) for h in hands])
    for bid in (2, 3, 4):
        game.bid(bid)
    view = game.view_for(0)
    return Decision(0, 3, 0, "bid", view, Bid(2))


@functools.cache
def ak_clubs_verdict() -> Verdict:
    return judge(ak_clubs_bid(), BUDGET, seed=1)


def test_a_bid_is_marked_against_nil_with_the_chance_of_the_nil() -> None:
    v = ak_clubs_verdict()
    assert v.best().action == Bid(0) and v.appraisal.best().action == Bid(0)
    assert v.nil_chance is not None and v.nil_chance > NIL_LEAST
    assert v.mark is not None and v.loss is not None and v.loss_error is not None
    assert v.loss > ERROR_FACTOR * v.loss_error
    entry = verdict_json(v)
    assert entry["best"] == 0 and entry["nil_chance"] == round(v.nil_chance, 2)
    chance = round(100 * v.nil_chance)
    es = decision_line(v, 4, "es")
    assert "(−" in es and " ± " in es
    assert f"el Nil se cumple el {chance} % de las veces contra la defensa de normal" in es
    en = decision_line(v, 4, "en")
    assert f"the Nil is made {chance}% of the time against normal's defence" in en


def test_a_nil_made_half_the_time_or_less_is_set_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "nil_against", lambda *_: 0.5)
    v = judge(ak_clubs_bid(), BUDGET, seed=1)
    assert v.appraisal.best().action == Bid(0)  # the search still prefers it
    assert v.best().action != Bid(0) and isinstance(v.best().action, Bid)
    assert v.nil_chance == 0.5 and v.mark is None
    assert verdict_json(v)["best"] != 0


def test_the_nil_is_checked_only_when_the_search_prefers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(*_: object) -> float:
        raise AssertionError("the Nil was checked")

    monkeypatch.setattr(analysis, "nil_against", never)
    game = Game(Rules.from_preset("estandar"), first_dealer=0)
    hands = ("AKQJ.AKQ.AK.AKQ2", "T987.JT98.QJT9.J", "6543.765.8765.T9", "2.432.432.876543")
    game.deal([int(CardSet.parse(h)) for h in hands])
    for bid in (2, 3, 2):
        game.bid(bid)
    v = judge(Decision(0, 3, 0, "bid", game.view_for(0), Bid(10)), BUDGET, seed=1)
    assert v.nil_chance is None and v.best().action not in (Bid(0), Bid(10))
    assert v.mark is not None and verdict_json(v)["nil_chance"] is None


# decisions with a known answer -------------------------------------------------------------
@functools.cache
def cases() -> tuple[list[Case], list[Case]]:
    return right_cases(), mistake_cases()


def test_obvious_bids_are_not_marked() -> None:
    bids = [c for c in cases()[0] if c.category == "number_bid"]
    assert len(bids) == 20
    verdicts = run(bids, BUDGET, 1)
    marked = [(c.name, v.loss) for c, v in zip(bids, verdicts, strict=True) if v.mark]
    assert len(marked) <= 1, marked
    assert not [v for v in verdicts if v.mark and v.best().action == Bid(0)]


def test_nil_holding_the_ace_of_spades_is_a_blunder() -> None:
    nils = [c for c in cases()[1] if c.name.endswith("-nil:0")]
    assert len(nils) >= 10
    for case, v in zip(nils, run(nils, BUDGET, 1), strict=True):
        assert v.mark == "blunder", (case.name, v.loss, v.loss_error)
        assert isinstance(v.best().action, Bid) and v.best().action != Bid(0)


@pytest.mark.slow
def test_at_most_one_right_answer_in_twenty_is_marked_and_plain_mistakes_are() -> None:
    right, mistakes = cases()
    assert len(right) >= 100
    marked = [c.name for c, v in zip(right, run(right, BUDGET, 1), strict=True) if v.mark]
    assert 20 * len(marked) <= len(right), marked
    verdicts = run(mistakes, BUDGET, 1)
    missed = [c.name for c, v in zip(mistakes, verdicts, strict=True) if v.mark is None]
    fixture = [c for c in mistakes if c.category in ("nil", "overtake", "bag")]
    assert len(fixture) == 8 and not [c for c in fixture if c.name in missed]
    assert 10 * len(missed) <= len(mistakes), missed
