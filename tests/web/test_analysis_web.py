"""The analysis of a game in the page (Playwright in Debian's chromium, under the real
policy): Ana bids 13 at a robot table (a plain blunder), plays two tricks and
abandons, so the game is over; the result offers Analizar / Analyse; on the replay
page Analyse shows its progress in a live region, then the marks of Ana's seat
(her bid among them, marked, with the better bid), the decisions of the step shown,
another seat on choice, and the chart of the expected score with its figures in a
table; axe-core finds nothing with the analysis shown, at 360x640 and 1280x800."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import TEXTS, my_turn, robot_table, wait_version
from web_helpers import (
    axe_clean,
    csp_violations,
    no_sideways_scroll,
    shot,
    wait_for,
    watch_errors,
)
from web_helpers import person as sized_person

WORDS = {
    "es": {
        "analyse": "Analizar",
        "abandon": "Abandonar la partida",
        "replay": "Ver la repetición",
        "ready": "Análisis listo.",
        "bid_place": "Mano 1, apuesta",
        "seat": "Asiento analizado",
    },
    "en": {
        "analyse": "Analyse",
        "abandon": "Abandon the game",
        "replay": "Watch the replay",
        "ready": "Analysis ready.",
        "bid_place": "Hand 1, bid",
        "seat": "Seat analysed",
    },
}


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "analysis_budget_ms": 15.0}


def blunder_then_abandon(page: Page, base: str, lang: str) -> str:
    table = robot_table(page, base, "Ana", preset="pagat")
    my_turn(page, table, "bidding")
    page.select_option("#bid", "13")
    page.get_by_role("button", name=TEXTS[lang]["bid"], exact=True).click()
    for _ in range(2):
        view = my_turn(page, table, "playing")
        page.click("#hand-cards button.playable >> nth=0")
        wait_version(page, table, view["version"] + 1)
    page.get_by_role("button", name=WORDS[lang]["abandon"], exact=True).click()
    page.click("#confirm [data-role=yes]")
    page.wait_for_selector("#result h2")
    return table


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's box lies inside the viewport (the top 44 px of it at least)."""
    seen: bool = page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
                    return r.top >= 0 && r.top + Math.min(r.height, 44) <= innerHeight; }""",
        selector,
    )
    return seen


def replay_is_a_felt_under_the_mouse(page: Page, size: str) -> None:
    """The step buttons take mouse clicks (no card lies over them), the hands lie
    around a felt in rows, and the page stays short."""
    for _ in range(2):  # to the first trick with cards on the felt
        box = page.locator("#next").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = page.evaluate("([x, y]) => document.elementFromPoint(x, y).id", [x, y])
        assert hit == "next", hit
        page.mouse.click(x, y)
    wait_for(page, "document.querySelectorAll('#replay-board .replay-trick .card').length > 0")
    layout = page.evaluate(
        """() => {
          const r = (e) => e.getBoundingClientRect();
          const felt = r(document.getElementById('replay-board'));
          const seats = [...document.querySelectorAll('#replay-board .replay-seat')].map(r);
          const cards = [...document.querySelectorAll('#replay-board .card')].map(r);
          const inside = cards.every((c) => c.left >= felt.left && c.right <= felt.right
            && c.top >= felt.top && c.bottom <= felt.bottom);
          const header = r(document.querySelector('header.top'));
          return {inside, seats: seats.length, height: document.documentElement.scrollHeight,
                  feltHeight: felt.height, belowHeader: cards.every((c) => c.top >= header.bottom)};
        }"""
    )
    assert layout["inside"] and layout["belowHeader"], layout
    assert layout["seats"] == 4, layout
    viewport = page.viewport_size
    assert viewport is not None
    assert layout["feltHeight"] <= viewport["height"], layout  # the whole felt on one screen
    assert layout["height"] <= 2.2 * viewport["height"], layout
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"replay-felt-{size}", full_page=False)


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_analyse_a_game_and_see_its_marks_on_the_replay(
    browser: Browser, base: str, lang: str, size: str
) -> None:
    words = WORDS[lang]
    context = sized_person(browser, base, "es-ES" if lang == "es" else "en-GB", size)
    page = context.new_page()
    errors = watch_errors(page)
    table = blunder_then_abandon(page, base, lang)
    result_button = page.locator("#result").get_by_role("button", name=words["analyse"])
    assert result_button.is_visible()
    result_button.scroll_into_view_if_needed()
    shot(page, f"analysis-result-button-{size}", full_page=False)
    page.get_by_role("link", name=words["replay"], exact=True).click()
    page.wait_for_selector("#checks li")
    axe_clean(page, f"replay before the analysis ({size})")
    replay_is_a_felt_under_the_mouse(page, size)
    page.locator("#analysis").get_by_role("button", name=words["analyse"]).click()
    status = "document.querySelector('#analysis .analysis-status').textContent"
    said = wait_for(page, f"{status}.length > 0 && {status}", timeout=60)
    assert said  # queued or running: said in the live region
    shot(page.locator("#analysis"), f"analysis-progress-{size}")
    assert page.get_attribute("#analysis .analysis-status", "aria-live") == "polite"
    wait_for(page, f"{status} === {words['ready']!r}", timeout=120)
    wait_for(page, "document.querySelectorAll('#analysis-marked li.mark').length > 0")
    marked = page.locator("#analysis-marked button").all_inner_texts()
    bid = next(m for m in marked if m.startswith(words["bid_place"]))
    assert "13" in bid and " ± " in bid, bid  # the points lost and their standard error
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.locator("#analysis-marked button", has_text=words["bid_place"]).first.click()
    wait_for(page, "document.querySelectorAll('#analysis-step li.mark').length === 1")
    # the marked decision's moment comes into view: its controls, the felt and the mark
    for where in ("#replay-controls", "#analysis-step li.mark", "#replay-board"):
        assert in_view(page, where), where
    step = page.locator("#analysis-step").inner_text()
    assert "13" in step
    assert "13" in page.locator(".replay-seat").first.inner_text()  # Ana's bid, at her seat
    assert page.locator("svg.chart.expected polyline").count() == 1
    assert page.locator("svg.chart.expected circle").count() >= 1
    page.locator(".chart-figures summary").click()
    assert page.locator(".chart-figures tbody tr").count() >= 1
    shot(page, f"analysis-replay-{size}")
    shot(page.locator("#analysis"), f"analysis-panel-{size}")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"analysis-replay-top-{size}", full_page=False)
    axe_clean(page, f"replay with the analysis ({size})")
    no_sideways_scroll(page)
    # keyboard: the next step by the arrow key shows that step's decisions
    page.locator("body").press("ArrowRight")
    wait_for(page, "document.getElementById('replay-step').textContent.includes('1')")
    # another seat, chosen in the page
    page.get_by_label(words["seat"]).select_option("1")
    wait_for(page, "document.querySelector('#analysis-step').textContent.length > 0")
    page.goto(f"{base}/mesa/{table}")
    page.wait_for_selector("#result a[href$='#analysis']:visible")  # kept: at once the link
    assert not page.locator("#result").get_by_role("button", name=words["analyse"]).is_visible()
    shot(page, f"analysis-result-{size}")
    axe_clean(page, f"result with the analysis done ({size})")
    assert csp_violations(page) == [] and errors == []
    context.close()
