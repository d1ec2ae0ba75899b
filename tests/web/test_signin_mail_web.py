"""Signing in by e-mail, in the browser (a real SMTP server on loopback): the
address given on the account page is confirmed by a mail that speaks of signing
in with it (not of turn notices), its confirmation page says so; a device that
uses a sign-in link lands on the account page told *Has entrado como Marta en
este dispositivo*. In Spanish on a phone and in English on a desktop; axe-core
finds nothing. Screenshots at 360x640 and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``).
The server answers on ``localhost`` (as the account tests' does)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings
from server_helpers import running_server
from web_helpers import axe_clean, csp_violations, person, shot, wait_for, watch_errors

LINK = re.compile(r"(http://localhost:\d+/entrar/[A-Za-z0-9_-]+)")
CONFIRM = re.compile(r"(http://localhost:\d+/avisos/confirmar/[A-Za-z0-9_-]+\?para=entrar)")
TEXTS = {
    "es": {"mail": "Para entrar en Espadas con este correo", "confirmed": "ya puedes entrar",
           "signed": "Has entrado como Marta en este dispositivo."},
    "en": {"mail": "To sign in to Espadas with this address", "confirmed": "you can now sign in",
           "signed": "You are signed in as Marta on this device."},
}  # fmt: skip


@pytest.fixture
def club(tmp_path: Path, smtp: tuple[Sink, int]) -> Iterator[tuple[str, Sink]]:
    sink, port = smtp
    settings = notice_settings(
        tmp_path, port, FakeClock(), public_url=None, unique_names=True, notices=False
    )
    with running_server(settings) as base:
        yield base.replace("127.0.0.1", "localhost"), sink


def signed_in(browser: Browser, base: str, name: str, size: str, locale: str) -> Page:
    page = person(browser, base, locale, size).new_page()
    page.goto("/")
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    return page


@pytest.mark.parametrize(("lang", "size"), [("es", "phone"), ("en", "desktop")])
def test_signing_in_by_mail_says_so(
    club: tuple[str, Sink], browser: Browser, lang: str, size: str
) -> None:
    base, sink = club
    texts = TEXTS[lang]
    locale = "es-ES" if lang == "es" else "en-GB"
    laptop = signed_in(browser, base, "Marta", size, locale)
    laptop.goto("/cuenta")
    laptop.wait_for_selector("#account-in:visible")
    laptop.fill("#my-email", "marta@example.org")
    laptop.press("#my-email", "Enter")
    body = sink.wait("marta@example.org", 1)[-1].get_content()
    assert texts["mail"] in body, body  # about signing in, not about turn notices
    found = CONFIRM.search(body)
    assert found is not None, body
    laptop.goto(found.group(1))
    assert texts["confirmed"] in laptop.inner_text("main")

    phone = person(browser, base, locale, size).new_page()
    errors = watch_errors(phone)
    phone.goto("/cuenta")
    phone.wait_for_selector("#account-out:visible")
    phone.fill("#ask-email", "marta@example.org")
    phone.press("#ask-email", "Enter")
    wait_for(phone, "document.getElementById('ask-state').textContent.length > 0")
    link = LINK.search(sink.wait("marta@example.org", 2)[-1].get_content())
    assert link is not None
    phone.goto(link.group(1))
    phone.click("#enter-go")
    phone.wait_for_url("**/cuenta")
    note = phone.locator("#signed-in-note")
    note.wait_for()
    assert note.inner_text() == texts["signed"]
    axe_clean(phone, f"signed in by mail {lang}")
    shot(phone, f"signin-mail-{lang}-{size}")
    phone.reload()  # said once
    phone.wait_for_selector("#account-in:visible")
    assert phone.locator("#signed-in-note").is_hidden()
    assert csp_violations(phone) == []
    assert [e for e in errors if not e.startswith("Failed to load resource")] == []
