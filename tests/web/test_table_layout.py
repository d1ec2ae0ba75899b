"""The table page as a card table, driven by Playwright in Debian's chromium.

At a phone (360x640), a phone held sideways (640x360) and a desktop (1280x800):
while bidding and while playing, the status line, the felt, every card of your
hand and the score bar are on the first screen, with nothing to scroll
sideways and targets big enough. A hand played from the page sends its actions
over the live socket, never to ``/api/tables/.../actions``; the renege
confirmation; the hand summary agrees with the score sheet for every hand of a
robot game; axe-core finds nothing in each state. Screenshots go to
``test-screenshots/`` (ignored by git).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "test-screenshots"
SIZES = {"phone": (360, 640), "landscape": (640, 360), "desktop": (1280, 800)}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"Debian's chromium is needed at {CHROMIUM} (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def person(browser: Browser, base: str, size: str = "desktop") -> BrowserContext:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale="es-ES",
        base_url=base,
        bypass_csp=True,
    )
    context.set_default_timeout(20_000)
    return context


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def axe_clean(page: Page, state: str) -> None:
    results = Axe().run(page)
    assert results.violations_count == 0, f"{state}:\n{results.generate_report()}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def api_view(page: Page, table: str) -> dict[str, Any]:
    response = page.request.get(f"/api/tables/{table}")
    assert response.ok
    data: dict[str, Any] = response.json()
    return data


def robot_table(page: Page, base: str, name: str, **choices: str) -> str:
    """A table of ``name`` and three robots, started."""
    page.goto(base + "/")
    page.wait_for_selector("#create:visible, #signin:visible")
    if page.locator("#signin").is_visible():
        page.fill("#name", name)
        page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    for field, value in choices.items():
        page.select_option(f"#{field}", value)
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.get_by_role("button", name="Completar con robots", exact=True).click()
    page.get_by_role("button", name="Empezar la partida", exact=True).click()
    page.wait_for_selector("#hand-cards button, .face-down")
    return page.url.rsplit("/", 1)[1]


def wait_until(page: Page, table: str, test: Any, what: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = api_view(page, table)
        if test(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def my_turn(page: Page, table: str, phase: str) -> dict[str, Any]:
    view = wait_until(
        page,
        table,
        lambda v: v["game"]["phase"] == phase and v["game"]["to_act"] == 0,
        f"my turn in {phase}",
    )
    page.wait_for_function("document.title.includes('¡')")
    page.wait_for_function(
        "(v) => document.querySelectorAll('#hand-cards .hand-card').length === v",
        arg=len(view["game"]["hand"]),
    )
    return view


def wait_version(page: Page, table: str, at_least: int) -> dict[str, Any]:
    return wait_until(page, table, lambda v: v["version"] >= at_least, f"version {at_least}")


def one_screen(page: Page, state: str) -> None:
    """Status, felt, trick, score bar and every card of the hand inside the
    viewport at scroll 0; nothing to scroll sideways; targets big enough."""
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    assert size is not None
    width, height = size["width"], size["height"]
    parts = {
        "status": page.get_by_role("status"),
        "felt": page.get_by_role("region", name="Mesa", exact=True),
        "trick": page.get_by_role("region", name="Mesa", exact=True).get_by_role(
            "region", name="Baza en curso", exact=True
        ),
        "score": page.get_by_role("region", name="Puntos", exact=True),
        "hand": page.get_by_role("toolbar", name="Tu mano", exact=True),
    }
    cards = parts["hand"].get_by_role("button").all()
    assert len(cards) == 13, state
    for name, locator in [*parts.items(), *((f"card {i}", c) for i, c in enumerate(cards))]:
        box = locator.bounding_box()
        assert box is not None, (state, name)
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= width + 0.5
            and box["y"] + box["height"] <= height + 0.5
        )
        assert inside, (state, name, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, state
    # each card's visible part: up to the next card in its row, above the row below
    visible = page.evaluate(
        """() => {
          const cards = [...document.querySelectorAll('#hand-cards .hand-card')];
          return cards.map((c, i) => {
            const r = c.getBoundingClientRect();
            let right = r.right, bottom = r.bottom;
            for (const later of cards.slice(i + 1)) {
              const o = later.getBoundingClientRect();
              const sameRow = Math.abs(o.top - r.top) < r.height / 2;
              if (sameRow && o.left > r.left && o.left < right) right = o.left;
              if (!sameRow && o.top > r.top && o.top < bottom && o.left < r.right && o.right > r.left) bottom = o.top;
            }
            return [c.dataset.card, right - r.left, bottom - r.top];
          });
        }"""
    )
    small = [v for v in visible if v[1] < 24 or v[2] < 44]
    assert small == [], (state, small)
    targets = page.evaluate(
        """() => [...document.querySelectorAll('main button, main select, main summary,'
                 + ' header button, header select, dialog[open] button')]
          .filter((e) => e.offsetParent !== null && !e.classList.contains('hand-card'))
          .map((e) => [e.id || e.textContent.trim().slice(0, 20),
                       e.getBoundingClientRect().height, e.getBoundingClientRect().width])
          .filter(([, h, w]) => h < 44 || w < 44)"""
    )
    assert targets == [], (state, targets)


@pytest.mark.parametrize("size", list(SIZES))
def test_bidding_and_playing_fit_one_screen(base: str, browser: Browser, size: str) -> None:
    context = person(browser, base, size)
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Eva")
    view = my_turn(page, table, "bidding")
    one_screen(page, f"bidding {size}")
    axe_clean(page, f"bidding {size}")
    shot(page, f"layout-bidding-{size}")
    page.get_by_role("button", name="Apostar", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    view = my_turn(page, table, "playing")
    one_screen(page, f"playing {size}")
    axe_clean(page, f"playing {size}")
    shot(page, f"layout-playing-{size}")
    page.get_by_role("button", name="Planilla", exact=True).click()
    page.wait_for_selector("#sheet-dialog[open]")
    axe_clean(page, f"score sheet {size}")
    shot(page, f"layout-sheet-{size}")
    page.keyboard.press("Escape")
    page.locator("body").press("u")
    assert page.get_attribute("#last-trick", "aria-pressed") in ("true", "false")
    assert errors == []
    context.close()
