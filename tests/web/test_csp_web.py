"""The table page under its real Content-Security-Policy (Playwright in Debian's
chromium, no ``bypass_csp``): a hand bid and played at a robot table of four
and at a ``sala`` table of six, at a phone (360x640) and a desktop (1280x800),
with nothing refused by the policy (neither a ``securitypolicyviolation`` event
nor a console error) and the seats where a card player expects them: yours at
the bottom, then round the felt in play order (for four: left, top, right),
each box on the felt and clear of the others. A seat placed through a ``style``
attribute in the markup is refused by the policy and piles up at the felt's
corner: this test fails then."""

from __future__ import annotations

import math
from typing import Any

import pytest
from playwright.sync_api import Browser

from felt_helpers import (
    apart,
    felt_boxes,
    inside,
    my_turn,
    person,
    play_hand,
    robot_table,
    shot,
    trick_clear_of_seats,
)
from web_helpers import csp_violations, watch_errors


def seats_round_the_felt(boxes: dict[str, Any], players: int, state: str) -> None:
    """Seat i (counting from yours in play order) lies in the direction of the
    angle 90 + 360 i / players degrees (screen axes: y grows downward) from the
    felt's centre: on that side entirely where the direction is steep, its
    centre at least where it leans."""
    felt = boxes["felt"]
    cx, cy = felt["x"] + felt["width"] / 2, felt["y"] + felt["height"] / 2
    seats = boxes["seats"]
    assert len(seats) == players, state
    for i, seat in enumerate(seats):
        assert seat["seat"] == i, (state, seats)  # yours is seat 0
        assert inside(seat, felt), (state, seat, felt)
        angle = math.radians(90 + i * 360 / players)
        dx, dy = math.cos(angle), math.sin(angle)
        left, right = seat["x"], seat["x"] + seat["width"]
        top, bottom = seat["y"], seat["y"] + seat["height"]
        mid_x, mid_y = (left + right) / 2, (top + bottom) / 2
        where = (state, i, seat, (cx, cy))
        if dx < -0.8:
            assert right < cx, where
        elif dx > 0.8:
            assert left > cx, where
        elif abs(dx) >= 0.45:
            assert (mid_x < cx) == (dx < 0), where
        if dy < -0.8:
            assert bottom < cy, where
        elif dy > 0.8:
            assert top > cy, where
        elif abs(dy) >= 0.45:
            assert (mid_y < cy) == (dy < 0), where
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            assert apart(a, b), (state, a, b)


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("players", [4, 6])
def test_a_hand_under_the_real_policy(base: str, browser: Browser, players: int, size: str) -> None:
    context = person(browser, base, size)
    page = context.new_page()
    errors = watch_errors(page)
    choices = {} if players == 4 else {"preset": "sala", "players": str(players)}
    table = robot_table(page, base, "Celia", **choices)
    my_turn(page, table, "bidding")
    state = f"{players} players, {size}, bidding"
    assert csp_violations(page) == [], state
    seats_round_the_felt(felt_boxes(page), players, state)
    play_hand(page, table, cards=3)  # the bid and three cards, each from the page
    view = my_turn(page, table, "playing")
    state = f"{players} players, {size}, playing"
    seats_round_the_felt(felt_boxes(page), players, state)
    live = view["game"]["trick"]["cards"] if view["game"]["trick"] else []
    assert trick_clear_of_seats(page, state) >= len(live), state
    shot(page, f"csp-{players}-players-{size}")
    assert csp_violations(page) == [], state
    assert errors == [], state
    context.close()
