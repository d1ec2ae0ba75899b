"""A past day of the daily challenge in the browser (Playwright in Debian's
chromium, under the pages' real policy): the table's end after the last board
(the result and the way to the standings, no rematch); the day's page
(``/reto/DAY``) while open (no links to anybody's play; the side-by-side page
refused) and once closed (its boards file, the ``espadas verify`` hint, each
result a link); the side-by-side replay of a board (two plays side by side on a
desktop, one above the other on a phone, stepped together by keyboard); the
profile's "Reto diario" once the day is rated. axe-core finds nothing, no
sideways scroll; screenshots at 360x640 and 1280x800 go to
``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

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

BOARDS = 2
DAY = "2026-12-01"


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
def people(base: str) -> Iterator[dict[str, Any]]:
    """Olga and Pía played the whole day through the API: their clients, ids and
    tables."""
    out: dict[str, Any] = {}
    for name in ("Olga", "Pía"):
        client = Client(base)
        client.sign_in(name)
        table = client.ok("POST", "/api/challenge/attempt")["table"]
        play(client, table, BOARDS)
        out[name] = (client, client.ok("GET", "/api/club/me")["id"], table)
    deadline = time.monotonic() + 120
    olga = out["Olga"][0]
    while olga.ok("GET", f"/api/challenge/{DAY}/leaderboard")["par"] is None:
        assert time.monotonic() < deadline, "no par"
        time.sleep(0.1)
    yield out
    for client, _id, _table in out.values():
        client.close()


def _as(browser: Browser, base: str, client: Client, lang: str, size: str) -> BrowserContext:
    """A browser signed in as ``client``'s person (its cookies)."""
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    context.add_cookies(
        [{"name": k, "value": v, "url": base} for k, v in client.http.cookies.items()]
    )
    return context


def _page(context: BrowserContext, lang: str) -> tuple[Page, list[str]]:
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"/?lang={lang}")
    return page, errors


def test_a_day_before_and_after_it_closes(
    browser: Browser, base: str, people: dict[str, Any], clock: FakeClock
) -> None:
    pia, pia_id, pia_table = people["Pía"]
    olga_id = people["Olga"][1]
    compare = f"/reto/{DAY}/tablero/1?jugador={olga_id}"

    # the table after the last board: game over, the way to the standings
    context = _as(browser, base, pia, "es", "phone")
    page, errors = _page(context, "es")
    page.goto(f"/mesa/{pia_table}")
    page.wait_for_selector("#result:visible")
    assert page.locator(f"#result a[href='/reto/{DAY}']").count() == 1
    assert "se jugaron todos los repartos" in page.locator("#result").inner_text()
    assert page.get_by_role("button", name="Revancha con las mismas parejas").count() == 0
    rules = page.locator("#rules-list").inner_text()  # the boards decide, not a target
    assert "Reto diario: se juegan sus repartos" in rules and "1000000" not in rules
    axe_clean(page, "the challenge table's end")
    no_sideways_scroll(page)
    shot(page, "challenge-table-end-es-phone")

    # open: the standings, no link to anybody's play; the side-by-side refused
    page.goto(f"/reto/{DAY}")
    wait_for(page, "document.querySelectorAll('#standings tbody tr').length >= 2")
    assert page.locator("#day-open").is_visible() and page.locator("#day-files").is_hidden()
    assert page.locator("#standings td a").count() == 0
    assert pia.request("GET", f"/api/challenge/{DAY}/boards/1/plays/{olga_id}").status_code == 409
    page.goto(compare)
    wait_for(page, "document.getElementById('compare-state').textContent.includes('publican')")
    assert page.locator("#compare-shown").is_hidden()
    assert page.locator(".compare-side").count() == 0
    axe_clean(page, "the side-by-side page refused")
    context.close()
    assert [e for e in errors if "status of 409" not in e] == []  # the refusal, said

    clock.advance(hours=24)
    for client, _id, _table in people.values():  # reading today's challenge rates the day
        client.ok("GET", "/api/challenge")
    for lang, size in (("es", "phone"), ("en", "desktop")):
        context = _as(browser, base, pia, lang, size)
        page, errors = _page(context, lang)
        page.goto(f"/reto/{DAY}")
        wait_for(page, "document.querySelectorAll('#standings td a').length >= 4")
        link = page.locator("#boards-file")
        assert link.get_attribute("href") == f"/api/challenge/{DAY}/boards"
        assert link.get_attribute("download") == f"espadas-boards-{DAY}.json"
        command = page.locator("#verify-command").text_content()  # folded
        assert command == f"espadas verify espadas-boards-{DAY}.json"
        assert page.locator("#standings a[href^='/jugador/']").count() == 2
        axe_clean(page, f"the closed day {lang}")
        no_sideways_scroll(page)
        shot(page, f"challenge-day-{lang}-{size}")

        # Olga's board 1 beside Pía's own
        page.locator(f"#standings a[href='{compare}']").click()
        page.wait_for_selector("#compare-shown:visible")
        wait_for(page, "document.querySelectorAll('.compare-side').length === 2")
        sides = page.locator(".compare-side")
        first, second = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
        assert first and second
        if size == "desktop":  # side by side
            assert abs(first["y"] - second["y"]) < 2 and second["x"] > first["x"] + 300
        else:  # one above the other
            assert abs(first["x"] - second["x"]) < 2 and second["y"] > first["y"] + 100
        said = page.locator("#compare").inner_text()
        assert "Olga" in said and ("Tu jugada" if lang == "es" else "Your play") in said
        assert page.locator(".compare-side a[href$='/repeticion']").count() == 2
        assert page.locator(".compare-side .mini-hand").count() == 8
        before = page.locator("#compare-step").inner_text()
        page.locator("#next").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowRight")
        wait_for(page, "document.getElementById('compare-step').textContent.includes('2')")
        assert page.locator("#compare-step").inner_text() != before
        assert page.locator(".compare-trick").nth(0).inner_text() != ""
        axe_clean(page, f"the side-by-side replay {lang}")
        no_sideways_scroll(page)
        shot(page, f"challenge-compare-{lang}-{size}")

        # the profile's "Reto diario", once the day is rated
        deadline = time.monotonic() + 60
        while pia.ok("GET", f"/api/club/players/{pia_id}")["challenge"] is None:
            assert time.monotonic() < deadline, "the day was not rated"
            pia.ok("GET", "/api/challenge")
            time.sleep(0.5)
        page.goto("/jugador/yo")
        page.wait_for_selector("#challenge-box:visible")
        text = page.locator("#challenge-box").inner_text()
        assert ("Días jugados: 1" if lang == "es" else "Days played: 1") in text
        axe_clean(page, f"the profile with the challenge {lang}")
        shot(page, f"challenge-profile-{lang}-{size}")
        page.goto("/clasificacion?kind=challenge")
        wait_for(page, "document.querySelectorAll('#board tbody tr').length === 2")
        assert page.locator("#preset").is_disabled() and page.locator("#period").is_disabled()
        assert "Pía" in page.locator("#board").inner_text()
        axe_clean(page, f"the challenge's leaderboard {lang}")
        no_sideways_scroll(page)
        shot(page, f"challenge-leaderboard-{lang}-{size}")
        assert csp_violations(page) == []
        assert errors == []
        context.close()
