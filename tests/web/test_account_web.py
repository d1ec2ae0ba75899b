"""The account page in the browser (Playwright in Debian's chromium): renaming by
keyboard and the refusal of a taken name; an e-mail sign-in link (a real SMTP
server on loopback) that signs a second device in as the same person, and
signing that device out from the first; a passkey made and used with
Chromium's virtual authenticator (DevTools protocol: WebAuthn.enable,
WebAuthn.addVirtualAuthenticator); a deleted person's seat said "former player"
on the replay page. axe-core clean; screenshots at 360x640 and 1280x800 go to
``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``). The server answers on ``localhost`` (a WebAuthn relying
party is a host name, never an address)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings
from server_helpers import Client, running_server
from web_helpers import (
    axe_clean,
    csp_violations,
    no_sideways_scroll,
    person,
    shot,
    touch_targets,
    wait_for,
    watch_errors,
)

LINK = re.compile(r"(http://localhost:\d+/entrar/[A-Za-z0-9_-]+)")
CONFIRM = re.compile(r"(http://localhost:\d+/avisos/confirmar/[A-Za-z0-9_-]+)")


@pytest.fixture
def club(tmp_path: Path, smtp: tuple[Sink, int]) -> Iterator[tuple[str, Sink]]:
    sink, port = smtp
    settings = notice_settings(
        tmp_path, port, FakeClock(), public_url=None, unique_names=True, notices=False
    )
    with running_server(settings) as base:
        yield base.replace("127.0.0.1", "localhost"), sink


def signed_in(
    browser: Browser, base: str, name: str, size: str = "desktop", locale: str = "es-ES"
) -> Page:
    page = person(browser, base, locale, size).new_page()
    page.goto("/")
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    return page


def account(page: Page) -> None:
    page.goto("/cuenta")
    page.wait_for_selector("#account-in:visible, #account-out:visible")


def real(errors: list[str]) -> list[str]:
    """The page's errors but the refusals it was meant to get (a 4xx in the console)."""
    return [e for e in errors if not e.startswith("Failed to load resource")]


def check(page: Page, state: str, size: str) -> None:
    axe_clean(page, state)
    no_sideways_scroll(page)
    touch_targets(page)
    assert csp_violations(page) == []
    shot(page, f"{state}-{size}")


def confirm_email(page: Page, sink: Sink, email: str) -> None:
    page.fill("#my-email", email)
    page.press("#my-email", "Enter")
    wait_for(page, "document.getElementById('email-state').textContent.includes('@')")
    found = CONFIRM.search(sink.wait(email, 1)[-1].get_content())
    assert found is not None
    page.goto(found.group(1))
    account(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_account_page_rename_by_keyboard(
    club: tuple[str, Sink], browser: Browser, size: str
) -> None:
    base, _ = club
    signed_in(browser, base, "Luis")
    ana = signed_in(browser, base, "Ana", size)
    errors = watch_errors(ana)
    ana.get_by_role("link", name=re.compile("^Tu cuenta")).click()
    ana.wait_for_selector("#device-list li")
    assert ana.input_value("#new-name") == "Ana"
    assert "este dispositivo" in ana.text_content("#device-list")  # type: ignore[operator]
    check(ana, "account", size)
    # Tab to the name field, type, Enter
    for _ in range(20):
        ana.keyboard.press("Tab")
        if ana.evaluate("document.activeElement.id") == "new-name":
            break
    assert ana.evaluate("document.activeElement.id") == "new-name"
    ana.keyboard.press("Control+A")
    ana.keyboard.type("LUIS")
    ana.keyboard.press("Enter")
    ana.wait_for_selector("#error:visible")
    refusal = ana.text_content("#error") or ""
    assert "«LUIS»" in refusal and "elige otro" in refusal
    assert ana.text_content("#rename-state") == refusal
    ana.fill("#new-name", "Ana Belén")
    ana.keyboard.press("Enter")
    wait_for(ana, "document.getElementById('rename-state').textContent.startsWith('Ahora')")
    assert ana.text_content("#rename-state") == "Ahora te llamas Ana Belén."
    shot(ana, f"account-renamed-{size}")
    assert real(errors) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_email_link_signs_another_device_in_and_out(
    club: tuple[str, Sink], browser: Browser, size: str
) -> None:
    base, sink = club
    laptop = signed_in(browser, base, "Marta", size)
    account(laptop)
    confirm_email(laptop, sink, "marta@example.org")
    assert "está confirmado" in (laptop.text_content("#email-state") or "")
    # a phone, signed out: asks for a link
    phone = person(browser, base, "es-ES", size).new_page()
    errors = watch_errors(phone)
    account(phone)
    assert phone.locator("#account-out").is_visible()
    check(phone, "account-signed-out", size)
    phone.fill("#ask-email", "Marta@Example.org")
    phone.press("#ask-email", "Enter")
    wait_for(phone, "document.getElementById('ask-state').textContent.length > 0")
    assert "15 minutos" in (phone.text_content("#ask-state") or "")
    found = LINK.search(sink.wait("marta@example.org", 2)[-1].get_content())
    assert found is not None
    phone.goto(found.group(1))
    phone.wait_for_selector("#enter-go")
    check(phone, "enter", size)
    phone.focus("#enter-go")
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/cuenta")
    phone.wait_for_selector("#account-in", state="visible")
    assert phone.input_value("#new-name") == "Marta"
    # the laptop lists the phone and signs it out
    account(laptop)
    wait_for(laptop, "document.querySelectorAll('#device-list li').length === 2")
    check(laptop, "account-devices", size)
    laptop.locator("#device-list li", has_text="correo").get_by_role("button").click()
    wait_for(laptop, "document.querySelectorAll('#device-list li').length === 1")
    account(phone)
    assert phone.locator("#account-out").is_visible()
    assert phone.evaluate("fetch('/api/session').then((r) => r.json())")["name"] is None
    assert real(errors) == []


def test_passkey_with_the_virtual_authenticator(club: tuple[str, Sink], browser: Browser) -> None:
    base, _ = club
    page = signed_in(browser, base, "Sofía", locale="en-GB")
    errors = watch_errors(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    authenticator = added["authenticatorId"]
    account(page)
    page.click("#passkey-add")
    wait_for(page, "document.getElementById('passkey-state').textContent.length > 0")
    assert page.text_content("#passkey-state") == "Passkey kept."
    page.wait_for_selector("#passkey-list button")
    stored: dict[str, Any] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1
    credential = stored["credentials"][0]
    keys = page.evaluate("fetch('/api/passkeys').then((r) => r.json())")["passkeys"]
    assert [k["id"] for k in keys] == [
        credential["credentialId"].replace("+", "-").replace("/", "_").rstrip("=")
    ]
    shot(page, "account-passkey-desktop")
    # sign this device out, then back in with the passkey
    page.locator("#device-list li", has_text="this device").get_by_role("button").click()
    page.wait_for_selector("#account-out", state="visible")
    page.click("#passkey-signin")
    page.wait_for_selector("#account-in", state="visible")
    assert page.input_value("#new-name") == "Sofía"
    devices = page.evaluate("fetch('/api/account/devices').then((r) => r.json())")["devices"]
    assert [d["how"] for d in devices] == ["passkey"]
    after = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert after["credentials"][0]["signCount"] >= 1
    # a second registration of the same authenticator is refused by the browser
    page.click("#passkey-add")
    wait_for(page, "document.getElementById('passkey-state').textContent !== 'Passkey kept.'")
    assert len(page.evaluate("fetch('/api/passkeys').then((r) => r.json())")["passkeys"]) == 1
    assert real(errors) == []


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_deleted_persons_seat_says_former_player(
    club: tuple[str, Sink], browser: Browser, size: str
) -> None:
    base, _ = club
    raw = base.replace("localhost", "127.0.0.1")
    ana, luis = Client(raw), Client(raw)
    ana.sign_in(f"Ana {size}")
    luis.sign_in(f"Luis {size}")
    table = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
    luis.ok("POST", f"/api/tables/{table}/join")
    ana.ok("POST", f"/api/tables/{table}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{table}/start")
    ana.ok("POST", f"/api/tables/{table}/actions", {"type": "abandon"})
    # she deletes her account on the page
    page = person(browser, base, "en-GB", size).new_page()
    page.goto("/")
    page.context.add_cookies(
        [{"name": k, "value": v, "url": base} for k, v in ana.http.cookies.items()]
    )
    account(page)
    page.click("#delete-account")
    page.wait_for_selector("#confirm[open]")
    assert f"Ana {size}" in (page.text_content("#confirm-message") or "")
    page.click("#confirm [data-role=yes]")
    page.wait_for_url(base + "/")
    replay = person(browser, base, "en-GB", size).new_page()
    replay.goto(f"/mesa/{table}/repeticion")
    replay.wait_for_selector("#replay-board h3")
    text = replay.text_content("#replay-board") or ""
    assert "former player" in text and f"Ana {size}" not in text
    check(replay, "replay-former-player", size)
    spanish = person(browser, base, "es-ES", size).new_page()
    spanish.goto(f"/mesa/{table}")
    spanish.wait_for_selector("#seats li")
    assert "antiguo jugador" in (spanish.text_content("#seats") or "")
