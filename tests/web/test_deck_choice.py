"""The deck choice in the header shows its whole text (Playwright in Debian's
chromium, under the pages' real Content-Security-Policy): at a phone
(360x640) and a desktop (1280x800), on the start page and on the table page,
in Spanish and in English, with each design chosen, the select is at least as
wide as its text needs (measured with no width limit), its content does not
overflow, it lies inside the viewport, and nothing scrolls sideways. The full
name of each design is its option's title. Screenshots of the header go to
``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import person, robot_table
from web_helpers import csp_violations, shot, sign_in, watch_errors

CATALOGS = Path(__file__).resolve().parents[2] / "src/espadas/i18n"
DECKS = ["classic", "four", "large"]
# the select's width as laid out, and the width it takes with no limit at all
WIDTHS = """() => {
  const deck = document.getElementById('deck');
  const shown = deck.getBoundingClientRect();
  const overflow = deck.scrollWidth - deck.clientWidth;
  const before = deck.style.cssText;
  deck.style.setProperty('max-width', 'none');
  deck.style.setProperty('width', 'max-content');
  deck.style.setProperty('flex', 'none');
  const needed = deck.getBoundingClientRect().width;
  deck.style.cssText = before;
  return {shown: shown.width, left: shown.left, right: shown.right, needed, overflow,
          text: deck.selectedOptions[0].textContent, title: deck.selectedOptions[0].title};
}"""


def texts(lang: str) -> dict[str, str]:
    catalog = json.loads((CATALOGS / f"{lang}.json").read_text())
    found: dict[str, str] = {}
    for section in catalog.values():
        if isinstance(section, dict):
            found.update({k: v for k, v in section.items() if k.startswith("deck.")})
    return found


def whole_text(page: Page, lang: str, where: str) -> None:
    names = texts(lang)
    size = page.viewport_size
    assert size is not None
    for deck in DECKS:
        page.select_option("#deck", deck)
        found = page.evaluate(WIDTHS)
        state = (where, deck, found)
        assert found["text"] == names[f"deck.{deck}_short"], state
        assert found["title"] == names[f"deck.{deck}"], state
        assert found["needed"] <= found["shown"] + 0.5, state
        assert found["overflow"] <= 0, state
        assert found["left"] >= 0 and found["right"] <= size["width"], state
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], state
        box = page.locator("#deck").bounding_box()
        assert box is not None and box["height"] >= 44, state
    page.select_option("#deck", "classic")


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_deck_choice_shows_its_whole_text(
    base: str, browser: Browser, size: str, lang: str
) -> None:
    context = person(browser, base, size, locale="es-ES" if lang == "es" else "en-US")
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(base + "/")
    page.wait_for_selector("#signin:visible")
    whole_text(page, lang, f"start page, {size}, {lang}")
    sign_in(page, "Rita")
    page.wait_for_selector("#create", state="visible")
    robot_table(page, base, "Rita")
    whole_text(page, lang, f"table page, {size}, {lang}")
    page.select_option("#deck", "four")
    shot(page, f"deck-choice-{size}-{lang}", full_page=False)
    page.select_option("#deck", "classic")
    assert csp_violations(page) == []
    assert errors == []
    context.close()
