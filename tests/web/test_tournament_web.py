"""The events pages (/torneos, /torneo/ID) in the browser (Playwright in Debian's
chromium, under the pages' real policy), in Spanish on a phone and in English on
a desktop: the list, organising an event with the form (by keyboard), joining it
with its link, starting it and reaching your table; a finished event's standings
and downloads; axe-core finds nothing; no sideways scroll. Screenshots at 360x640
and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from event_helpers import play_table
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

TEXTS = {
    "es": {"submit": "Crear el torneo", "join": "Apuntarme", "start": "Empezar el torneo",
           "name": "Nombre", "overall": "General", "boards": "Repartos",
           "by_board": "Cada reparto frente al campo", "alone": "nadie más lo jugó"},
    "en": {"submit": "Create the event", "join": "Join", "start": "Start the event",
           "name": "Name", "overall": "Overall", "boards": "Boards",
           "by_board": "Each board against the field", "alone": "nobody else played it"},
}  # fmt: skip


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "notices": False}


@pytest.fixture(scope="module")
def finished(base: str) -> str:
    """An event of two rounds, one board each, played to the end through the API."""
    org, ana, bea = Client(base), Client(base), Client(base)
    try:
        org.sign_in("Olga")
        ana.sign_in("Ana")
        bea.sign_in("Bea")
        made = org.ok(
            "POST", "/api/events", {"name": "Copa de otoño", "boards": 2, "rounds": 2,
                                    "robot": "aleatorio"},
        )  # fmt: skip
        token = made["link"].split("?t=")[1]
        for client in (ana, bea):
            client.ok("POST", f"/api/events/{made['id']}/join", {"token": token})
        org.ok("POST", f"/api/events/{made['id']}/start")
        for round_ in (1, 2):
            event = org.ok("GET", f"/api/events/{made['id']}")
            table = next(t for t in event["tables"] if t["round"] == round_)
            play_table({"Ana": ana, "Bea": bea}, table["table"], 1)
            import time

            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                event = org.ok("GET", f"/api/events/{made['id']}")
                if event["round"] > round_ or event["status"] == "finished":
                    break
                time.sleep(0.05)
        assert org.ok("GET", f"/api/events/{made['id']}")["status"] == "finished"
        event_id: str = made["id"]
        return event_id
    finally:
        for client in (org, ana, bea):
            client.close()


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_the_events_pages(browser: Browser, base: str, finished: str, lang: str, size: str) -> None:
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    texts = TEXTS[lang]
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Pía" if lang == "es" else "Pat")
    page.wait_for_selector("#create", state="visible")
    page.get_by_role("link", name="Torneos" if lang == "es" else "Events", exact=True).click()
    page.wait_for_url("**/torneos")
    wait_for(page, "document.querySelectorAll('#event-list li').length >= 1")
    assert "Copa de otoño" in page.locator("#event-list").inner_text()
    axe_clean(page, f"events page {lang}")
    no_sideways_scroll(page)
    shot(page, f"events-{lang}-{size}-list")

    name = page.get_by_label(texts["name"], exact=True)
    name.focus()
    page.keyboard.type("Liga " + lang)
    page.get_by_label(texts["boards"], exact=True).fill("2")
    page.get_by_role("button", name=texts["submit"]).focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/torneo/*")
    wait_for(page, "document.getElementById('commitment').textContent.length === 64")
    assert page.locator("#event-name").inner_text() == "Liga " + lang
    join = page.get_by_role("button", name=texts["join"], exact=True)
    join.focus()
    page.keyboard.press("Enter")
    wait_for(page, "document.querySelectorAll('#entrants li').length === 1")
    axe_clean(page, f"event page {lang} joined")
    no_sideways_scroll(page)
    shot(page, f"event-{lang}-{size}-joined")
    page.get_by_role("button", name=texts["start"], exact=True).click()
    # one entrant makes one table a round: the page asks before starting
    page.locator("#confirm [data-role=yes]").click()
    wait_for(page, "document.querySelector('#tables a') !== null")
    link = page.locator("#tables a").first
    href = link.get_attribute("href") or ""
    assert href.startswith("/mesa/torneo-")
    axe_clean(page, f"event page {lang} started")
    shot(page, f"event-{lang}-{size}-started")
    link.click()
    page.wait_for_selector("#hand-cards button")

    page.goto(f"/torneo/{finished}")
    wait_for(page, "document.querySelectorAll('#standings tbody tr').length >= 1")
    assert page.locator("#downloads").is_visible()
    assert texts["overall"] in page.locator("#standings").inner_text()
    assert "Ana & Bea" in page.locator("#standings").inner_text()
    by_board = page.get_by_role("region", name=texts["by_board"])
    assert by_board.locator("tbody tr").count() == 1  # Ana & Bea, board 1 and 2
    assert texts["alone"] in by_board.inner_text()  # one table a round: no field
    boards = page.request.get(page.locator("#boards-file").get_attribute("href") or "")
    assert boards.ok and boards.json()["format"] == "espadas-boards/1"
    axe_clean(page, f"event page {lang} finished")
    no_sideways_scroll(page)
    shot(page, f"event-{lang}-{size}-finished")
    assert csp_violations(page) == []
    assert errors == []
    context.close()
