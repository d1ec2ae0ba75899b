"""An event's table in the browser when its round is played out: the table says
the round is over, offers no next hand (the event would refuse it) and no way to
abandon, leads back to the event and, once the event opens it, to the person's
table of the next round. In Spanish on a phone and in English on a desktop, under
the pages' real policy; axe-core finds nothing. Screenshots at 360x640 and
1280x800 go to ``test-screenshots/`` (with
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
    "es": {"join": "Apuntarme", "next": "SIGUIENTE MANO", "abandon": "Abandonar la partida",
           "status": "Ronda terminada", "event": "Ver el torneo",
           "to_next": "Ir a mi mesa de la ronda 2"},
    "en": {"join": "Join", "next": "NEXT HAND", "abandon": "Abandon the game",
           "status": "Round over", "event": "See the event",
           "to_next": "Go to my round 2 table"},
}  # fmt: skip


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "notices": False}


def csrf(page: Page) -> str:
    cookies = page.context.cookies()
    return str(next(c["value"] for c in cookies if c["name"] == "espadas_csrf"))


def play_out(page: Page, table: str) -> dict[str, Any]:
    """Plays the page's person's turns (first legal move, through the API with the
    page's cookies) until the table's game is over; its last view."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = api_view(page, table)
        game = view["game"]
        if game["result"] is not None:
            return view
        if game["to_act"] == view["you"] and game["legal"]:
            moved = page.request.post(
                f"/api/tables/{table}/actions",
                data=game["legal"][0],
                headers={"x-csrf-token": csrf(page)},
            )
            assert moved.ok, moved.text()
        else:
            time.sleep(0.05)
    raise AssertionError("the board was not played out in time")


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_a_round_played_out_leads_on(browser: Browser, base: str, lang: str, size: str) -> None:
    texts = TEXTS[lang]
    org = Client(base)
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    try:
        org.sign_in("Olga")
        made = org.ok(
            "POST", "/api/events", {"name": f"Copa {lang}", "boards": 2, "rounds": 2,
                                    "robot": "aleatorio"},
        )  # fmt: skip
        page.goto("/")
        page.wait_for_selector("#signin:visible")
        sign_in(page, "Ana")
        page.wait_for_selector("#create", state="visible")
        page.goto("/torneo/" + made["link"].split("/torneo/", 1)[1])
        page.get_by_role("button", name=texts["join"], exact=True).click()
        wait_for(page, "document.querySelectorAll('#entrants li').length === 1")
        org.ok("POST", f"/api/events/{made['id']}/start")
        table = org.ok("GET", f"/api/events/{made['id']}")["tables"][0]["table"]
        page.goto(f"/mesa/{table}")
        page.wait_for_selector("#hand-cards button, .face-down")

        play_out(page, table)
        # the last board's summary: the round is over, the way back to the event
        summary = page.locator("#summary")
        wait_for(page, "document.getElementById('summary').open")
        wait_for(page, "document.querySelector('#summary-actions a[href^=\"/torneo/\"]') !== null")
        assert summary.get_by_role("button", name=texts["next"], exact=True).count() == 0
        event_link = summary.get_by_role("link", name=texts["event"], exact=True)
        assert event_link.get_attribute("href") == f"/torneo/{made['id']}"
        # the event opens round 2 (the only table of round 1 is done): its link comes
        to_next = summary.get_by_role("link", name=texts["to_next"], exact=True)
        to_next.wait_for()
        axe_clean(page, f"event table {lang} round over, summary")
        shot(page, f"event-table-{lang}-{size}-summary")
        summary.get_by_role("button", name="Cerrar" if lang == "es" else "Close").click()
        assert page.inner_text("#status").startswith(texts["status"])
        assert "Mano terminada" not in page.inner_text("#status")
        assert page.get_by_role("button", name=texts["abandon"]).count() == 0
        assert page.get_by_role("button", name=texts["next"], exact=True).count() == 0
        assert page.locator("#actions").get_by_role("link", name=texts["event"]).is_visible()
        axe_clean(page, f"event table {lang} round over")
        no_sideways_scroll(page)
        shot(page, f"event-table-{lang}-{size}-over")

        page.locator("#actions").get_by_role("link", name=texts["to_next"]).click()
        page.wait_for_url("**/mesa/torneo-*")
        second = page.url.rsplit("/", 1)[1]
        assert second != table
        page.wait_for_selector("#hand-cards button, .face-down")
        assert api_view(page, second)["you"] is not None
        assert csp_violations(page) == []
        assert errors == []
    finally:
        org.close()
        context.close()
