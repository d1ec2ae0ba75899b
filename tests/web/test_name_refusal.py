"""A refused display name in the browser: the start page shows the server's
reason in the page's language and stays signed out; screenshots at phone and
desktop sizes go to ``test-screenshots/`` (ignored by git), with
``ESPADAS_SCREENSHOTS=1``, for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from web_helpers import WORKER, shot

SIZES = {"phone": (360, 640), "desktop": (1280, 800)}


@pytest.mark.parametrize(
    ("locale", "size", "name", "words"),
    [
        ("es-ES", "phone", "Robot normal", "parece el de un robot"),
        ("en-GB", "desktop", "Robot normal", "looks like a robot"),
        ("es-ES", "desktop", "\u200b\u200b", "caracteres invisibles"),
        ("en-GB", "phone", "Ana\u202eLuis", "direction of the text"),
    ],
)
def test_a_refused_name_is_explained_on_the_page(
    browser: Browser, base: str, locale: str, size: str, name: str, words: str
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        base_url=base,
        service_workers=WORKER,
    )
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto("/")
        page.fill("#name", name)
        page.click("#signin button[type=submit]")
        box = page.locator("#error")
        box.wait_for(state="visible")
        assert words in box.inner_text()
        assert page.locator("#signin").is_visible()  # still asking for a name
        assert page.request.get("/api/session").json()["name"] is None
        shot(page, f"name-refused-{locale}-{size}")
    finally:
        context.close()
