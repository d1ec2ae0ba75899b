"""Robots explain their decisions: ``explain(view)`` takes the action ``act`` takes (same
seed, same views), lists candidates that are legal with points where the level has an
estimate, and gives a reason the catalog says in Spanish and English."""

from __future__ import annotations

import math
import random
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from espadas.engine import BLIND_NIL, Action, Bid, Card, Game, Look, NextHand, Play, Rules
from espadas.i18n import LANGS, UI, reason_text, translate
from espadas.robots.expert import ExpertRobot, OmniscientRobot
from espadas.robots.expert.robot import BID_MARGIN, NIL_HABITS, NIL_MARGIN, PLAY_MARGIN
from espadas.robots.explain import (
    BID_REASONS,
    PLAY_REASONS,
    REASONS,
    SEARCH_REASONS,
    Candidate,
    Explanation,
    UnknownReason,
)
from espadas.robots.normal import NormalRobot
from espadas.robots.random_robot import RandomRobot, following

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("estandar", {}),
    ("cien", {}),  # blind nil offered
    ("sala", {"players": 3}),
    ("sala", {"players": 5}),
    ("sala", {"players": 6}),
]


def make(level: str, seed: int) -> Any:
    if level == "aleatorio":
        return RandomRobot(random.Random(seed))
    if level == "normal":
        return NormalRobot(random.Random(seed))
    return ExpertRobot(seed, budget_ms=5)


def turn(game: Game) -> int:
    """The seat to act (there is one)."""
    seat = game.to_act
    assert seat is not None
    return seat


def behind(game: Game) -> None:
    """Puts the first side far behind near the end, so blind nil pays for it."""
    target = game.rules.target
    game.scores = [0, *([int(0.7 * target)] * (len(game.scores) - 1))]


def twin_game(level: str, preset: str, options: dict[str, Any], seed: int, limit: int) -> int:
    """Plays ``limit`` decisions with two robots of one seed per seat, one asked to
    act and one to explain; asserts at each step that they agree and that the
    explanation is sound. Returns how many decisions were checked."""
    rules = Rules.from_preset(preset, **options)
    game = Game.new(rules, seed=seed)
    if rules.blind_nil and seed % 2:
        behind(game)
    actors = [make(level, 100 * seed + s) for s in range(rules.players)]
    explainers = [make(level, 100 * seed + s) for s in range(rules.players)]
    done = 0
    while done < limit and not game.over:
        if game.phase == "hand_end":
            game.apply(NextHand())
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        action = actors[seat].act(view)
        if level == "normal":
            found = explainers[seat].explain(view, points=done % 10 == 0)
        else:
            found = explainers[seat].explain(view)
        assert found.action == action, (level, preset, seat, view.phase)
        check_sound(found, view.legal, following(view, view.legal))
        game.apply(action, by=seat)
        done += 1
    return done


def check_sound(found: Explanation, legal: tuple[Action, ...], proper: tuple[Action, ...]) -> None:
    """What every explanation keeps to."""
    assert found.reason in REASONS
    assert found.candidates, "at least the action itself"
    assert all(c.action in legal for c in found.candidates)
    assert any(c.action == found.action for c in found.candidates)
    assert len({c.action for c in found.candidates}) == len(found.candidates)
    points = [c.points for c in found.candidates if c.points is not None]
    assert all(math.isfinite(p) for p in points)
    assert points == sorted(points, reverse=True), "best first"
    for lang in LANGS:
        text = reason_text(found.reason, lang, found.params, found.habit)
        assert text and "{" not in text and "ui.explain" not in text


@pytest.mark.parametrize("preset,options", CONFIGS)
@pytest.mark.parametrize("level", ["aleatorio", "normal"])
def test_explain_takes_the_action_act_takes(
    level: str, preset: str, options: dict[str, Any]
) -> None:
    for seed in range(3):
        assert twin_game(level, preset, options, seed, 160) > 0


@pytest.mark.parametrize("preset,options", CONFIGS)
def test_expert_explain_takes_the_action_act_takes(preset: str, options: dict[str, Any]) -> None:
    assert twin_game("experto", preset, options, 1, 30) == 30


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["aleatorio", "normal"]),
    st.sampled_from(CONFIGS),
    st.integers(0, 10_000),
)
def test_explain_matches_act_for_any_seed(
    level: str, config: tuple[str, dict[str, Any]], seed: int
) -> None:
    preset, options = config
    twin_game(level, preset, options, seed, 60)


def test_random_robot_weighs_every_proper_action_without_points() -> None:
    game = Game.new(Rules.from_preset("estandar", renege="allowed"), seed=4)
    while game.phase == "bidding":
        game.apply(Bid(3))
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Play)))
    view = game.view_for(turn(game))
    found = RandomRobot(random.Random(2)).explain(view)
    assert found.reason == "random"
    assert [c.action for c in found.candidates] == list(following(view, view.legal))
    assert all(c.points is None for c in found.candidates)
    assert len(found.candidates) < len(view.legal), "reneges are not among them"


def test_expert_points_come_from_its_search() -> None:
    """``search_best``: the action has the most points; ``search_keeps_habit``: no
    candidate beats it by more than the margin."""
    kinds = set()
    for seed in range(4):
        game = Game.new(Rules.from_preset("estandar"), seed=seed)
        robot = ExpertRobot(seed, budget_ms=10)
        for _ in range(30):
            if game.phase == "hand_end":
                game.apply(NextHand())
            view = game.view_for(turn(game))
            found = robot.explain(view)
            mine = found.points_of(found.action)
            if found.reason in SEARCH_REASONS[:2]:
                assert found.habit in PLAY_REASONS or found.habit in BID_REASONS
                assert mine is not None
                best = max(c.points for c in found.candidates if c.points is not None)
                margin = BID_MARGIN if isinstance(found.action, Bid) else PLAY_MARGIN
                if found.habit in NIL_HABITS and not isinstance(found.action, Bid):
                    margin = NIL_MARGIN  # a habit that protects a Nil of its side
                assert found.params["margin"] == margin
                if found.reason == "search_best":
                    assert mine == best
                else:
                    assert best - mine <= margin + 1e-9
                kinds.add(found.reason)
            game.apply(found.action)
    assert kinds == {"search_best", "search_keeps_habit"}


def test_omniscient_explains_too() -> None:
    from espadas.engine import full_view

    game = Game.new(Rules.from_preset("estandar"), seed=2)
    found = OmniscientRobot(1, budget_ms=10).explain(full_view(game, turn(game)))
    assert isinstance(found.action, Bid) and found.reason in SEARCH_REASONS
    assert all(c.points is not None for c in found.candidates)


def test_normal_points_cover_its_own_action() -> None:
    for seed in range(3):
        game = Game.new(Rules.from_preset("estandar"), seed=seed)
        robot = NormalRobot(random.Random(seed))
        for _ in range(8):
            view = game.view_for(turn(game))
            found = robot.explain(view)
            if found.reason not in ("only_card", "only_bid"):
                assert found.points_of(found.action) is not None or isinstance(found.action, Bid)
                assert sum(c.points is not None for c in found.candidates) >= 2
            game.apply(found.action)


def test_normal_points_depend_on_the_view_alone() -> None:
    game = Game.new(Rules.from_preset("sala", players=5), seed=6)
    view = game.view_for(turn(game))
    used = NormalRobot(random.Random(3))
    for _ in range(3):
        used.explain(view)
    assert used.explain(view).candidates == NormalRobot(random.Random(9)).explain(view).candidates


def test_face_down_choice_is_look_or_blind_nil() -> None:
    for robot in (NormalRobot(random.Random(1)), ExpertRobot(1, budget_ms=5)):
        game = Game.new(Rules.from_preset("cien"), seed=3)
        found = robot.explain(game.view_for(turn(game)))
        assert found.reason == "look" and isinstance(found.action, Look)
        assert {c.action for c in found.candidates} == {Look(turn(game)), Bid(BLIND_NIL)}
        behind(game)
        found = robot.explain(game.view_for(turn(game)))
        assert found.reason == "blind_nil" and found.action == Bid(BLIND_NIL)


# The habit that chose: positions from test_normal's scenarios -------------------

PAGAT = Rules.from_preset("pagat")


def scenario(dealer: int, fixed: dict[int, str], bids: list[int], plays: list[str]) -> Game:
    """A deal with ``fixed`` cards (the rest at random, seed 0), bid and played."""
    rng = random.Random(0)
    hands = [0] * 4
    used = 0
    for seat, text in fixed.items():
        for t in text.split():
            hands[seat] |= 1 << Card.parse(t)
            used |= 1 << Card.parse(t)
    rest = [c for c in range(52) if not used >> c & 1]
    rng.shuffle(rest)
    for seat in range(4):
        while hands[seat].bit_count() < 13:
            hands[seat] |= 1 << rest.pop()
    game = Game(PAGAT, first_dealer=dealer)
    game.deal(hands)
    for value in bids:
        game.apply(Bid(value))
    for text in plays:
        game.apply(Play(Card.parse(text)))
    return game


@pytest.mark.parametrize(
    "dealer,fixed,bids,plays,reason",
    [
        (3, {0: "5H 2C 3C 4C", 1: "3H", 2: "2H 7H KH AS KS QS"}, [0, 3, 5, 3], ["5H", "3H"],
         "cover_overtake"),
        (0, {0: "9D TD 2C 3C 4C 5C 6C 7C 2H 3H 4H 5H 6H", 1: "2D", 2: "AD QD 5D"},
         [3, 4, 3, 0], ["2D"], "cover_high"),
        (3, {0: "2C 3D AH KH QH AS", 1: "5C 6C 4D 7D"}, [4, 0, 4, 3], [], "bust_lead"),
        (3, {0: "2H", 1: "9H", 2: "3H 5H KH AH 2C 3C 4C 5C 6C 2D 3D 4D 5D"},
         [3, 0, 4, 3], ["2H", "9H"], "bust_under"),
    ],
)  # fmt: skip
def test_normal_names_the_habit(
    dealer: int, fixed: dict[int, str], bids: list[int], plays: list[str], reason: str
) -> None:
    game = scenario(dealer, fixed, bids, plays)
    found = NormalRobot(random.Random(0)).explain(game.view_for(turn(game)), points=False)
    assert found.reason == reason
    assert found.candidates == (Candidate(found.action),)
    assert "Nil" in reason_text(found.reason, "es") and "Nil" in reason_text(found.reason, "en")


def test_normal_bid_reasons_carry_the_count() -> None:
    game = Game.new(PAGAT, seed=11)
    found = NormalRobot(random.Random(0)).explain(game.view_for(turn(game)), points=False)
    assert found.reason in BID_REASONS
    tricks = found.params["tricks"]
    assert isinstance(tricks, float) and 0 <= tricks <= 13
    assert f"{tricks:g}".replace(".", ",") in reason_text(found.reason, "es", found.params)


# The catalog ---------------------------------------------------------------------


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_has_a_text_in_both_languages(reason: str) -> None:
    key = f"ui.explain.{reason}"
    assert set(UI[key]) == set(LANGS)
    es, en = UI[key]["es"], UI[key]["en"]
    assert isinstance(es, str) and isinstance(en, str) and es != en
    assert fields(es) == fields(en) <= {"tricks", "nil", "margin", "nil_edge"}
    params = {"tricks": 3.5, "nil": 70, "margin": 15.0, "nil_edge": 20.0}
    assert translate(key, "es", **params) != translate(key, "en", **params)


def test_no_text_without_a_reason() -> None:
    texts = {k.removeprefix("ui.explain.") for k in UI if k.startswith("ui.explain.")}
    assert texts == set(REASONS)


def test_unknown_reasons_are_refused() -> None:
    with pytest.raises(UnknownReason):
        Explanation(Bid(3), (Candidate(Bid(3)),), "because")
    with pytest.raises(UnknownReason):
        Explanation(Bid(3), (Candidate(Bid(3)),), "search_best", habit="whim")
