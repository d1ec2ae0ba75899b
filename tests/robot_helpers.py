"""Robots playing a game: the one loop the robot tests drive games with."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from espadas.engine import Action, Game, NextHand, Play, PlayerView
from espadas.robots import Robot

# The four presets and the other table sizes: (preset, options) for Rules.from_preset.
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("estandar", {}),
    ("pagat", {}),
    ("cien", {}),
    ("sala", {}),
    ("sala", {"players": 3}),
    ("sala", {"players": 5}),
    ("sala", {"players": 6}),
]

Check = Callable[[Game, PlayerView, Action], None]
Taken = list[tuple[int, Action]]


def proper(game: Game, view: PlayerView, action: Action) -> None:
    """What every robot keeps to: one of the view's legal actions, and never a renege."""
    assert action in view.legal
    if isinstance(action, Play):
        assert action.card in view.proper_plays, "a robot never reneges"


def play_robots(
    game: Game,
    robots: Mapping[int, Robot] | Sequence[Robot],
    *,
    hands: int | None = None,
    check: Check = proper,
    timings: list[float] | None = None,
    max_hands: int = 60,
    max_seconds: float = 120,
) -> Taken:
    """Plays ``game`` with one robot per seat until it is over, or until ``hands``
    hands are finished. Each bid and play comes from the robot of the seat to act,
    fed only that seat's view, and is checked by ``check`` before it is applied; the
    finished hands are closed here. Returns every (seat, action) applied, in order;
    ``timings`` (when given) gets the seconds each decision took. Fails when the game
    runs past ``max_hands`` hands or ``max_seconds`` seconds."""
    start = time.monotonic()
    taken: Taken = []
    while not game.over and (hands is None or len(game.scored) < hands):
        assert len(game.hands) <= max_hands, "the game does not end"
        assert time.monotonic() - start < max_seconds, "the game is too slow"
        if game.phase == "hand_end":
            game.apply(NextHand())
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        began = time.perf_counter()
        action = robots[seat].act(view)
        if timings is not None:
            timings.append(time.perf_counter() - began)
        check(game, view, action)
        game.apply(action, by=seat)
        taken.append((seat, action))
    return taken
