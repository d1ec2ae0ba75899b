"""The chat panel of the table page, in Debian's chromium: two players (one on a
phone, in English) and a spectator write to each other; a message with
``<script>`` shows as text and runs nothing; quick phrases are read in each
reader's language; spectators are marked; the creator turns spectators' chat
off; muting is for oneself and stays after a reload; new messages are
announced while the panel is closed only when asked for; axe-core finds
nothing with the panel open and closed; the panel does not cover the felt;
and after the server is killed and started again the messages are there.
Screenshots at 360x640 and 1280x800 go to ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``)."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page

from server_helpers import free_port, serve_process
from web_helpers import (
    axe_clean,
    no_sideways_scroll,
    open_table,
    person,
    sign_in,
    touch_targets,
    wait_for,
    watch_errors,
)
from web_helpers import shot as save_shot

CHAT = "#chat-list .chat-item"


class Server:
    """``espadas serve`` as a process on one port, to be killed and started again."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: Any = serve_process(data, self.port)

    def restart(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.process = serve_process(self.data, self.port)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("chat-server"))
    try:
        yield running
    finally:
        running.stop()


def texts(page: Page) -> list[str]:
    """The messages the page shows (not muted), as a person reads them."""
    shown: list[str] = page.eval_on_selector_all(
        CHAT, "els => els.filter(e => !e.hidden).map(e => e.textContent.replace(/\\s+/g, ' '))"
    )
    return shown


def wait_messages(page: Page, n: int) -> None:
    wait_for(page, f"document.querySelectorAll({CHAT!r}).length >= {n}")


def write(page: Page, text: str) -> None:
    label = "Mensaje" if page.evaluate("document.documentElement.lang") == "es" else "Message"
    page.get_by_role("textbox", name=label, exact=True).fill(text)
    page.keyboard.press("Enter")
    wait_for(page, "document.getElementById('chat-text').value === ''")


def shot(page: Page, name: str) -> None:
    save_shot(page, f"chat-{name}", full_page=False)


def boxes_apart(page: Page, a: str, b: str) -> bool:
    result: bool = page.evaluate(
        """([a, b]) => {
            const r = document.querySelector(a).getBoundingClientRect();
            const s = document.querySelector(b).getBoundingClientRect();
            return r.right <= s.left || s.right <= r.left || r.bottom <= s.top || s.bottom <= r.top;
        }""",
        [a, b],
    )
    return result


def test_two_players_and_a_spectator_chat(server: Server, browser: Browser) -> None:
    base = server.base
    contexts = [
        person(browser, base),
        person(browser, base, "en-US", "phone"),
        person(browser, base),
    ]
    ana, luis, sofia = (c.new_page() for c in contexts)
    errors = [watch_errors(p) for p in (ana, luis, sofia)]
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    for page in (ana, luis, sofia):
        page.on("dialog", refuse)
    table = open_table(ana, base)
    luis.goto(f"{base}/mesa/{table}")
    sign_in(luis, "Luis")
    luis.wait_for_selector("#seats li")
    wait_for_seat(ana, "Luis")
    ana.get_by_role("button", name="Completar con robots", exact=True).click()
    ana.get_by_role("button", name="Empezar la partida", exact=True).click()
    ana.wait_for_selector("#hand-cards button")
    # Sofía comes once the game has started: she watches
    sofia.goto(f"{base}/mesa/{table}")
    sign_in(sofia, "Sofía")
    sofia.wait_for_selector("#seats li")
    wait_for(sofia, "!document.getElementById('chat-text').disabled")

    # wide screen: the panel is open, a region named Charla with its Mensaje field
    region = ana.get_by_role("region", name="Charla", exact=True)
    assert region.is_visible()
    assert region.get_by_role("textbox", name="Mensaje", exact=True).is_visible()
    assert boxes_apart(ana, "#chat", "#felt") and boxes_apart(ana, "#chat", "#hand")
    # phone: closed until the Chat button opens the drawer
    assert luis.get_by_role("region", name="Chat", exact=True).count() == 0
    axe_clean(luis, "chat closed, phone")
    touch_targets(luis)
    no_sideways_scroll(luis)
    shot(luis, "closed-phone")

    write(ana, "<script>alert(1)</script><b>hola</b> & <img src=x onerror=alert(2)>")
    for page in (ana, luis, sofia):
        wait_messages(page, 1)
    for page in (ana, sofia):
        assert texts(page)[0].startswith("Ana: <script>alert(1)</script><b>hola</b> & <img")
    assert ana.locator("#chat-list script, #chat-list b, #chat-list img").count() == 0
    # Luis's drawer was closed and he did not ask to hear messages: nothing said
    assert "script" not in luis.inner_text("#live")
    assert luis.inner_text("#chat-unread") == "1 unread"

    luis.get_by_role("button", name="Chat").click()
    drawer = luis.get_by_role("region", name="Chat", exact=True)
    assert drawer.get_by_role("textbox", name="Message", exact=True).is_visible()
    assert luis.evaluate("document.activeElement.id") == "chat-text"
    assert not luis.get_by_label("Spectators may write").is_visible()  # the creator's only
    assert ana.get_by_label("Los espectadores pueden escribir").is_checked()
    axe_clean(luis, "chat open, phone")
    touch_targets(luis)
    no_sideways_scroll(luis)
    luis.get_by_role("button", name="Well played!", exact=True).click()
    wait_messages(ana, 2)
    assert texts(ana)[1].startswith("Luis: ¡Bien jugado!")
    assert texts(luis)[1].startswith("Luis: Well played!")

    write(sofia, "Hola desde la grada")
    for page in (ana, luis):
        wait_messages(page, 3)
    assert texts(ana)[2].startswith("Sofía (espectador): Hola desde la grada")
    assert texts(luis)[2].startswith("Sofía (spectator): Hola desde la grada")
    shot(luis, "open-phone")
    axe_clean(ana, "chat open, desktop")
    touch_targets(ana)
    shot(ana, "open-desktop")
    save_shot(ana.locator("#chat"), "chat-panel-desktop")

    # Luis asks to hear new messages, closes the drawer; Ana writes
    luis.get_by_label("Read new messages aloud while the chat is closed").check()
    luis.keyboard.press("Escape")
    assert luis.get_by_role("region", name="Chat", exact=True).count() == 0
    assert luis.evaluate("document.activeElement.id") == "chat-toggle"
    write(ana, "¿Seguimos?")
    wait_for(luis, "document.getElementById('live').textContent.includes('Ana says: ¿Seguimos?')")

    # the creator closes spectators' chat: Sofía's field is disabled, she is told why
    ana.get_by_label("Los espectadores pueden escribir", exact=True).uncheck()
    wait_for(sofia, "document.getElementById('chat-text').disabled")
    assert "cerrado la charla a los espectadores" in sofia.inner_text("#chat-note")
    refused = sofia.request.post(
        f"/api/tables/{table}/actions",
        data={"type": "say", "text": "¿y ahora?"},
        headers={"x-csrf-token": csrf(sofia)},
    )
    assert refused.status == 403 and refused.json()["error"] == "chat_closed"

    # Ana mutes Sofía, for herself only; it stays after a reload
    ana.get_by_text("Silenciar a alguien").click()
    ana.get_by_label("Silenciar a Sofía", exact=True).check()
    assert not any("Grada" in t or "grada" in t for t in texts(ana))
    assert any("grada" in t for t in texts(luis))
    save_shot(ana.locator("#chat"), "chat-panel-muted-desktop")
    ana.reload()
    wait_messages(ana, 4)
    assert [t.split(":")[0] for t in texts(ana)] == ["Ana", "Luis", "Ana"]
    # the panel closed on a wide screen: a button, and nothing covers the felt
    ana.get_by_role("button", name="Cerrar la charla", exact=True).click()
    axe_clean(ana, "chat closed, desktop")
    shot(ana, "closed-desktop")
    ana.get_by_role("button", name="Charla").click()

    server.restart()
    for page in (ana, luis, sofia):
        page.reload()
        wait_messages(page, 4)
    assert texts(sofia)[0].startswith("Ana: <script>alert(1)</script>")
    assert [t.split(":")[0] for t in texts(luis)] == ["Ana", "Luis", "Sofía (spectator)", "Ana"]
    assert sofia.evaluate("document.getElementById('chat-text').disabled")
    # someone who has not chosen a name reads the chat but cannot write
    stranger = person(browser, base).new_page()
    stranger.goto(f"{base}/mesa/{table}")
    wait_messages(stranger, 4)
    assert stranger.evaluate("document.getElementById('chat-text').disabled")
    assert stranger.inner_text("#chat-note") == "Elige un nombre para escribir."
    axe_clean(stranger, "chat, signed out")
    stranger.context.close()
    assert dialogs == []
    for page_errors in errors:
        assert [e for e in page_errors if "WebSocket" not in e and "ERR_" not in e] == []
    for context in contexts:
        context.close()


def wait_for_seat(page: Page, name: str) -> None:
    wait_for(
        page, f"[...document.querySelectorAll('.seat-name')].some(e => e.textContent === {name!r})"
    )


def csrf(page: Page) -> str:
    cookies: list[Any] = page.context.cookies()
    return str(next(c["value"] for c in cookies if c["name"] == "espadas_csrf"))
