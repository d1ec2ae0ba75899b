"""*Tus mesas* / *Your tables* on the start page: near the top, each table with
whom you play with and against (robots by their names), the score with your side
first, *Te toca* / *Your turn* where it is, first; an event's table whose round is
played out says so (never "En juego"). In Spanish on a phone and in English on a
desktop, under the pages' real policy; axe-core finds nothing. Screenshots at
360x640 and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server_helpers import Client
from web_helpers import (
    api_view,
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
    "es": {"title": "Tus mesas", "turn": "Te toca", "with": "Con Chip contra Bit y Duna",
           "score": "Nosotros 0 · Ellos 0", "event": "Torneo", "round_over": "Ronda terminada",
           "playing": "En juego", "waiting": "Esperando para empezar"},
    "en": {"title": "Your tables", "turn": "Your turn", "with": "With Chip against Bit and Duna",
           "score": "Us 0 · Them 0", "event": "Event", "round_over": "Round over",
           "playing": "In play", "waiting": "Waiting to start"},
}  # fmt: skip


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "notices": False}


def csrf(page: Page) -> str:
    cookies = page.context.cookies()
    return str(next(c["value"] for c in cookies if c["name"] == "espadas_csrf"))


def post(page: Page, path: str, body: Any = None) -> Any:
    answer = page.request.post(path, data=body or {}, headers={"x-csrf-token": csrf(page)})
    assert answer.ok, answer.text()
    return answer.json()


def play_out(page: Page, table: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = api_view(page, table)
        game = view["game"]
        if game["result"] is not None:
            return
        if game["to_act"] == view["you"] and game["legal"]:
            post(page, f"/api/tables/{table}/actions", game["legal"][0])
        else:
            time.sleep(0.05)
    raise AssertionError("the board was not played out in time")


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_your_tables_say_what_matters(browser: Browser, base: str, lang: str, size: str) -> None:
    texts = TEXTS[lang]
    org = Client(base, lang)
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        page.goto("/")
        page.wait_for_selector("#signin:visible")
        sign_in(page, "Ana")
        page.wait_for_selector("#create", state="visible")
        # an event's table played out (one board, one round)
        org.sign_in("Olga")
        made = org.ok("POST", "/api/events", {"name": "Copa", "boards": 1, "robot": "aleatorio"})
        post(page, f"/api/events/{made['id']}/join", {"token": made["link"].split("?t=")[1]})
        org.ok("POST", f"/api/events/{made['id']}/start")
        event_table = org.ok("GET", f"/api/events/{made['id']}")["tables"][0]["table"]
        play_out(page, event_table)
        # a table waiting for people, and one with robots where it is Ana's turn
        post(page, "/api/tables", {})
        table = post(page, "/api/tables", {})["id"]
        post(page, f"/api/tables/{table}/robots", {"level": "normal"})
        post(page, f"/api/tables/{table}/start")
        deadline = time.monotonic() + 60
        while api_view(page, table)["game"]["to_act"] != 0:
            assert time.monotonic() < deadline, "never Ana's turn"
            time.sleep(0.05)

        page.reload()
        wait_for(page, "document.querySelectorAll('#my-tables li.my-table').length === 3")
        # near the top: above the form that opens a table
        above = page.evaluate(
            "document.getElementById('mine-title').getBoundingClientRect().top"
            " < document.getElementById('create').getBoundingClientRect().top"
        )
        assert above
        rows = page.locator("#my-tables li.my-table").all_inner_texts()
        first = rows[0]  # your turn comes first
        assert texts["turn"] in first and texts["with"] in first and texts["score"] in first
        event_row = next(r for r in rows if texts["event"] in r)
        assert texts["round_over"] in event_row and texts["playing"] not in event_row
        assert any(texts["waiting"] in r for r in rows)
        link = page.locator("#my-tables li.my-table").first.get_by_role("link")
        assert link.get_attribute("href") == f"/mesa/{table}"
        axe_clean(page, f"start page {lang}, your tables")
        no_sideways_scroll(page)
        shot(page, f"my-tables-{lang}-{size}")
        assert csp_violations(page) == []
        assert errors == []
    finally:
        org.close()
        context.close()
