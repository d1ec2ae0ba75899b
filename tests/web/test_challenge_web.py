"""The daily challenge's page (/reto) in the browser (Playwright in Debian's
chromium, under the pages' real policy), in Spanish on a phone and in English on
a desktop: today's commitment, the start button (by keyboard) that opens your
table, the day's standings with each board against the field and par, leaving
through the confirmation dialog; axe-core finds nothing; no sideways scroll.
Screenshots at 360x640 and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser

from challenge_helpers import play
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

BOARDS = 2
TEXTS = {
    "es": {
        "start": "Empezar el reto",
        "mine": "Ir a mi mesa",
        "leave": "Dejar el reto",
        "yes": "Sí",
    },
    "en": {
        "start": "Start the challenge",
        "mine": "Go to my table",
        "leave": "Leave the challenge",
        "yes": "Yes",
    },
}


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "challenge_boards": BOARDS,
        "challenge_partner": "aleatorio",
        "challenge_opponents": "aleatorio",
        "notices": False,
    }


@pytest.fixture(scope="module")
def played(base: str) -> str:
    """One player who played the whole challenge through the API (a row to show)."""
    client = Client(base)
    try:
        client.sign_in("Olga")
        table = client.ok("POST", "/api/challenge/attempt")["table"]
        play(client, table, BOARDS)
        day: str = client.ok("GET", "/api/challenge")["day"]
        wait_for_par(client, day)
        return day
    finally:
        client.close()


def wait_for_par(client: Client, day: str) -> None:
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        board = client.ok("GET", f"/api/challenge/{day}/leaderboard")
        if board["par"] is not None and board["standings"]:
            return
        time.sleep(0.1)
    raise AssertionError("no par")


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_the_challenge_page(browser: Browser, base: str, played: str, lang: str, size: str) -> None:
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    texts = TEXTS[lang]
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Pía" if lang == "es" else "Pat")
    page.wait_for_selector("#create", state="visible")
    page.goto("/reto")
    wait_for(page, "document.getElementById('commitment').textContent.length === 64")
    commitment = page.locator("#commitment").text_content() or ""  # folded: "¿Es justo…?"
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert page.locator("html").get_attribute("lang") == lang
    wait_for(page, "document.querySelectorAll('#standings tbody tr').length >= 2")
    board = page.locator("#standings").inner_text()
    assert "Olga" in board and ("Par" in board)
    axe_clean(page, f"challenge page {lang} before the start")
    no_sideways_scroll(page)
    shot(page, f"challenge-{lang}-{size}-before")
    start = page.get_by_role("button", name=texts["start"], exact=True)
    start.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/mesa/reto-**")
    page.wait_for_selector("#hand-cards button")
    table = page.url.rsplit("/", 1)[1]
    page.goto("/reto")
    mine = page.get_by_role("link", name=texts["mine"], exact=True)
    mine.wait_for()
    assert mine.get_attribute("href") == f"/mesa/{table}"
    assert page.get_by_role("button", name=texts["start"], exact=True).is_hidden()
    leave = page.get_by_role("button", name=re.compile("^" + texts["leave"]))
    axe_clean(page, f"challenge page {lang} with an attempt")
    no_sideways_scroll(page)
    shot(page, f"challenge-{lang}-{size}-attempt")
    leave.focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name=texts["yes"], exact=True).click()
    wait_for(page, "document.getElementById('attempt-state').textContent.length > 0")
    assert leave.is_hidden()
    said = page.locator("#attempt-state").inner_text()
    assert ("reparto 1" in said) if lang == "es" else ("board 1" in said)
    shot(page, f"challenge-{lang}-{size}-left")
    assert csp_violations(page) == []
    assert errors == []
    context.close()
