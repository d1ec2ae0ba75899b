"""Hints in the page (Playwright in Debian's chromium, under the real policy):
the creator ticks "Permitir pistas" when opening a table; on your turn the
Pista / Hint button (or H) marks the normal robot's card in your hand and says
why, on the page and in the live region; at a table without hints there is no
button and H does nothing; axe-core finds nothing with the hint shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import TEXTS, my_turn, person, shot
from web_helpers import api_view, axe_clean, csp_violations, wait_for, watch_errors


def open_robot_table(page: Page, base: str, hints: bool, lang: str) -> str:
    page.goto(base + "/")
    page.wait_for_selector("#create:visible, #signin:visible")
    if page.locator("#signin").is_visible():
        page.fill("#name", "Ana")
        page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    page.select_option("#preset", "pagat")  # renege prevented: every card offered is proper
    if hints:
        page.locator("#more-options > summary").click()
        page.get_by_label("Permitir pistas" if lang == "es" else "Allow hints").check()
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.get_by_role("button", name=TEXTS[lang]["robots"], exact=True).click()
    page.get_by_role("button", name=TEXTS[lang]["start"], exact=True).click()
    page.wait_for_selector("#hand-cards button")
    return page.url.rsplit("/", 1)[1]


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_hint_marks_the_robots_card_and_says_why(
    browser: Browser, base: str, lang: str, size: str
) -> None:
    context = person(browser, base, size, "es-ES" if lang == "es" else "en-GB")
    page = context.new_page()
    errors = watch_errors(page)
    table = open_robot_table(page, base, True, lang)
    word = "Pista" if lang == "es" else "Hint"
    view = my_turn(page, table, "bidding")
    assert view["hints"] is True
    rules = page.locator("#rules-list").inner_text()
    assert ("Pistas permitidas" if lang == "es" else "Hints allowed") in rules
    page.get_by_role("button", name=word, exact=True).click()
    wait_for(page, "document.getElementById('hint-text').textContent.length > 0")
    said = page.locator("#hint-text").inner_text()
    assert said.startswith(f"{word}: ")
    bid = page.locator("#bid").input_value()  # the bid chosen for you is the hint's
    assert bid in said or (bid == "0" and "Nil" in said)
    page.get_by_role("button", name="Apostar" if lang == "es" else "Bid", exact=True).click()
    view = my_turn(page, table, "playing")
    assert page.locator("#hint-text").inner_text() == ""  # a new turn, a new hint
    hint = page.get_by_role("button", name=word, exact=True)
    assert hint.is_visible()  # touch players need the button, not only the key
    box = hint.bounding_box()
    assert box is not None and box["height"] >= 44
    page.locator("body").press("h")
    wait_for(page, "document.querySelectorAll('.hand-card.hinted').length === 1")
    height = page.evaluate("window.innerHeight")
    for button in page.locator("#hand-cards .hand-card").all():  # the whole hand in view
        edge = button.bounding_box()
        assert edge is not None and edge["y"] + edge["height"] <= height
    card = page.locator(".hand-card.hinted").get_attribute("data-card")
    assert {"type": "play", "value": card} in view["game"]["legal"]
    assert page.locator(".hand-card.hinted").get_attribute("aria-disabled") != "true"
    said_aloud = "(w) => document.getElementById('live').textContent.startsWith(w + ': ')"
    wait_for(page, said_aloud, arg=word)  # the live region reads the hint
    shot(page, f"hint-{size}")
    axe_clean(page, f"hint shown ({size})")
    assert csp_violations(page) == [] and errors == []
    context.close()


def test_no_hint_button_where_the_creator_did_not_allow_them(browser: Browser, base: str) -> None:
    context = person(browser, base, "phone")
    page = context.new_page()
    table = open_robot_table(page, base, False, "es")
    my_turn(page, table, "bidding")
    assert not page.get_by_role("button", name="Pista", exact=True).is_visible()
    page.locator("body").press("h")
    page.wait_for_timeout(300)
    assert page.locator("#hint-text").inner_text() == ""
    assert api_view(page, table)["hints"] is False
    context.close()
