"""The lobby in real browsers: four people press "Jugar ahora" on the start page
(each asked for a name once) and land at one table; three people and a robot after
the wait; the page by keyboard, axe clean, at phone and desktop sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request

from web_helpers import axe_clean, no_sideways_scroll, person, shot, wait_for, watch_errors


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "lobby_wait_s": 1.0,
        "lobby_tick_s": 0.1,
    }


def _seated_url(page: Page) -> str:
    page.wait_for_url("**/mesa/**", timeout=30_000, wait_until="commit")
    return page.url.rsplit("/", 1)[1]


def _table_requests(pages: list[Page]) -> list[list[str]]:
    """Each page's requests for a table's document, kept as they are made: one each,
    never a second that would abort the first (the lobby may name the table in
    more than one frame)."""
    asked: list[list[str]] = [[] for _ in pages]
    for page, kept in zip(pages, asked, strict=True):

        def keep(request: Request, kept: list[str] = kept) -> None:
            if request.resource_type == "document" and "/mesa/" in request.url:
                kept.append(request.url)

        page.on("request", keep)
    return asked


def _one_table(pages: list[Page], to_table: list[list[str]]) -> str:
    """The table every page landed at: one table for all, each page's document asked
    for once (``to_table``, from :func:`_table_requests`)."""
    tables = {_seated_url(page) for page in pages}
    assert len(tables) == 1
    for page in pages:
        page.wait_for_load_state()
    assert [len(asked) for asked in to_table] == [1] * len(pages), to_table
    return tables.pop()


def test_four_people_press_play_now_and_land_at_one_table(browser: Browser, base: str) -> None:
    contexts = [person(browser, base) for _ in range(4)]
    try:
        pages = [c.new_page() for c in contexts]
        to_table = _table_requests(pages)
        for page, name in zip(pages, ("Ana", "Luis", "Marta", "Pedro"), strict=True):
            page.goto("/")
            page.click("#play-now")
            page.wait_for_selector("#lobby-signin:visible")
            page.fill("#name", name)
            page.select_option("#lobby-wait", "60")  # people only: no robot comes first
            page.click("#lobby-signin button[type=submit]")
        view = pages[0].request.get(f"/api/tables/{_one_table(pages, to_table)}").json()
        assert view["status"] == "playing"
        assert not any(s.get("robot") for s in view["seats"])
    finally:
        for context in contexts:
            context.close()


def test_three_people_and_a_robot_after_the_wait(browser: Browser, base: str) -> None:
    contexts = [person(browser, base) for _ in range(3)]
    try:
        pages = [c.new_page() for c in contexts]
        to_table = _table_requests(pages)
        for page, name in zip(pages, ("Rosa", "Juan", "Eva"), strict=True):
            page.goto("/sala")
            page.fill("#name", name)
            page.click("#lobby-signin button[type=submit]")
            page.wait_for_selector("button[data-rules=pagat]:not([disabled])")
            page.select_option("#lobby-wait", "10")  # time for all three on a loaded machine
        for page in pages:  # within the wait, one after the other
            page.click("button[data-rules=pagat]")
        view = pages[0].request.get(f"/api/tables/{_one_table(pages, to_table)}").json()
        assert [s["robot"] for s in view["seats"] if s.get("robot")] == ["experto"]
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize(
    ("size", "locale", "path"), [("phone", "es-ES", "/sala"), ("desktop", "en-GB", "/lobby")]
)
def test_the_lobby_by_keyboard_axe_clean(
    browser: Browser, base: str, size: str, locale: str, path: str
) -> None:
    context = person(browser, base, locale=locale, size=size)
    someone = person(browser, base, locale=locale)
    try:
        page = context.new_page()
        other = someone.new_page()
        errors = watch_errors(page)
        page.goto(path)
        assert page.locator("html").get_attribute("lang") == ("es" if path == "/sala" else "en")
        page.fill("#name", "Teclado" + size)
        page.press("#name", "Enter")
        page.wait_for_selector("#blocks:visible")
        axe_clean(page, f"lobby {size} signed in")
        page.select_option("#lobby-wait", "120")  # long enough to look at the countdown
        button = page.locator("button[data-rules=sala-6]")
        button.focus()
        # a frame between focusing a button and pressing it keeps the focus where it was
        other.goto(path)
        other.fill("#name", "Otra" + size)
        other.press("#name", "Enter")
        other.select_option("#lobby-wait", "120")
        other.click("button[data-rules=cien]")
        page.locator("button[data-rules=cien] .count").wait_for()
        assert page.evaluate("document.activeElement.dataset.rules") == "sala-6"
        page.keyboard.press("Enter")
        page.wait_for_selector("#queue:visible")
        status = page.inner_text("#queue-status")
        assert ("6" in status) and status.strip()
        wait_for(page, "document.activeElement.id === 'queue-cancel'")
        wait_for(page, "document.getElementById('queue-countdown').textContent.includes('s')")
        no_sideways_scroll(page)
        axe_clean(page, f"lobby {size} waiting")
        shot(page, f"lobby-{size}")
        page.keyboard.press("Enter")  # "Dejar de buscar"
        page.wait_for_selector("#queue", state="hidden")
        assert errors == [], errors
        other.click("#queue-cancel")
        other.wait_for_selector("#queue", state="hidden")
    finally:
        context.close()
        someone.close()


def test_a_seek_posted_and_accepted_by_two_people(browser: Browser, base: str) -> None:
    """Ana (phone) posts a seek for three, by keyboard; Luis (desktop, English) and
    Eva see it live and accept; Ana's page goes to the table once Luis sat, and the
    game starts when Eva takes the last seat."""
    sizes = (("phone", "es-ES"), ("desktop", "en-GB"), ("desktop", "es-ES"))
    contexts = [person(browser, base, locale=loc, size=size) for size, loc in sizes]
    try:
        ana, luis, eva = (c.new_page() for c in contexts)
        errors = watch_errors(ana)
        for page, name in ((ana, "Ana"), (luis, "Luis"), (eva, "Eva")):
            page.goto("/sala")
            page.fill("#name", name)
            page.click("#lobby-signin button[type=submit]")
            page.wait_for_selector("#blocks:visible")
        ana.click("#seek-new > summary")
        ana.select_option("#seek-rules", "sala-3")
        ana.select_option("#seek-turns", "days")
        ana.fill("#seek-max", "2000")
        ana.press("#seek-max", "Enter")
        ana.wait_for_selector("#my-seek:visible")
        assert "Sala, 3 individual" in ana.inner_text("#my-seek-status")
        wait_for(ana, "document.activeElement.id === 'seek-withdraw'")
        no_sideways_scroll(ana)
        axe_clean(ana, "lobby phone seek posted")
        shot(ana, "lobby-seek-phone")
        accept = luis.locator("#seek-list button[data-accept]")
        accept.wait_for()
        assert "Ana" in luis.inner_text("#seek-list") and "by days" in luis.inner_text("#seek-list")
        axe_clean(luis, "lobby desktop seek listed")
        shot(luis, "lobby-seek-desktop")
        accept.click()
        table = _seated_url(luis)
        assert _seated_url(ana) == table  # accepted: the creator goes to the table
        eva.locator(f"#seek-list button[data-accept='{table}']").click()
        assert _seated_url(eva) == table
        wait_for(
            eva,
            "(t) => fetch('/api/tables/' + t).then(r => r.json())"
            ".then(v => v.status === 'playing')",
            table,
        )
        view = eva.request.get(f"/api/tables/{table}").json()
        assert sorted(s["name"] for s in view["seats"]) == ["Ana", "Eva", "Luis"]
        assert [e for e in errors if not e.startswith("Failed to load resource")] == []
    finally:
        for context in contexts:
            context.close()
