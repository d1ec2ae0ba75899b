"""The trick on the felt never covers a seat, nor hides its own cards
(Playwright in Debian's chromium, under the pages' real Content-Security-Policy):
at a phone (360x640), a phone held sideways (640x360) and a desktop (1280x800),
for three, four, five and six players, no card of the trick in progress, nor of
a complete trick with its winner's mark, shares any area with any seat's box (its
name, bid and tricks), every card stays on the felt, and no two cards of the
trick overlap by more than a corner. Screenshots of the complete trick go to
``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from felt_helpers import (
    SIZES,
    cards_share_at_most_a_corner,
    my_turn,
    person,
    play_hand,
    robot_table,
    shot,
    trick_clear_of_seats,
    wait_until,
)
from web_helpers import csp_violations, wait_for, watch_errors


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", list(SIZES))
def test_trick_cards_clear_of_every_seat(
    base: str, browser: Browser, size: str, players: int
) -> None:
    context = person(browser, base, size)
    page = context.new_page()
    errors = watch_errors(page)
    choices = {} if players == 4 else {"preset": "sala", "players": str(players)}
    table = robot_table(page, base, "Nora", **choices)
    play_hand(page, table, cards=1)  # the bid and a card: the first trick is under way
    view = my_turn(page, table, "playing")
    live = view["game"]["trick"]["cards"] if view["game"]["trick"] else []
    state = f"{players} players, {size}, trick in progress"
    assert trick_clear_of_seats(page, state) >= len(live)
    # the first trick complete, with its winner marked, back on the felt
    wait_until(page, table, lambda v: len(v["game"]["tricks"]) >= 1, "a complete trick")
    page.locator("body").press("u")
    wait_for(page, "document.querySelectorAll('#trick-cards .card.won').length === 1")
    state = f"{players} players, {size}, last trick"
    assert trick_clear_of_seats(page, state) == players
    shot(page, f"trick-{players}-players-{size}")
    assert cards_share_at_most_a_corner(page, state) == players
    assert csp_violations(page) == [], state
    assert errors == [], state
    context.close()
