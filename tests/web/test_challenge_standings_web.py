"""The daily challenge's standings for players, in the browser (under the pages'
real policy): a day's page shows a result finished just before it opened without
a reload; the standings fit the width of a phone and of a desktop; why the deal
is fair (the fingerprint, ``espadas verify``, how it is scored) is folded under
*¿Es justo el reparto?* / *Is the deal fair?*, not at the top; ``/reto`` links
to the days before. axe-core finds nothing; screenshots at 360x640 and 1280x800
go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser

from challenge_helpers import play
from espadas.tables.clock import FakeClock
from server_helpers import Client
from web_helpers import (
    axe_clean,
    csp_violations,
    no_sideways_scroll,
    person,
    shot,
    wait_for,
    watch_errors,
)

BOARDS = 6
DAY = "2026-12-01"
TEXTS = {
    "es": {"fair": "¿Es justo el reparto?", "past": "Días anteriores", "players": "1 jugador"},
    "en": {"fair": "Is the deal fair?", "past": "Earlier days", "players": "1 player"},
}


@pytest.fixture(scope="module")
def clock() -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 8, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def server_options(clock: FakeClock) -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "clock": clock,
        "challenge_boards": BOARDS,
        "challenge_partner": "aleatorio",
        "challenge_opponents": "aleatorio",
        "notices": False,
    }


@pytest.fixture(scope="module")
def olga(base: str) -> Iterator[Client]:
    client = Client(base)
    client.sign_in("Olga")
    yield client
    client.close()


def test_a_result_just_finished_shows_without_a_reload(
    browser: Browser, base: str, olga: Client
) -> None:
    # the day's standings were read (and kept) before Olga played
    assert olga.ok("GET", "/api/challenge")["day"] == DAY
    assert olga.ok("GET", f"/api/challenge/{DAY}/leaderboard")["standings"] == []
    table = olga.ok("POST", "/api/challenge/attempt")["table"]
    play(olga, table, BOARDS)
    for lang, size in (("es", "phone"), ("en", "desktop")):
        context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"/reto/{DAY}?lang={lang}")
        wait_for(page, "document.querySelectorAll('#standings tbody th').length >= 1")
        assert "Olga" in page.inner_text("#standings")
        assert page.locator("#board-empty").is_hidden()
        # it fits: no sideways scroll, the table no wider than its box
        no_sideways_scroll(page)
        fits = page.evaluate(
            "(() => { const b = document.getElementById('standings');"
            " return b.scrollWidth <= b.clientWidth + 1; })()"
        )
        shot(page, f"challenge-standings-{lang}-{size}-fit")
        assert fits
        # the fingerprint and espadas verify are folded away, for whoever wants them
        fair = page.locator("details.fair")
        assert fair.locator("summary").inner_text() == TEXTS[lang]["fair"]
        assert fair.get_attribute("open") is None
        assert page.locator("#commitment").is_hidden()
        axe_clean(page, f"a day's standings {lang}")
        shot(page, f"challenge-standings-{lang}-{size}")
        fair.locator("summary").click()
        assert page.locator("#commitment").is_visible()
        axe_clean(page, f"why the deal is fair {lang}")
        assert csp_violations(page) == [] and errors == []
        context.close()


def test_the_challenge_page_links_the_days_before(
    browser: Browser, base: str, olga: Client, clock: FakeClock
) -> None:
    olga.ok("GET", "/api/challenge")  # the day exists
    clock.advance(hours=24)
    for lang, size in (("es", "phone"), ("en", "desktop")):
        context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto(f"/reto?lang={lang}")
        wait_for(page, "document.querySelectorAll('#past-days a').length >= 1")
        past = page.get_by_role("region", name=TEXTS[lang]["past"])
        link = past.get_by_role("link", name=DAY, exact=True)
        assert link.get_attribute("href") == f"/reto/{DAY}"
        assert TEXTS[lang]["players"] in past.inner_text()
        # nothing for the checkers at the top: the page opens with the day and its play
        top = page.evaluate(
            "document.querySelector('details.fair').getBoundingClientRect().top"
            " > document.getElementById('standings').getBoundingClientRect().top"
        )
        assert top
        axe_clean(page, f"the challenge page {lang}")
        no_sideways_scroll(page)
        shot(page, f"challenge-past-{lang}-{size}")
        link.click()
        page.wait_for_url(f"**/reto/{DAY}")
        wait_for(page, "document.querySelectorAll('#standings tbody th').length >= 1")
        assert csp_violations(page) == [] and errors == []
        context.close()
