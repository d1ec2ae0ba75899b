"""The organiser puts a robot in an absent entrant's seat from the event's page
(/torneo/ID, Playwright in Debian's chromium), in Spanish on a phone and in
English on a desktop: the form's option (a robot by default), the line beside the
table that says from when, then the button (named after the person and the
table), pressed and confirmed by keyboard; the live region says it. axe-core clean
before and after, no sideways scroll.

The server's clock is faked (turn limit ten minutes) and the browser's set to it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from espadas.tables.clock import FakeClock
from server_helpers import Client
from web_helpers import (
    axe_clean,
    csp_violations,
    no_sideways_scroll,
    person,
    shot,
    sign_in,
    wait_for,
    watch_errors,
)

CLOCK = FakeClock(datetime.now(UTC).replace(microsecond=0))
LIMIT = timedelta(minutes=10)
TEXTS = {
    "es": {"locale": "es-ES", "size": "phone", "name": "Nombre", "submit": "Crear el torneo",
           "robot": "Un robot ocupa su asiento", "start": "Empezar el torneo",
           "from": "Un robot podrá ocupar el asiento de Bea desde",
           "put": "Poner un robot en el asiento de Bea en la mesa 1",
           "said": "Un robot ocupa ahora el asiento de Bea"},
    "en": {"locale": "en-GB", "size": "desktop", "name": "Name", "submit": "Create the event",
           "robot": "A robot takes their seat", "start": "Start the event",
           "from": "A robot may take Bea's seat from",
           "put": "Put a robot in Bea's seat at table 1",
           "said": "A robot now takes Bea's seat"},
}  # fmt: skip


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "clock": CLOCK,
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 20,
        "turn_limit": LIMIT,
        "notices": False,
    }


def in_step(page: Page) -> None:
    page.clock.set_system_time(CLOCK.now())


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_organiser_puts_a_robot_in(browser: Browser, base: str, lang: str) -> None:
    words = TEXTS[lang]
    page = person(browser, base, words["locale"], words["size"]).new_page()
    errors = watch_errors(page)
    in_step(page)
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Olga")
    page.wait_for_selector("#create", state="visible")
    page.goto("/torneos")
    page.wait_for_selector("#create-event:visible")
    assert page.get_by_label(words["robot"]).is_checked()  # the default
    page.get_by_label(words["name"], exact=True).fill("Ausentes " + lang)
    page.get_by_role("button", name=words["submit"]).click()
    page.wait_for_url("**/torneo/*")
    wait_for(page, "document.getElementById('commitment').textContent.length === 64")
    event = page.url.split("/torneo/")[1].split("?")[0]
    token = page.url.split("?t=")[1]
    people = [Client(base, lang) for _ in range(2)]
    try:
        for client, name in zip(people, ("Ana", "Bea"), strict=True):
            client.sign_in(name)
            CLOCK.advance(seconds=1)
            client.ok("POST", f"/api/events/{event}/join", {"token": token})
        in_step(page)
        page.reload()
        page.get_by_role("button", name=words["start"], exact=True).click()
        # two entrants make one table a round: the page asks before starting
        page.wait_for_selector("#confirm[open]")
        page.locator("#confirm [data-role=yes]").click()
        # the pair Ana & Bea against two robots: the robot at seat 1 bids, then Bea
        # (seat 2) does not
        wait_for(page, "(t) => document.getElementById('tables').textContent.includes(t)",
                 words["from"])  # fmt: skip
        put = page.get_by_role("button", name=words["put"], exact=True)
        assert put.count() == 0
        CLOCK.advance(minutes=11)
        in_step(page)
        page.reload()
        put.wait_for()
        axe_clean(page, f"event-absent-{lang}-before")
        no_sideways_scroll(page)
        shot(page, f"event-absent-{lang}-{words['size']}")
        page.evaluate(
            """() => { window.__said = []; const live = document.getElementById('live');
            new MutationObserver(() => window.__said.push(live.textContent))
              .observe(live, { childList: true, characterData: true, subtree: true }); }"""
        )
        put.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#confirm[open]")
        assert "Bea" in (page.text_content("#confirm [data-role=message]") or "")
        page.focus("#confirm [data-role=yes]")
        page.keyboard.press("Enter")
        wait_for(page, "(t) => window.__said.some((s) => s.includes(t))", words["said"])
        table = people[1].ok("GET", f"/api/events/{event}")["tables"][0]["table"]
        view = people[0].view(table)
        assert view["replaced"] == [2] and view["seats"][2]["robot"] == "experto"
        # the list is drawn again without Bea's button (the next wait opens a limit later)
        gone = (
            "(t) => ![...document.querySelectorAll('#tables button.replace')]"
            ".some((b) => b.getAttribute('aria-label') === t)"
        )
        wait_for(page, gone, words["put"])
        assert put.count() == 0
        axe_clean(page, f"event-absent-{lang}-after")
        assert csp_violations(page) == []
        assert [e for e in errors if not e.startswith("Failed to load resource")] == []
    finally:
        for client in people:
            client.close()
