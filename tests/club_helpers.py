"""Whole games at a table, played fast by robots for the people too, for the club's
tests (ratings, statistics, rebuild): the table's own log, ready to store."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from espadas.engine import Game, Rules
from espadas.engine.deal import deal_cards
from espadas.robots.registry import make_robot
from espadas.tables.event import Event
from espadas.tables.finish import FinishedGame, finished_game
from espadas.tables.seat import Seat
from espadas.tables.table import Table

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def played_table(
    table_id: str,
    seats: list[str],
    seed: int,
    preset: str = "pagat",
    rated: bool = True,
    start: datetime = T0,
    leave: int | None = None,
    **options: object,
) -> tuple[Table, list[Event], int]:
    """A finished table: ``seats`` are player ids (the first is the creator) or
    ``robot:LEVEL``; every seat plays as a robot of its level (people as
    ``normal``). ``leave``: that seat abandons after the first hand. Returns the
    table, its whole log and the number of events before the one that ends it."""
    rng = random.Random(seed)
    rules = Rules.from_preset(preset, **options)
    at = start

    def dealer(rules: Rules, seat: int) -> tuple[tuple[int, ...], str]:
        return tuple(deal_cards(rules, rng, seat)), f"{rng.getrandbits(128):032x}"

    creator = seats[0]
    table, log = Table.create(table_id, rules, creator, creator.title(), at, rated=rated)
    for i, who in enumerate(seats[1:], start=1):
        if who.startswith("robot:"):
            log += table.add_robots(creator, who.removeprefix("robot:"), at, seats=[i])
        else:
            log += table.join(who, who.title(), at)
    log += table.start(creator, at, dealer=dealer)
    robots = [
        make_robot(s.removeprefix("robot:") if s.startswith("robot:") else "normal", seed + i)
        for i, s in enumerate(seats)
    ]
    game = table.game
    assert game is not None
    while table.status != "finished":
        at += timedelta(seconds=1)
        before = len(log)
        if leave is not None and game.scored and game.phase != "game_over":
            log += table.act_seat(leave, "abandon", at)
        elif game.phase == "hand_end":
            log += table.act_seat(game.hand.dealer, "next_hand", at, dealer=dealer)
        else:
            seat = game.to_act
            assert seat is not None
            action = robots[seat].act(game.view_for(seat))
            log += table.robot_move(seat, action, at)
        ended = before
    return table, log, ended


def robot_game(
    table_id: str, levels: list[str], seed: int, at: datetime, budget_ms: float = 2.0
) -> FinishedGame:
    """A whole game of robots (``levels`` by seat) on the engine alone, as the club
    counts it: the fast way to a few hundred rated games."""
    rules = Rules.from_preset("cien")  # to 100 points: a few hands a game
    game = Game.new(rules, seed=seed)
    robots = [
        make_robot(level, seed * 10 + s, budget_ms=budget_ms) for s, level in enumerate(levels)
    ]
    while game.result is None:
        if game.phase == "hand_end":
            game.next_hand()
            continue
        seat = game.to_act
        assert seat is not None
        game.apply(robots[seat].act(game.view_for(seat)), by=seat)
    seats: list[Seat | None] = [Seat(f"robot:{level}", robot=level) for level in levels]
    table = Table(table_id, rules=rules, seats=seats, status="finished", game=game, updated_at=at)
    return finished_game(table)
