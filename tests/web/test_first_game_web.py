"""A newcomer's first game in the page (Playwright in Debian's chromium, under the
real policy): the table form opens with the rule set and players only, the rest
folded under *Más opciones*, so that *Armar la mesa* is on the first screen of a
phone; at the table one press, *Completar con robots y empezar*, fills the empty
seats and starts. On a phone held sideways (640x360), in a real mobile context
(``is_mobile``, touch, device scale factor 2) and in a plain one, every card of
the hand and the bid control are on the screen while bidding, and the hand while
playing."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import my_turn, wait_version
from web_helpers import WATCH_CSP, WORKER, axe_clean, csp_violations, shot, wait_for, watch_errors


def fits(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` that are not wholly inside the viewport
    (at scroll 0)."""
    out: list[str] = page.evaluate(
        """(s) => { scrollTo(0, 0); return [...document.querySelectorAll(s)].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.top < 0 || r.left < 0
              || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
          }).map((e) => e.id || e.dataset.card || e.textContent.trim().slice(0, 20)); }""",
        selector,
    )
    return out


def start_at_once(page: Page, base: str, name: str) -> str:
    """Signs in, opens a table with the defaults and starts it with one press."""
    page.goto(base + "/")
    page.wait_for_selector("#signin:visible")
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.get_by_role("button", name="Completar con robots y empezar", exact=True).click()
    page.wait_for_selector("#hand-cards button, .face-down")
    return page.url.rsplit("/", 1)[1]


def test_the_form_folds_its_options_and_one_press_starts(browser: Browser, base: str) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 640},
        locale="es-ES",
        base_url=base,
        service_workers=WORKER,
    )
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/")
    page.wait_for_selector("#signin:visible")
    page.fill("#name", "Noa")
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    assert page.evaluate("document.getElementById('more-options').open") is False
    assert not page.locator("#target").is_visible()
    shot(page, "first-game-form-phone", full_page=False)
    # a short form: its button a screen and a half down at most (it was 1,600 px)
    form = page.locator("#create").bounding_box()
    submit = page.locator("#create button[type=submit]").bounding_box()
    assert form is not None and submit is not None
    assert submit["y"] + submit["height"] - form["y"] <= 360, (form, submit)
    assert submit["y"] + submit["height"] <= 1.5 * 640, submit
    shot(page, "first-game-form-phone", full_page=False)
    page.locator("#more-options > summary").click()
    assert page.locator("#target").is_visible()
    axe_clean(page, "the form with its options open")
    page.locator("#more-options > summary").click()
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.wait_for_selector("#seats li")
    table = page.url.rsplit("/", 1)[1]
    page.get_by_role("button", name="Completar con robots y empezar", exact=True).click()
    page.wait_for_selector("#hand-cards button")
    view = page.request.get(f"/api/tables/{table}").json()
    assert view["status"] == "playing"
    assert sum(1 for s in view["seats"] if s and s.get("robot")) == 3
    assert errors == [] and csp_violations(page) == []
    context.close()


@pytest.mark.parametrize("mobile", [True, False], ids=["mobile", "plain"])
def test_sideways_the_hand_and_the_bid_are_in_view(
    browser: Browser, base: str, mobile: bool
) -> None:
    options: dict[str, Any] = {"viewport": {"width": 640, "height": 360}}
    if mobile:
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(locale="es-ES", base_url=base, service_workers=WORKER, **options)
    context.add_init_script(WATCH_CSP)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors = watch_errors(page)
    table = start_at_once(page, base, "Lía")
    kind = "mobile" if mobile else "plain"
    view = my_turn(page, table, "bidding")
    assert fits(page, "#hand-cards .hand-card, #bid, #actions button.primary") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 640
    shot(page, f"first-game-bidding-landscape-{kind}", full_page=False)
    page.select_option("#bid", "3")  # nothing is chosen for you
    page.get_by_role("button", name="Apostar", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    my_turn(page, table, "playing")
    wait_for(page, "document.querySelectorAll('#hand-cards .hand-card').length === 13")
    assert fits(page, "#hand-cards .hand-card, #status") == []
    shot(page, f"first-game-playing-landscape-{kind}", full_page=False)
    assert errors == [] and csp_violations(page) == []
    context.close()
