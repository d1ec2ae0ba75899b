"""The browser interface, driven by Playwright in Debian's chromium.

Four people and a spectator at one table (one player by keyboard only), a
robot-filled game to the end through the page, axe-core in each state, the
language switch, and screenshots at phone and desktop sizes written to
``test-screenshots/`` (ignored by git), with
``ESPADAS_SCREENSHOTS=1``, for a person to look at.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from espadas.engine import CardSet
from web_helpers import (
    SIZES,
    api_view,
    axe_clean,
    no_sideways_scroll,
    open_table,
    person,
    shot,
    sign_in,
    touch_targets,
    wait_for,
    wait_turn,
    wait_version,
    watch_errors,
)


def page_cards(page: Page) -> set[str]:
    cards: list[str] = page.eval_on_selector_all(
        "[data-card]", "els => els.map(e => e.dataset.card)"
    )
    return set(cards)


def played_cards(view: dict[str, Any]) -> set[str]:
    game = view["game"]
    cards = [c for trick in game["tricks"] for c in trick["cards"]]
    if game["trick"]:
        cards += game["trick"]["cards"]
    return set(cards)


def test_four_people_and_a_spectator_play_a_hand(base: str, browser: Browser) -> None:
    contexts = [person(browser, base) for _ in range(5)]
    pages = [c.new_page() for c in contexts]
    errors = [watch_errors(p) for p in pages]
    ana, luis, marta, pedro, sofia = pages
    table = open_table(ana, base)
    axe_clean(ana, "table waiting, creator")
    link = ana.input_value("#invite-link")
    assert link.endswith(f"/mesa/{table}")
    for page, name in ((luis, "Luis"), (marta, "Marta"), (pedro, "Pedro"), (sofia, "Sofía")):
        page.goto(link)
        sign_in(page, name)
        page.wait_for_selector("#seats li")
    wait_for(sofia, "document.getElementById('status-info').textContent.length > 0")
    assert api_view(sofia, table)["you"] is None
    axe_clean(sofia, "table waiting, spectator")
    # Ana picks Marta (seat 2 already) ... she chooses Luis (seat 1) instead
    ana.wait_for_selector("#partner")
    ana.select_option("#partner", "1")
    ana.get_by_role("button", name="Elegir compañero", exact=True).click()
    wait_for(
        ana, "document.querySelector('#seats li:nth-child(3) .seat-name').textContent === 'Luis'"
    )
    seats = {p["name"]: p["seat"] for p in api_view(ana, table)["seats"]}
    assert seats == {"Ana": 0, "Marta": 1, "Luis": 2, "Pedro": 3}
    ana.get_by_role("button", name="Empezar la partida", exact=True).click()
    by_seat = {0: ana, 1: marta, 2: luis, 3: pedro}
    keyboard_seat = 3  # Pedro plays with the keyboard only
    snapshots: list[tuple[set[str], set[str]]] = []
    view = wait_version(ana, table, 1)
    axe_done = set()
    while True:
        view = api_view(ana, table)
        game = view["game"]
        if game["phase"] == "hand_end":
            break
        seat = game["to_act"]
        page = by_seat[seat]
        wait_turn(page)
        # the spectator's page, at a moment when nobody is moving
        spectator_cards = page_cards(sofia)
        snapshots.append((spectator_cards, played_cards(api_view(sofia, table))))
        state = game["phase"]
        if state not in axe_done:
            axe_clean(page, f"table {state}, player")
            axe_clean(sofia, f"table {state}, spectator")
            shot(page, f"table-{state}-desktop")
            axe_done.add(state)
        version = view["version"]
        if seat == keyboard_seat:
            keyboard_move(page, state)
        elif state == "bidding":
            page.select_option("#bid", "3")
            page.get_by_role("button", name="Apostar", exact=True).click()
        else:
            page.click("#hand-cards button.playable >> nth=0")
        wait_version(ana, table, version + 1)
    record = ana.request.get(f"/api/tables/{table}/record").json()
    deal = record["hands"][0]["deal"]
    assert len(record["hands"][0]["plays"]) == 52
    for shown, played in snapshots:
        assert shown <= played, shown - played
    assert len(snapshots) == 56
    # every player saw their own cards only
    mine = {str(c) for c in CardSet.parse(deal[0])}
    assert page_cards(ana) <= mine | {c for p in record["hands"][0]["plays"] for c in [p]}
    ana.get_by_role("button", name="SIGUIENTE MANO", exact=True).wait_for()
    axe_clean(ana, "hand end")
    for page_errors in errors:
        assert page_errors == []
    for context in contexts:
        context.close()


def keyboard_move(page: Page, state: str) -> None:
    """Pedro's move by keyboard only: B and the arrows for a bid, Tab and Enter for a card."""
    page.locator("body").focus()
    if state == "bidding":
        page.keyboard.press("b")
        assert page.evaluate("document.activeElement.id") == "bid"
        page.keyboard.press("ArrowDown")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Apostar"
        page.keyboard.press("Enter")
        return
    page.keyboard.press("t")
    wait_for(page, "document.getElementById('live').textContent.includes('Te toca')")
    page.focus("#hand-cards button[tabindex='0']")
    focused = page.evaluate("document.activeElement.dataset.card")
    playable = page.eval_on_selector_all(
        "#hand-cards button.playable", "els => els.map(e => e.dataset.card)"
    )
    cards = page.eval_on_selector_all("#hand-cards button", "els => els.map(e => e.dataset.card)")
    target = playable[-1]
    steps = cards.index(target) - cards.index(focused)
    for _ in range(abs(steps)):
        page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.card") == target
    page.keyboard.press("Enter")


def test_a_robot_table_played_to_the_end_through_the_page(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    table = open_table(page, base, target="250")
    page.select_option("#robot-level", "normal")
    page.get_by_role("button", name="Completar con robots", exact=True).click()
    page.get_by_role("button", name="Empezar la partida", exact=True).wait_for()
    page.get_by_role("button", name="Empezar la partida", exact=True).click()
    wait_version(page, table, 5)
    for _ in range(3000):
        view = api_view(page, table)
        game = view["game"]
        if game["phase"] == "game_over":
            break
        version = view["version"]
        if game["phase"] == "hand_end":
            label = "SIGUIENTE MANO" if game["result"] is None else "Confirmar el final"
            page.get_by_role("button", name=label, exact=True).click()
        elif game["to_act"] == 0:
            wait_turn(page)
            if game["phase"] == "bidding":
                page.select_option("#bid", "3")  # nothing is chosen for you
                page.get_by_role("button", name="Apostar", exact=True).click()
            else:
                page.click("#hand-cards button.playable >> nth=0")
        else:
            time.sleep(0.05)
            continue
        wait_version(page, table, version + 1)
    page.wait_for_selector("#result h2")
    assert page.locator("#result svg.chart polyline").count() == 2
    axe_clean(page, "game over")
    shot(page, "game-over-desktop")
    href = page.get_attribute("#result a[download]", "href")
    assert href == f"/api/tables/{table}/record"
    page.get_by_role("link", name="Ver la repetición", exact=True).click()
    page.wait_for_selector("#checks li")
    checks = page.locator("#checks li").all_inner_texts()
    assert checks and all("coincide" in c and "NO" not in c for c in checks)
    page.click("#next")
    wait_for(page, "document.getElementById('replay-step').textContent.includes('baza 1')")
    assert page.locator(".replay-seat").count() == 4
    axe_clean(page, "replay")
    assert errors == []
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_pages_at_both_sizes(base: str, browser: Browser, size: str) -> None:
    context = person(browser, base, size=size)
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#signin", state="visible")
    axe_clean(page, "home, signed out")
    no_sideways_scroll(page)
    shot(page, f"home-signed-out-{size}")
    table = open_table(page, base, name="Eva", preset="sala")
    no_sideways_scroll(page)
    touch_targets(page)
    shot(page, f"table-waiting-{size}")
    page.get_by_role("button", name="Completar con robots", exact=True).click()
    page.get_by_role("button", name="Empezar la partida", exact=True).click()
    page.wait_for_selector("#hand-cards button")
    no_sideways_scroll(page)
    touch_targets(page)
    shot(page, f"table-playing-{size}")
    page.goto(base + "/")
    page.wait_for_selector("#my-tables a")
    assert page.locator(f"#my-tables a[href='/mesa/{table}']").count() == 1
    axe_clean(page, "home, signed in")
    no_sideways_scroll(page)
    page.goto(base + "/ayuda")
    axe_clean(page, "help")
    no_sideways_scroll(page)
    shot(page, f"help-{size}")
    context.close()


def test_language_switch_and_decks(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    page.goto(base + "/ayuda")
    assert page.get_attribute("html", "lang") == "es"
    page.click("#lang-switch")
    # the switch loads the page again: between two documents there may be no <html> yet
    wait_for(page, "document.documentElement?.lang === 'en'")
    assert page.locator("h1").inner_text() != ""
    assert page.locator("#lang-switch").inner_text() == "Español"
    page.goto(base + "/")
    assert page.get_attribute("html", "lang") == "en"  # kept in a cookie
    page.select_option("#deck", "four")
    assert "deck-four" in (page.get_attribute("body", "class") or "")
    page.reload()
    wait_for(page, "document.body && document.body.classList.contains('deck-four')")
    english = httpx.get(base + "/", headers={"accept-language": "en-US,en;q=0.9"}).text
    assert 'lang="en"' in english
    context.close()


def test_blind_nil_and_accusation_states(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    # blind nil: the face-down hand, "look" and the blind-nil bid
    table = open_table(page, base, name="Nora", preset="cien")
    page.get_by_role("button", name="Completar con robots", exact=True).click()
    page.get_by_role("button", name="Empezar la partida", exact=True).click()
    page.wait_for_selector(".face-down")
    axe_clean(page, "blind nil, face down")
    wait_turn(page)
    options = page.eval_on_selector_all("#bid option", "els => els.map(e => e.textContent)")
    assert "Nil a ciegas" in options
    page.get_by_role("button", name="Mirar mis cartas", exact=True).click()
    page.wait_for_selector("#hand-cards button")
    assert page.locator("#hand-cards button").count() == 13
    # a false accusation (robots never renege): the dialog, then the review
    table = open_table(page, base, name="Nora")
    page.get_by_role("button", name="Completar con robots", exact=True).click()
    page.get_by_role("button", name="Empezar la partida", exact=True).click()
    for _ in range(200):
        game = api_view(page, table)["game"]
        if game["phase"] == "playing":
            break
        if game["to_act"] == 0:
            wait_turn(page)
            version = api_view(page, table)["version"]
            page.select_option("#bid", "3")  # nothing is chosen for you
            page.get_by_role("button", name="Apostar", exact=True).click()
            wait_version(page, table, version + 1)
        else:
            time.sleep(0.05)
    accuse = page.get_by_role("button", name=re.compile("^Acusar de renuncio"))
    accuse.first.click()
    page.wait_for_selector("#confirm[open]")
    axe_clean(page, "accusation dialog open")
    page.get_by_role("button", name="Sí", exact=True).click()
    page.wait_for_selector("#result .review")
    axe_clean(page, "accusation reviewed")
    assert api_view(page, table)["game"]["result"]["reason"] == "false_accusation"
    assert errors == []
    context.close()
