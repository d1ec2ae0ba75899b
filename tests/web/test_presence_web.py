"""A dropped connection in a live game, in Debian's chromium (Playwright): Ana
(Spanish, desktop) and Luis (English, phone) at a table whose absent rule puts a
robot in. Luis closes his page: Ana's felt shows his seat "desconectado" with a
countdown, and her live region says it; he comes back in time and bids, play goes
on. Then he drops for good and a robot takes his seat when the countdown ends.
The turn limit is five minutes (a live game); a seat waits 10 s, long enough
for the checks and screenshots taken while Luis is away on a loaded machine."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

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

WAIT_S = 10.0


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 5,
        "turn_limit": timedelta(minutes=5),
        "drop_wait_s": WAIT_S,
    }


def listen(page: Page) -> None:
    """Keeps every text the page's live region says (in ``window.__said``)."""
    page.evaluate(
        """() => { window.__said = []; const live = document.getElementById('live');
        new MutationObserver(() => window.__said.push(live.textContent))
          .observe(live, { childList: true, characterData: true, subtree: true }); }"""
    )


def said(page: Page, text: str) -> None:
    wait_for(page, "(t) => window.__said.some((s) => s.includes(t))", text)


def seated(browser: Browser, base: str) -> tuple[Page, Any, Page, str]:
    """Ana's started table (absent: robot) with Luis in seat 1 (he bids first)."""
    ana = person(browser, base).new_page()
    luis_context = person(browser, base, "en-GB", "phone")
    luis = luis_context.new_page()
    table = _robot_table(ana, base)
    luis.goto(f"{base}/mesa/{table}")
    sign_in(luis, "Luis")
    luis.wait_for_selector("#seats li")
    wait_for(
        ana, "[...document.querySelectorAll('.seat-name')].some(e => e.textContent === 'Luis')"
    )
    ana.get_by_role("button", name="Completar con robots", exact=True).click()
    ana.get_by_role("button", name="Empezar la partida", exact=True).click()
    ana.wait_for_selector("#hand-cards button")
    luis.wait_for_selector("#bid")
    return ana, luis_context, luis, table


def _robot_table(page: Page, base: str) -> str:
    page.goto(base + "/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Ana")
    page.wait_for_selector("#create", state="visible")
    page.locator("#more-options > summary").click()
    page.check("#absent-robot")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.wait_for_selector("#seats li")
    return page.url.rsplit("/", 1)[1]


def test_a_dropped_person_comes_back_and_play_goes_on(browser: Browser, base: str) -> None:
    ana, luis_context, luis, table = seated(browser, base)
    errors = watch_errors(ana)
    listen(ana)
    luis.close()
    dropped = time.monotonic()
    mark = ana.locator("#seats li[data-seat='1'] .away-mark")
    mark.wait_for()
    said(ana, "Luis se ha desconectado")
    first = mark.inner_text()
    assert first.replace("\n", " ").startswith("desconectado 0:"), first
    assert ana.locator("#seats li[data-seat='1']").evaluate("e => e.classList.contains('away')")
    # the countdown runs on the felt, and screen readers find it in the seat's label
    wait_for(ana, "(f) => document.querySelector('#away-1 [aria-hidden]').textContent !== f", first)
    assert "le quedan" in ana.locator("#away-1 .sr-only").inner_text()
    axe_clean(ana, "away")
    shot(ana, "away-desktop")
    ana.set_viewport_size({"width": 360, "height": 640})
    shot(ana, "away-phone")
    ana.set_viewport_size({"width": 1280, "height": 800})
    luis = luis_context.new_page()
    luis.goto(f"{base}/mesa/{table}")
    luis.wait_for_selector("#bid")
    mark.wait_for(state="detached")
    said(ana, "Luis ha vuelto")
    # past the countdown: nothing happens to the seat
    time.sleep(max(0.0, WAIT_S - (time.monotonic() - dropped)) + 1.0)
    view = api_view(ana, table)
    assert view["seats"][1]["human"] and view["replaced"] == [] and view["away"] == []
    luis.select_option("#bid", "3")  # nothing is chosen for you
    luis.click(".bid-row button")
    wait_for(
        ana,
        "(t) => fetch('/api/tables/' + t).then(r => r.json()).then(v => v.game.bids[1] !== null)",
        table,
    )
    assert csp_violations(ana) == []
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []
    luis_context.close()
    ana.context.close()


def test_a_dropped_person_who_stays_away_gets_a_robot(browser: Browser, base: str) -> None:
    ana, luis_context, _luis, table = seated(browser, base)
    listen(ana)
    luis_context.close()  # every page of Luis's closes
    ana.locator("#away-1").wait_for()
    said(ana, "Un robot ocupa ahora el asiento de Luis")
    view = api_view(ana, table)
    assert view["replaced"] == [1] and view["seats"][1]["robot"] is not None
    assert ana.locator("#away-1").count() == 0
    # the robot plays Luis's seat: his bid comes
    wait_for(
        ana,
        "(t) => fetch('/api/tables/' + t).then(r => r.json()).then(v => v.game.bids[1] !== null)",
        table,
    )
    ana.context.close()
