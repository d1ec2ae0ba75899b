"""The random robot: always a legal action, never a renege nor an accusation,
repeatable for a seed, and it only ever sees a view."""

from __future__ import annotations

import random

import pytest

from espadas.engine import (
    BLIND_NIL,
    Accuse,
    Action,
    Bid,
    Game,
    Look,
    Play,
    PlayerView,
    Rules,
)
from espadas.robots import RandomRobot, Robot
from robot_helpers import TABLES, play_robots


def robots_for(rules: Rules, seed: int) -> dict[int, Robot]:
    return {s: RandomRobot(random.Random(seed * 100 + s)) for s in range(rules.players)}


def run_hands(rules: Rules, seed: int, hands: int) -> list[tuple[int, Action]]:
    """Plays ``hands`` hands with robots in every seat, checking each action."""
    game = Game.new(rules, seed=seed)
    return play_robots(game, robots_for(rules, seed), hands=hands, check=check_action)


def check_action(game: Game, view: PlayerView, action: Action) -> None:
    assert action in view.legal
    assert not isinstance(action, Accuse)
    if isinstance(action, Play):
        assert action.card in game.hand.proper_plays(), "a robot never reneges"


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_legal_over_many_views(preset: str, options: dict[str, int]) -> None:
    rules = Rules.from_preset(preset, **options)
    for seed in range(6):
        taken = run_hands(rules, seed, hands=2)
        plays = [a for _, a in taken if isinstance(a, Play)]
        assert len(plays) >= rules.hand_size * rules.players


@pytest.mark.parametrize(("preset", "options"), TABLES)
def test_deterministic_for_a_seed(preset: str, options: dict[str, int]) -> None:
    rules = Rules.from_preset(preset, **options)
    assert run_hands(rules, 11, hands=1) == run_hands(rules, 11, hands=1)
    assert run_hands(rules, 11, hands=1) != run_hands(rules, 12, hands=1)


def test_never_reneges_when_renege_is_allowed() -> None:
    rules = Rules.from_preset("estandar")
    assert rules.renege == "allowed"
    for seed in range(10):
        game_actions = run_hands(rules, seed, hands=1)  # check_action asserts no renege
        assert game_actions


def test_looks_or_bids_blind_nil_at_random() -> None:
    rules = Rules.from_preset("cien")
    seen: set[str] = set()
    for seed in range(30):
        for _, action in run_hands(rules, seed, hands=1):
            if isinstance(action, Look):
                seen.add("look")
            elif isinstance(action, Bid) and action.value == BLIND_NIL:
                seen.add("blind")
    assert seen == {"look", "blind"}


def test_refuses_a_view_with_nothing_to_do() -> None:
    game = Game.new(Rules(), seed=1)
    idle = next(s for s in range(4) if s != game.to_act)
    with pytest.raises(ValueError):
        RandomRobot(random.Random(0)).act(game.view_for(idle))


def test_uniform_enough_among_bids() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=4)
    view = game.view_for(game.to_act or 0)
    robot = RandomRobot(random.Random(9))
    counts: dict[Action, int] = {}
    for _ in range(2800):
        action = robot.act(view)
        counts[action] = counts.get(action, 0) + 1
    assert set(counts) == set(view.legal)
    assert min(counts.values()) > 100
