"""Words and numbers a newcomer reads, in the browser: a hint speaks to the player
(*tu mano*, *your hand*), the bid box starts at nothing (at a table with hints,
at the hint's bid for the hand) and says so when nothing is chosen; an event says
"1 ronda" / "1 round" (no "ronda(s)"); the daily challenge names its rules by
their name ("reglas estándar" / "standard rules"). In Spanish on a phone and in
English on a desktop, under the pages' real policy; axe-core finds nothing.
Screenshots at 360x640 and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import my_turn
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

TEXTS: dict[str, dict[str, Any]] = {
    "es": {"hint": "Pista", "bid": "Apostar", "choose": "—",
           "first": "Elige primero cuántas bazas apuestas.",
           "to_you": r"\b(tu|tus|tuya|vas)\b", "not_to_you": r"\bsu\b",
           "event": "2 repartos en 1 ronda", "rules": "reglas estándar"},
    "en": {"hint": "Hint", "bid": "Bid", "choose": "—",
           "first": "First choose how many tricks you bid.",
           "to_you": r"\b(you|your)\b", "not_to_you": r"\bits\b",
           "event": "2 boards in 1 round", "rules": "standard rules"},
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


def started_table(page: Page, **body: Any) -> str:
    table = str(post(page, "/api/tables", body)["id"])
    post(page, f"/api/tables/{table}/robots", {"level": "normal"})
    post(page, f"/api/tables/{table}/start")
    page.goto(f"/mesa/{table}")
    return table


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_words_a_newcomer_reads(browser: Browser, base: str, lang: str, size: str) -> None:
    texts = TEXTS[lang]
    context = person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    sign_in(page, "Ana")
    page.wait_for_selector("#create", state="visible")

    # no hints: nothing is chosen for you, and Apostar says so
    table = started_table(page)
    view = my_turn(page, table, "bidding")
    assert page.input_value("#bid") == ""
    assert page.locator("#bid option:checked").inner_text() == texts["choose"]
    page.get_by_role("button", name=texts["bid"], exact=True).click()
    wait_for(page, "(t) => document.getElementById('error').textContent === t", texts["first"])
    assert page.locator("#error").is_visible()
    assert api_view(page, table)["version"] == view["version"]  # nothing was sent
    axe_clean(page, f"bid box {lang}, nothing chosen")
    shot(page, f"wording-{lang}-{size}-bid")

    # hints: the box starts at the hint's bid, and the hint speaks to you
    table = started_table(page, hints=True)
    my_turn(page, table, "bidding")
    hinted = page.request.get(f"/api/tables/{table}/hint?lang={lang}").json()
    wait_for(page, "(v) => document.getElementById('bid').value === v",
             str(hinted["action"]["value"]) if hinted["action"]["value"] != "blind_nil"
             else '"blind_nil"')  # fmt: skip
    page.get_by_role("button", name=texts["hint"], exact=True).click()
    wait_for(page, "document.getElementById('hint-text').textContent.length > 0")
    said = page.inner_text("#hint-text")
    assert re.search(texts["to_you"], said, re.IGNORECASE), said
    assert not re.search(texts["not_to_you"], said, re.IGNORECASE), said
    axe_clean(page, f"hint {lang}")
    no_sideways_scroll(page)
    shot(page, f"wording-{lang}-{size}-hint")

    # an event of one round: "1 ronda", not "ronda(s)"
    event = post(page, "/api/events", {"name": "Copa", "boards": 2, "robot": "aleatorio"})
    page.goto(f"/torneo/{event['id']}")
    wait_for(page, "document.getElementById('event-facts').textContent.length > 0")
    facts = page.inner_text("#event-facts")
    assert texts["event"] in facts and "(s)" not in facts, facts
    shot(page, f"wording-{lang}-{size}-event")

    # the daily challenge names its rules as the rules' name is written
    page.goto("/reto")
    wait_for(page, "document.getElementById('challenge-facts').textContent.length > 0")
    facts = page.inner_text("#challenge-facts")
    assert texts["rules"] in facts and "estandar" not in facts, facts
    assert csp_violations(page) == []
    assert errors == []
    context.close()
