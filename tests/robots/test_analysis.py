"""The analysis of a game (``espadas.robots.analysis``): plain mistakes are marked and
good plays are not, the values come from the seat's own view only (re-dealing the
cards it could not see changes nothing), decisions are numbered as FORMATS.md
section 2 numbers actions, and worker processes give the same result."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from espadas.engine import BLIND_NIL, Bid, Card, Game, Look, NextHand, Play, Rules
from espadas.engine.cardset import CardSet
from espadas.engine.codec import bid_from_json, card_from_json
from espadas.engine.record import game_record, rebuild
from espadas.robots.analysis import (
    CONFIRM,
    MARKS,
    THRESHOLDS,
    Decision,
    analyse,
    analysis_json,
    decisions,
    judge,
    seed_of,
)
from espadas.robots.appraisal import Appraiser, mean_appraisal
from espadas.robots.registry import LEVELS, UnknownRobot, make_robot

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "analysis_positions.json"
POSITIONS: list[dict[str, Any]] = json.loads(FIXTURES.read_text())
IDS = [f"{p['kind']}-{i}" for i, p in enumerate(POSITIONS)]
"""Positions where a seat, last to play to a trick, may drop its partner's Nil, overtake
its partner's winner or take the tenth bag (``kind``: ``nil``, ``overtake``, ``bag``):
found in games of ``normal`` robots (``from``), the key decision at ``hand``/``action``,
with the record cut just after a wrong card (``mistake``) or the best one (``good``)
and the ``right`` cards; with three cards left or fewer the exact search of the true
deal confirmed that every wrong card loses at least 15 points."""
BUDGET = 50.0
"""Search budget (ms) of the tests: a third of experto's, enough for these positions."""


def robot_record(preset: str, seed: int, plays_in_last: int, hands: int = 2) -> dict[str, Any]:
    """A game of ``normal`` robots: ``hands - 1`` finished hands and ``plays_in_last``
    plays of the next one."""
    game = Game.new(Rules.from_preset(preset), seed=seed)
    robots = [make_robot("normal", seed=seed + s) for s in range(4)]
    while not game.over:
        if game.phase == "hand_end":
            game.apply(NextHand())
            continue
        if len(game.scored) == hands - 1 and len(game.hand.plays) == plays_in_last:
            break
        seat = game.to_act
        assert seat is not None
        game.apply(robots[seat].act(game.view_for(seat)), by=seat)
    assert len(game.hands) == hands and len(game.hand.plays) == plays_in_last
    return game_record(game, ["a", "b", "c", "d"])


def key_decision(record: dict[str, Any], position: dict[str, Any]) -> Decision:
    found = decisions(record, [position["seat"]])
    return next(d for d in found if (d.hand, d.action) == (position["hand"], position["action"]))


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_plain_mistakes_are_marked(position: dict[str, Any]) -> None:
    verdict = judge(key_decision(position["mistake"], position), BUDGET, seed=3)
    assert verdict.loss is not None and verdict.loss >= THRESHOLDS["mistake"]
    assert verdict.mark in ("mistake", "blunder")
    best = verdict.appraisal.best().action
    assert isinstance(best, Play) and str(best.card) in position["right"]
    assert isinstance(verdict.decision.taken, Play)
    assert str(verdict.decision.taken.card) not in position["right"]


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_good_plays_are_not_marked(position: dict[str, Any]) -> None:
    verdict = judge(key_decision(position["good"], position), BUDGET, seed=3)
    assert verdict.mark is None and verdict.loss is not None
    assert verdict.loss < THRESHOLDS["inaccuracy"]
    taken = verdict.decision.taken
    assert isinstance(taken, Play) and str(taken.card) in position["right"]
    assert verdict.appraisal.taken.points is not None


def test_every_kind_of_plain_mistake_is_among_the_positions() -> None:
    assert {p["kind"] for p in POSITIONS} == {"nil", "overtake", "bag"}


def test_dropping_the_nil_is_a_blunder() -> None:
    nil = next(p for p in POSITIONS if p["kind"] == "nil")
    verdict = judge(key_decision(nil["mistake"], nil), BUDGET, seed=1)
    assert verdict.mark == "blunder"


def test_decisions_are_numbered_as_the_replay_numbers_actions() -> None:
    record = robot_record("pagat", 4, 9)
    found = decisions(record)
    assert {d.seat for d in found} == {0, 1, 2, 3}
    for d in found:
        entry = record["hands"][d.hand]
        bids = entry["bids"]
        if d.stage == "play":
            assert d.taken == Play(card_from_json(entry["plays"][d.action - len(bids)]))
        else:
            assert d.taken == Bid(bid_from_json(bids[d.action]))
        assert d.view.seat == d.seat and d.taken in d.view.legal
    assert len(found) == sum(len(h["bids"]) + len(h["plays"]) for h in record["hands"])


def test_blind_nil_and_looking_are_decisions() -> None:
    game = Game.new(Rules.from_preset("cien"), seed=6)
    first = game.to_act
    game.bid(BLIND_NIL)
    second = game.to_act
    assert first is not None and second is not None
    game.bid(3)
    found = decisions(game_record(game))
    assert [(d.seat, d.stage, d.taken) for d in found] == [
        (first, "look", Bid(BLIND_NIL)),
        (second, "look", Look(second)),
        (second, "bid", Bid(3)),
    ]
    assert found[0].view.held is None and found[2].view.held is not None
    for verdict in analyse(found, seed=2):
        points = {c.action: c.points for c in verdict.appraisal.candidates}
        if verdict.decision.stage == "look":
            assert set(points) == {Look(verdict.decision.seat), Bid(BLIND_NIL)}
        else:
            assert Bid(0) in points and Bid(13) in points and Bid(3) in points
        assert all(p is not None for p in points.values())
        assert verdict.loss is not None and verdict.loss >= 0


def test_the_same_seed_gives_the_same_analysis_and_jobs_change_nothing() -> None:
    found = decisions(robot_record("pagat", 8, 12, hands=1))[:10]
    one = analysis_json(analyse(found, seed=5), range(4))
    again = analysis_json(analyse(found, seed=5), range(4))
    parallel = analysis_json(analyse(found, seed=5, jobs=2), range(4))
    assert one == again == parallel
    other = analysis_json(analyse(found, seed=6), range(4))
    assert [d["taken"] for d in other["decisions"]] == [d["taken"] for d in one["decisions"]]


def test_the_json_object() -> None:
    position = POSITIONS[0]
    found = [key_decision(position["mistake"], position)]
    seat = position["seat"]
    out = analysis_json(analyse(found, seed=3), [seat])
    assert list(out) == ["format", "decisions", "summary"]
    assert out["format"] == "espadas-analysis/1"
    (entry,) = out["decisions"]
    assert list(entry) == [
        "hand",
        "action",
        "seat",
        "taken",
        "best",
        "loss",
        "loss_error",
        "mark",
        "nil_chance",
        "candidates",
    ]
    assert entry["nil_chance"] is None  # a card, not a bid against Nil
    assert entry["loss_error"] >= 0 and entry["loss"] > 2 * entry["loss_error"]
    assert entry["taken"] == position["mistake"]["hands"][-1]["plays"][-1]
    assert entry["best"] in position["right"]
    points = {c["action"]: c["points"] for c in entry["candidates"]}
    assert entry["taken"] in points and entry["best"] in points
    assert entry["loss"] == pytest.approx(points[entry["best"]] - points[entry["taken"]], abs=0.11)
    (average,) = [s.pop("average_loss") for s in out["summary"].values()]
    assert average == pytest.approx(entry["loss"], abs=0.051)
    assert out["summary"] == {
        str(seat): {"decisions": 1, "marks": {m: int(m == entry["mark"]) for m in MARKS}}
    }


def test_an_equivalent_card_takes_the_value_of_its_run() -> None:
    # every decision of a robot game: the card taken always has a value when there was a
    # choice, even when the search weighed another card of its run
    found = [d for d in decisions(robot_record("pagat", 11, 30, hands=1), [1]) if d.stage == "play"]
    for verdict in analyse(found, seed=1):
        cands = verdict.appraisal.candidates
        actions = [c.action for c in cands]
        assert verdict.decision.taken in actions
        assert len(set(actions)) == len(actions)
        if len(cands) > 1:
            assert verdict.appraisal.taken.points is not None


def test_maestro_is_for_analysis_and_the_arena_only() -> None:
    assert "maestro" not in LEVELS
    with pytest.raises(UnknownRobot):
        make_robot("maestro", seed=1)
    maestro = make_robot("maestro", seed=1, arena=True)
    expert = make_robot("experto", seed=1)
    assert maestro.budget_ms == 4 * expert.budget_ms  # type: ignore[attr-defined]


# re-dealing what the seat could not see ---------------------------------------------------
def redeal(record: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The record with the unplayed cards of the last hand's other seats dealt again
    among them at random: same cards played in the same order, every shown void (and
    a spade led before spades were broken) respected, so the record stays legal."""
    game = rebuild(record)
    hand = game.hand
    view = game.view_for(seat)
    n = game.rules.players
    others = [s for s in range(n) if s != seat]
    played = [0] * n
    void = [0] * n
    tricks = [*view.tricks, *([view.trick] if view.trick is not None else [])]
    broken = False
    for trick in tricks:
        led = int(trick.cards[0]) // 13 if trick.cards else None
        for k, card in enumerate(trick.cards):
            s = (trick.leader + k) % n
            played[s] |= 1 << int(card)
            if k == 0 and int(card) >= 39 and not broken:
                void[s] |= (1 << 39) - 1
            elif led is not None and int(card) // 13 != led:
                void[s] |= ((1 << 13) - 1) << (13 * led)
        broken = broken or any(int(c) >= 39 for c in trick.cards)
    pool = [c for s in others for c in range(52) if hand.held[s] >> c & 1]
    need = {s: hand.held[s].bit_count() for s in others}
    for _ in range(10_000):
        rng.shuffle(pool)
        new, at, ok = {}, 0, True
        for s in others:
            mask = sum(1 << c for c in pool[at : at + need[s]])
            at += need[s]
            ok = ok and not mask & void[s]
            new[s] = mask
        if ok:
            break
    else:
        raise AssertionError("no re-deal found")
    out = copy.deepcopy(record)
    deal = out["hands"][-1]["deal"]
    for s in others:
        deal[s] = str(CardSet(played[s] | new[s]))
    rebuild(out)  # still legal
    return out


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays=st.integers(6, 30), seat=st.integers(0, 3), shuffle=st.integers(0, 2**31))
def test_the_analysis_does_not_depend_on_hidden_cards(plays: int, seat: int, shuffle: int) -> None:
    record = robot_record("pagat", 3, plays)
    other = redeal(record, seat, random.Random(shuffle))
    last = len(record["hands"]) - 1
    assert other["hands"][last]["plays"] == record["hands"][last]["plays"]
    found = [d for d in decisions(record, [seat]) if d.hand == last]
    moved = [d for d in decisions(other, [seat]) if d.hand == last]
    assert [d.view for d in found] == [d.view for d in moved]
    first = analysis_json(analyse(found, seed=4), [seat])
    second = analysis_json(analyse(moved, seed=4), [seat])
    assert first == second
    assert [Card(d["taken"]) for d in first["decisions"] if isinstance(d["taken"], str)]


def test_a_redeal_moves_hidden_cards() -> None:
    record = robot_record("pagat", 3, 12)
    other = redeal(record, 0, random.Random(1))
    before, after = record["hands"][-1]["deal"], other["hands"][-1]["deal"]
    assert before[0] == after[0] and before != after


def test_a_marked_decision_is_searched_again_and_averaged() -> None:
    position = next(p for p in POSITIONS if p["kind"] == "bag")
    decision = key_decision(position["mistake"], position)
    first = Appraiser(seed_of(7, decision), BUDGET).appraise(decision.view, decision.taken)
    assert (first.loss() or 0.0) >= THRESHOLDS["inaccuracy"]
    rng = random.Random(seed_of(7, decision))
    more = [
        Appraiser(rng.getrandbits(31), BUDGET).appraise(decision.view, decision.taken)
        for _ in range(CONFIRM)
    ]
    verdict = judge(decision, BUDGET, seed=7)
    for c in verdict.appraisal.candidates:
        values = [
            p
            for a in (first, *more)
            for x in a.candidates
            if x.action == c.action
            for p in [x.points]
        ]
        assert c.points == pytest.approx(sum(v or 0.0 for v in values) / (1 + CONFIRM))
    assert verdict.loss == pytest.approx(verdict.appraisal.loss())
    same = mean_appraisal([first, first])
    assert same.candidates == first.candidates and same.taken == first.taken


def test_a_renege_is_not_valued_and_is_a_blunder() -> None:
    game = Game.new(Rules.from_preset("estandar"), seed=12)
    robot = make_robot("normal", seed=1)
    while True:
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        off = [a for a in view.legal if isinstance(a, Play) and a.card not in view.proper_plays]
        if off:
            game.apply(off[0], by=seat)
            break
        game.apply(robot.act(view), by=seat)
    verdict = analyse(decisions(game_record(game), [seat]))[-1]
    assert verdict.decision.taken == off[0]
    assert verdict.loss is None and verdict.mark == "blunder"
    assert verdict.appraisal.taken.points is None
    assert all(c.points is not None for c in verdict.appraisal.candidates[:-1])
    entry = analysis_json([verdict], [seat])["decisions"][0]
    assert entry["loss"] is None and entry["mark"] == "blunder"
