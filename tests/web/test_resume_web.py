"""Resume links in the browser (Playwright in Debian's chromium): opening another
person's link asks before switching, by mouse or by keyboard, in the person's
language; the start page makes, revokes and replaces links and lists each use.
Screenshots of the question and of the devices list at 360x640 and 1280x800 go
to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from web_helpers import WORKER, axe_clean, shot, wait_for

SIZES = {"phone": (360, 640), "desktop": (1280, 800)}
TARGETS = "main button, main a.button, main input:not([type=checkbox]):not([type=radio])"
ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)


def person(
    browser: Browser,
    base: str,
    size: str = "desktop",
    locale: str = "es-ES",
    agent: str | None = None,
) -> BrowserContext:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        base_url=base,
        user_agent=agent,
        service_workers=WORKER,
    )
    context.set_default_timeout(20_000)
    return context


def signed_in(context: BrowserContext, name: str) -> Page:
    page = context.new_page()
    page.goto("/")
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#hello:not(:empty)")
    page.goto("/cuenta")  # the resume links are on the account page
    page.wait_for_selector("#resume-make", state="visible")
    page.wait_for_selector("#resume-uses li")
    return page


def make_link(page: Page) -> str:
    page.click("#resume-make")
    page.wait_for_selector("#resume-link", state="visible")
    wait_for(page, "document.getElementById('resume-link').value.includes('/resume/')")
    return page.input_value("#resume-link")


def hello(page: Page) -> str:
    page.wait_for_selector("#hello:not(:empty)")
    return page.text_content("#hello") or ""


def check_page(page: Page, state: str, size: str) -> None:
    axe_clean(page, state)
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0], state
    small = page.evaluate(
        f"""() => [...document.querySelectorAll({TARGETS!r})]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.id, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)"""
    )
    assert small == [], small
    shot(page, f"{state}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_another_persons_link_asks_first(base: str, browser: Browser, size: str) -> None:
    ana_context = person(browser, base, size)
    luis_context = person(browser, base)
    ana = signed_in(ana_context, "Ana")
    luis = signed_in(luis_context, "Luis")
    link = make_link(luis)
    errors: list[str] = []
    ana.on("pageerror", lambda e: errors.append(str(e)))
    # opening Luis's link: a question, and Ana stays Ana when she says so
    ana.goto(link)
    question = ana.get_by_role("heading", level=1)
    assert question.text_content() == "Has iniciado sesión como Ana. ¿Continuar como Luis?"
    check_page(ana, "resume-question", size)
    ana.get_by_role("link", name="Seguir como Ana").click()
    assert hello(ana) == "Hola, Ana."
    # by keyboard: Tab to "Continuar como Luis", then Enter
    ana.goto(link)
    ana.wait_for_selector("#resume-continue")
    for _ in range(12):
        ana.keyboard.press("Tab")
        if ana.evaluate("document.activeElement.id") == "resume-continue":
            break
    assert ana.evaluate("document.activeElement.id") == "resume-continue"
    ana.keyboard.press("Enter")
    ana.wait_for_url(base + "/")
    assert hello(ana) == "Hola, Luis."
    # Luis's own link on the same device just continues
    ana.goto(link)
    assert hello(ana) == "Hola, Luis."
    assert errors == []
    ana_context.close()
    luis_context.close()


def test_the_question_in_english(base: str, browser: Browser) -> None:
    ana = signed_in(person(browser, base, locale="en-GB"), "Ana")
    luis = signed_in(person(browser, base), "Luis")
    ana.goto(make_link(luis))
    heading = ana.get_by_role("heading", level=1).text_content()
    assert heading == "You are signed in as Ana. Continue as Luis?"
    ana.get_by_role("button", name="Continue as Luis").click()
    ana.wait_for_url(base + "/")
    assert hello(ana) == "Hello, Luis."


@pytest.mark.parametrize("size", list(SIZES))
def test_revoke_replace_and_the_devices_list(base: str, browser: Browser, size: str) -> None:
    marta_context = person(browser, base, size)
    marta = signed_in(marta_context, "Marta")
    assert marta.text_content("#resume-uses") == "Todavía no se ha usado ningún enlace tuyo."
    old = make_link(marta)
    # her phone (a new device) and her laptop use the link
    phone = person(browser, base, "phone", agent=ANDROID).new_page()
    phone.goto(old)
    assert hello(phone) == "Hola, Marta."
    laptop = person(browser, base).new_page()
    laptop.goto(old)
    assert hello(laptop) == "Hola, Marta."
    marta.reload()
    marta.wait_for_selector("#resume-uses li .device")
    devices = marta.locator("#resume-uses .device").all_text_contents()
    assert devices == ["Chrome en Linux", "Chrome en Android"]
    # revoke and replace: the old link fails, the new one works
    marta.click("#resume-replace")
    marta.wait_for_selector("#confirm[open]")
    marta.click("#confirm [data-role=yes]")
    wait_for(
        marta,
        "(old) => document.getElementById('resume-link').value.includes('/resume/')"
        " && document.getElementById('resume-link').value !== old",
        arg=old,
    )
    new = marta.input_value("#resume-link")
    assert marta.text_content("#resume-state") == (
        "Tus enlaces anteriores están revocados. Este es el nuevo."
    )
    active = marta.text_content("#resume-active")
    assert active == "Enlaces que funcionan (también los de los correos): 1"
    check_page(marta, "resume-devices", size)
    shot(marta.locator("#devices"), f"resume-devices-panel-{size}")
    stranger = person(browser, base).new_page()
    answer = stranger.goto(old)
    assert answer is not None and answer.status == 410
    assert "se revocó" in (stranger.text_content("main") or "")
    stranger.goto(new)
    assert hello(stranger) == "Hola, Marta."
    assert httpx.get(old.replace("/resume/", "/resume/x")).status_code == 404
    marta_context.close()
