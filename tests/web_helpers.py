"""What the browser tests share: Debian's chromium (driven by Playwright through the
``browser`` fixture in conftest.py), the git-ignored folder of screenshots, and
the steps and checks every page test uses (a person, signing in, opening a table,
axe-core, sideways scroll, touch targets)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, ClassVar, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe, AxeResults
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

BROWSER = shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's chromium (``apt-get install chromium``), the browser people run: the
tests of the installable app use it, for what only a full browser has (the
installability criteria, notifications)."""

CHROMIUM = (
    os.environ.get("ESPADAS_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
"""What Playwright drives in the other browser tests: Debian's chromium built
without a window (``apt-get install chromium-headless-shell``), the same Blink
and V8 as ``chromium``, at about half its processor time (no browser interface
to draw); Debian's ``chromium`` where the shell is missing. ``ESPADAS_CHROMIUM``
names another executable."""

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
"""Where the browser tests save their screenshots (git-ignored), to be looked at."""

SCREENSHOTS = os.environ.get("ESPADAS_SCREENSHOTS", "") not in ("", "0")
"""Whether the browser tests save their screenshots: ``ESPADAS_SCREENSHOTS=1`` (or
``scripts/test --screenshots``). Off by default: a screenshot costs chromium about
a second of processor time, and the suite asserts nothing on the pictures."""

SIZES = {"phone": (360, 640), "desktop": (1280, 800)}
TARGETS = (
    "main button, main select, main input:not([type=checkbox]):not([type=radio]),"
    " main summary, header button, header select"
)

WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  const where = e.target && e.target.tagName ? e.target.tagName.toLowerCase() : '';
  window.__cspViolations.push(
    `${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at ${where} ${e.sample}`.trim());
}, true);
"""
"""Run in every page before its own scripts: keeps each refusal of the policy."""


class _Running:
    """The Playwright driver of this test process and the browsers it launched, by
    executable."""

    driver: ClassVar[Playwright | None] = None
    browsers: ClassVar[dict[str, Browser]] = {}


def launch(executable: str) -> Browser:
    """Debian's chromium at ``executable``, driven by Playwright (skipped where it
    is missing, except in CI, where that fails).

    One driver and one browser per executable serve every browser test module a
    test process runs in a row: starting them costs about 0.7 s of processor time
    (node and chromium), and each test opens its own context (cookies, storage),
    so modules share nothing else. :func:`close_browsers` ends them before any
    other module: the driver's event loop counts as the thread's running loop,
    and ``asyncio.run()`` refuses to start beside it."""
    if not os.path.exists(executable):
        if os.environ.get("CI"):
            pytest.fail(f"Debian's chromium is needed at {executable} (apt-get install chromium)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    if _Running.driver is None:
        _Running.driver = sync_playwright().start()
    browser = _Running.browsers.get(executable)
    if browser is None or not browser.is_connected():
        browser = _Running.driver.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        _Running.browsers[executable] = browser
    return browser


def close_browser(executable: str) -> None:
    """Closes the browser :func:`launch` keeps for ``executable``, if any."""
    browser = _Running.browsers.pop(executable, None)
    if browser is not None:
        browser.close()


def close_browsers() -> None:
    """Closes every browser :func:`launch` keeps, and stops the driver."""
    for executable in list(_Running.browsers):
        close_browser(executable)
    if _Running.driver is not None:
        _Running.driver.stop()
        _Running.driver = None


WORKER: Literal["allow", "block"] = "block"
"""Whether a test's pages may register the site's service worker (Playwright's
``service_workers`` option). Blocked except in the tests of the installable app: on
its first page in a fresh context the worker fetches and keeps every file of every
page in both languages, several seconds of processor time per context for nothing
the other tests look at."""


def person(
    browser: Browser,
    base: str,
    locale: str = "es-ES",
    size: str = "desktop",
    worker: Literal["allow", "block"] = WORKER,
) -> BrowserContext:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        base_url=base,
        service_workers=worker,
    )
    context.add_init_script(WATCH_CSP)
    context.set_default_timeout(20_000)
    return context


def csp_violations(page: Page) -> list[str]:
    """What the page's Content-Security-Policy refused since it was loaded."""
    found: list[str] = page.evaluate("window.__cspViolations || []")
    return found


def wait_for(page: Page, expression: str, arg: Any = None, timeout: float = 20.0) -> Any:
    """Waits until ``expression`` (JavaScript: an expression, or a function of
    ``arg``) is truthy in the page, and returns its value. It polls with
    ``page.evaluate``, which the browser runs outside the page's
    Content-Security-Policy; Playwright's ``wait_for_function`` compiles its
    predicate with ``eval`` inside the page, which the pages' policy refuses."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = page.evaluate(expression, arg)
        except PlaywrightError as exc:  # a page between two documents
            if "context was destroyed" not in str(exc) or time.monotonic() > deadline:
                raise
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"never true in the page: {expression}")
        time.sleep(0.05)


def watch_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(e.stack or str(e)))  # where it was thrown
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def sign_in(page: Page, name: str) -> None:
    page.fill("#name", name)
    page.click("#signin button[type=submit]")


def api_view(page: Page, table: str) -> dict[str, Any]:
    """The view the page's own person has, read through the API with its cookies."""
    response = page.request.get(f"/api/tables/{table}")
    assert response.ok
    data: dict[str, Any] = response.json()
    return data


AXE_SCRIPT = Axe().axe_script
"""axe-core's script (about 500 KB), put in a page once by :func:`axe_clean`."""


def axe_clean(page: Page, state: str) -> None:
    """No axe-core violation in ``page`` as it is now. axe-core is put in each
    document once and run as often as asked: evaluating its script again would
    cost a page as much processor time as the audit itself."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    response = page.evaluate("(o) => axe.run(document, o)", {"resultTypes": ["violations"]})
    results = AxeResults(response)
    assert results.violations_count == 0, f"{state}:\n{results.generate_report()}"


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] if page.viewport_size else True, width


def shot(target: Page | Locator, name: str, *, full_page: bool = True) -> None:
    """Saves ``target`` (the whole page, or one element) as ``SHOTS/name.png`` for a
    person to look at, when :data:`SCREENSHOTS` is on."""
    if not SCREENSHOTS:
        return
    SHOTS.mkdir(exist_ok=True)
    path = str(SHOTS / f"{name}.png")
    if isinstance(target, Locator):
        target.screenshot(path=path)
    else:
        target.screenshot(path=path, full_page=full_page)


def touch_targets(page: Page) -> None:
    small = page.evaluate(
        f"""() => [...document.querySelectorAll({TARGETS!r})]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.id || e.textContent.trim().slice(0, 20),
                         e.getBoundingClientRect().height, e.getBoundingClientRect().width])
            .filter(([, h, w]) => h < 44 || w < 44)"""
    )
    assert small == [], small


def open_table(page: Page, base: str, name: str = "Ana", **choices: str) -> str:
    page.goto(base + "/")
    page.wait_for_selector("#create:visible, #signin:visible")
    if page.locator("#signin").is_visible():
        sign_in(page, name)
    page.wait_for_selector("#create", state="visible")
    if choices:  # the options past the rule set are folded under "Más opciones"
        page.evaluate("document.getElementById('more-options').open = true")
    for field, value in choices.items():
        page.select_option(f"#{field}", value)
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.wait_for_selector("#seats li")
    return page.url.rsplit("/", 1)[1]


def wait_version(page: Page, table: str, at_least: int) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        view = api_view(page, table)
        if view["version"] >= at_least:
            return view
        time.sleep(0.05)
    raise AssertionError("the table did not move")


def wait_turn(page: Page) -> None:
    """Waits until the page says it is its person's turn (in the tab title)."""
    try:
        wait_for(page, "document.title.includes('¡')")  # "¡Tu turno!"
    except AssertionError as exc:
        status = page.inner_text("#status")
        raise AssertionError(f"no turn shown: title {page.title()!r}, status {status!r}") from exc
