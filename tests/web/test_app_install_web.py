"""The site as an installable app, in Debian's chromium (Playwright) against a real
server: Chromium's own installability check and each of its criteria seen from
the page (a manifest that is linked and parses, a name, PNG icons of 192 and 512
pixels that load at those sizes, a start page within the scope, a standalone
display, a secure context, a service worker that controls the page and answers
its requests); then the network cut off: the start page still opens with its
content, any other page shows the offline page in the page's language, and back
online pages come from the network again. Also ``/favicon.ico``, pages with no
console error, the worker's cache (one version, old ones deleted, never the API)
and the offline page's screenshots at a phone's and a desktop's size."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from espadas.web.app_install import OFFLINE_PATH, version
from espadas.web.site import catalog
from web_helpers import (
    BROWSER,
    SIZES,
    WATCH_CSP,
    axe_clean,
    close_browser,
    csp_violations,
    launch,
    no_sideways_scroll,
    person,
    shot,
    touch_targets,
    wait_for,
    watch_errors,
)

LOCALES = {"es": "es-ES", "en": "en-US"}

CACHED = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    out[name] = (await cache.keys()).map((request) => new URL(request.url).pathname
      + new URL(request.url).search);
  }
  return out;
}"""
"""Every cache of the page's origin, with the paths it holds."""

ICON_SIZE = """async (src) => {
  const image = new Image();
  image.src = src;
  await image.decode();
  return [image.naturalWidth, image.naturalHeight];
}"""
"""The size at which the page loads an image."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The full chromium: the headless shell of the other browser tests has no
    notifications and does not offer to install an app."""
    yield launch(BROWSER)
    close_browser(BROWSER)


@pytest.fixture
def installed(browser: Browser, tmp_path: Path) -> Iterator[BrowserContext]:
    """A browser profile kept on disk (Chromium does not install apps from an
    incognito profile, which is what a plain context is), in Spanish."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=BROWSER,
        args=["--no-sandbox"],
        locale="es-ES",
        viewport={"width": 1280, "height": 800},
    )
    context.add_init_script(WATCH_CSP)
    context.set_default_timeout(20_000)
    yield context
    context.close()


def controlled(page: Page, base: str, path: str = "/") -> None:
    """Opens ``path``, waits for the service worker to be active (its cache is
    filled by then) and reloads, so that the worker controls the page."""
    page.goto(base + path)
    wait_for(page, "navigator.serviceWorker.ready.then((r) => r.active !== null)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def test_chromium_can_install_the_app(base: str, installed: BrowserContext) -> None:
    page = installed.pages[0] if installed.pages else installed.new_page()
    errors = watch_errors(page)
    controlled(page, base)
    cdp = installed.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    found = cdp.send("Page.getAppManifest")
    assert found["url"] == base + "/manifest.webmanifest?lang=es"
    assert found["errors"] == []
    assert errors == [] and csp_violations(page) == []


def test_each_criterion_from_the_page(base: str, browser: Browser) -> None:
    context = person(browser, base, worker="allow")
    page = context.new_page()
    controlled(page, base)
    assert page.evaluate("window.isSecureContext")  # 127.0.0.1 is trustworthy
    href = page.evaluate("document.querySelector('link[rel=manifest]').href")
    answer = page.request.get(href)
    assert answer.ok and answer.headers["content-type"] == "application/manifest+json"
    manifest: dict[str, Any] = answer.json()
    assert manifest.get("name") or manifest.get("short_name")
    assert manifest["display"] == "standalone"
    start, scope = (
        page.evaluate("([u, base]) => new URL(u, base).href", [manifest[key], href])
        for key in ("start_url", "scope")
    )
    assert start.startswith(scope), (start, scope)
    icons = {
        icon["sizes"]: icon
        for icon in manifest["icons"]
        if icon["type"] == "image/png" and "any" in icon.get("purpose", "any")
    }
    for side in (192, 512):
        icon = icons[f"{side}x{side}"]
        src = page.evaluate("([u, base]) => new URL(u, base).href", [icon["src"], href])
        assert page.request.get(src).headers["content-type"] == "image/png"
        assert page.evaluate(ICON_SIZE, src) == [side, side]
    # the colours are those the page shows: the top bar and the background
    theme = page.evaluate("document.querySelector('meta[name=theme-color]').content")
    assert theme == manifest["theme_color"] == "#14532d"
    bar = page.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor")
    ground = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert (bar, ground) == ("rgb(20, 83, 45)", "rgb(243, 244, 246)")
    assert manifest["background_color"] == "#f3f4f6"
    # the worker: registered for the whole site, without asking for anything
    worker = page.evaluate(
        "navigator.serviceWorker.ready.then((r) => [r.scope, r.active.scriptURL])"
    )
    assert worker == [base + "/", base + "/sw.js"]
    assert page.evaluate("Notification.permission") == "default"
    context.close()


def offline_texts(lang: str) -> tuple[str, str]:
    return catalog(lang)["offline.title"], catalog(lang)["offline.retry"]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_without_a_connection(base: str, browser: Browser, lang: str) -> None:
    context = person(browser, base, LOCALES[lang], worker="allow")
    page = context.new_page()
    controlled(page, base)
    start_title = page.text_content("main h1")
    context.set_offline(True)
    # the start page: from the cache, with its scripts and texts
    page.reload()
    assert page.text_content("main h1") == start_title
    assert page.evaluate("document.documentElement.lang") == lang
    wait_for(page, "document.getElementById('deck').options.length > 0")  # page.js ran
    # no name asked for (the club cannot say who you are): a note that it comes back
    wait_for(page, "!document.getElementById('offline-note').hidden")
    assert page.text_content("#offline-note") == catalog(lang)["home.offline"]
    assert page.locator("#signin").is_hidden()
    shot(page, f"offline-start-{lang}-desktop")
    # any other page: the offline page, in the page's language, at that page's address
    page.goto(base + "/mesa/xyz")
    title, retry = offline_texts(lang)
    assert page.url == base + "/mesa/xyz"
    assert page.text_content("main h1") == title
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.text_content("#retry") == retry
    wait_for(page, "document.getElementById('deck').options.length > 0")
    assert csp_violations(page) == []
    # "Try again" loads the page again (still the offline page while offline)
    page.evaluate("window.__before = true")
    page.click("#retry")
    wait_for(page, "window.__before === undefined && document.getElementById('retry')")
    wait_for(page, "document.getElementById('deck').options.length > 0")  # its script ran
    # back online, the page loads itself again, from the network: the table page
    context.set_offline(False)
    # (between two documents there is no body)
    wait_for(page, "document.body && document.body.classList.contains('page-table')")
    assert page.url == base + "/mesa/xyz"
    page.goto(base + "/ayuda")
    assert page.evaluate("document.body.classList.contains('page-help')")
    context.close()


def test_the_language_chosen_wins_offline(base: str, browser: Browser) -> None:
    """A Spanish browser whose person chose English (the cookie of the language
    switch): the offline page speaks English, and ``?lang=`` still picks one."""
    context = person(browser, base, "es-ES", worker="allow")
    context.add_cookies([{"name": "espadas_lang", "value": "en", "url": base}])
    page = context.new_page()
    controlled(page, base)
    assert page.evaluate("document.documentElement.lang") == "en"
    context.set_offline(True)
    page.goto(base + "/torneos")
    assert page.text_content("main h1") == offline_texts("en")[0]
    page.goto(base + "/torneos?lang=es")
    assert page.text_content("main h1") == offline_texts("es")[0]
    page.goto(base + "/?lang=es")
    assert page.evaluate("document.body.classList.contains('page-home')")
    assert page.evaluate("document.documentElement.lang") == "es"
    context.close()


def test_the_cache_one_version_no_api_old_ones_deleted(base: str, browser: Browser) -> None:
    context = person(browser, base, worker="allow")
    page = context.new_page()
    controlled(page, base)
    page.evaluate("fetch('/api/presets').then((r) => r.json())")
    page.evaluate("fetch('/static/app.css').then((r) => r.text())")
    cached: dict[str, list[str]] = page.evaluate(CACHED)
    assert list(cached) == [f"espadas-{version()}"]
    paths = next(iter(cached.values()))
    assert {"/?lang=es", "/?lang=en", f"{OFFLINE_PATH}?lang=en", "/static/app.css"} <= set(paths)
    assert not [path for path in paths if path.startswith("/api/")]
    # a new worker (another address of the same script) deletes the caches of earlier ones
    page.evaluate("caches.open('espadas-0123456789abcdef')")
    page.evaluate("navigator.serviceWorker.register('/sw.js?again=1', { scope: '/' })")
    wait_for(
        page,
        """navigator.serviceWorker.getRegistration('/').then((r) => r.active
           && r.active.scriptURL.endsWith('again=1'))""",
    )
    wait_for(page, "caches.keys().then((names) => names.length === 1)")
    assert list(page.evaluate(CACHED)) == [f"espadas-{version()}"]
    context.close()


def test_a_push_still_shows_its_notice(base: str, browser: Browser) -> None:
    """The worker that keeps the cache is the one that shows turn notices: a push
    delivered to it (through Chromium's DevTools protocol) becomes a notification
    with the title, text, table and tag the server sent, and the app's icon."""
    context = person(browser, base, worker="allow")
    context.grant_permissions(["notifications"], origin=base)
    page = context.new_page()
    controlled(page, base)
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 20
    while not registrations and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    ours = [r for r in registrations if r["scopeURL"] == base + "/" and not r["isDeleted"]]
    assert ours, registrations
    notice = {"title": "Te toca", "body": "Mesa de Ana", "url": "/mesa/abcdefgh12", "tag": "t"}
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": ours[0]["registrationId"], "data": json.dumps(notice)},
    )
    shown = wait_for(
        page,
        """navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) =>
           all.map((n) => [n.title, n.body, n.data.url, n.tag, n.icon]))""",
    )
    assert shown == [
        ["Te toca", "Mesa de Ana", base + "/mesa/abcdefgh12", "t", base + "/static/icon-192.png"]
    ]
    context.close()


def test_the_favicon_and_no_console_error(base: str, browser: Browser) -> None:
    context = person(browser, base, worker="allow")
    page = context.new_page()
    answer = page.request.get(base + "/favicon.ico")
    assert answer.status == 200 and answer.headers["content-type"].startswith("image/")
    errors = watch_errors(page)
    failed: list[str] = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    for path in ("/", "/ayuda", "/sala", OFFLINE_PATH):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        wait_for(page, "navigator.serviceWorker.ready.then((r) => r.active !== null)")
    assert errors == [] and failed == [] and csp_violations(page) == []
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_offline_page_looks_right(base: str, browser: Browser, size: str, lang: str) -> None:
    context = person(browser, base, LOCALES[lang], size, worker="allow")
    page = context.new_page()
    controlled(page, base)
    context.set_offline(True)
    page.goto(base + "/mesa/xyz")
    assert page.text_content("main h1") == offline_texts(lang)[0]
    wait_for(page, "document.getElementById('deck').options.length > 0")
    wait_for(page, "document.querySelector('.offline-icon').complete")
    no_sideways_scroll(page)
    touch_targets(page)
    # the card is in the middle of the page and its buttons fit in it
    box = page.locator(".offline").bounding_box()
    assert box is not None
    width = SIZES[size][0]
    assert abs(box["x"] + box["width"] / 2 - width / 2) <= 2, box
    for button in ("#retry", ".offline-actions a"):
        inner = page.locator(button).bounding_box()
        assert inner is not None and inner["x"] >= box["x"], (button, inner, box)
        assert inner["x"] + inner["width"] <= box["x"] + box["width"], (button, inner, box)
    axe_clean(page, f"offline page, {lang}, {size}")
    shot(page, f"offline-{lang}-{size}")
    context.close()
