"""Putting a robot in an absent person's seat from the table page (Playwright in
Debian's chromium), in Spanish and in English: the creation form's option, the
rules panel, the line that says from when, then the button, pressed and
confirmed by keyboard; the live region says it; the robot plays on. axe-core clean before and after.

The server's clock is faked (turn limit ten minutes) and the browser's clock is
set to it (Playwright's clock), so the page's "from when" and the server agree."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from espadas.tables.clock import FakeClock
from server_helpers import Client
from web_helpers import (
    api_view,
    axe_clean,
    csp_violations,
    person,
    shot,
    sign_in,
    wait_for,
    watch_errors,
)

CLOCK = FakeClock(datetime.now(UTC).replace(microsecond=0))
LIMIT = timedelta(minutes=10)
TEXTS = {
    "es": {
        "locale": "es-ES",
        "robots": "Completar con robots",
        "start": "Empezar la partida",
        "put": "Poner un robot",
        "from": "podrás poner un robot en su asiento desde",
        "rule": "Quien no juegue a tiempo: un robot ocupa su asiento",
        "said": "Un robot ocupa ahora el asiento de Luis",
    },
    "en": {
        "locale": "en-GB",
        "robots": "Fill with robots",
        "start": "Start the game",
        "put": "Put a robot in",
        "from": "you may put a robot in their seat from",
        "rule": "An absent player: a robot takes their seat",
        "said": "A robot now takes Luis's seat",
    },
}


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "clock": CLOCK,
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 20,
        "turn_limit": LIMIT,
    }


def in_step(page: Page) -> None:
    """The browser's time set to the server's."""
    page.clock.set_system_time(CLOCK.now())


@pytest.mark.parametrize("lang", ["es", "en"])
def test_putting_a_robot_in_from_the_table_page(browser: Browser, base: str, lang: str) -> None:
    words = TEXTS[lang]
    page = person(browser, base, locale=words["locale"]).new_page()
    errors = watch_errors(page)
    in_step(page)
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Ana")
    page.wait_for_selector("#create", state="visible")
    page.locator("#more-options > summary").click()
    page.check("#absent-robot")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    table = page.url.rsplit("/", 1)[1]
    luis = Client(base, lang)
    luis.sign_in("Luis")
    luis.ok("POST", f"/api/tables/{table}/join")
    page.get_by_role("button", name=words["robots"], exact=True).click()
    page.get_by_role("button", name=words["start"], exact=True).click()
    # Luis (seat 1) is to bid: a game that flows says nothing of the limit; once
    # he has kept the table waiting a while, the page says from when
    wait_for(page, "document.getElementById('status').textContent.includes('Luis')")
    assert words["from"] not in page.inner_text("#actions")
    CLOCK.advance(minutes=3)
    in_step(page)
    page.reload()
    wait_for(
        page, "(t) => document.getElementById('actions').textContent.includes(t)", words["from"]
    )
    assert words["rule"] in page.inner_text("#rules-list")
    put = page.get_by_role("button", name=words["put"], exact=True)
    assert put.count() == 0
    CLOCK.advance(minutes=8)
    in_step(page)
    page.reload()
    put.wait_for()
    axe_clean(page, f"absent-{lang}-before")
    shot(page, f"absent-{lang}")
    page.evaluate(
        """() => { window.__said = []; const live = document.getElementById('live');
        new MutationObserver(() => window.__said.push(live.textContent))
          .observe(live, { childList: true, characterData: true, subtree: true }); }"""
    )
    put.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm[open]")
    assert "Luis" in (page.text_content("#confirm [data-role=message]") or "")
    page.focus("#confirm [data-role=yes]")
    page.keyboard.press("Enter")
    view = wait_for(
        page,
        "async (t) => { const v = await (await fetch('/api/tables/' + t)).json();"
        " return v.game.to_act !== 1 && v; }",
        table,
    )
    seats = view["seats"]
    assert seats[1]["robot"] is not None and seats[1]["robot"] == seats[3]["robot"]
    assert view["replaced"] == [1]
    assert luis.view(table)["you"] is None
    # the live region said it, naming Luis
    wait_for(page, "(t) => window.__said.some((s) => s.includes(t))", words["said"])
    wait_for(
        page, "(t) => !document.getElementById('actions').textContent.includes(t)", words["put"]
    )
    assert put.count() == 0
    axe_clean(page, f"absent-{lang}-after")
    assert csp_violations(page) == []
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []
    assert api_view(page, table)["you"] == 0
