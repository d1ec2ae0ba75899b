"""The README's three pictures, taken again from a real club: ``scripts/screenshots``.

Starts ``espadas serve`` (this checkout's code) on a free port with a new data
folder, drives Debian's chromium with Playwright as a person would (a name, a
table with robots, a bid, a few cards) and saves into ``docs/images/``:

- ``table-phone.png``: the table at 360x640, in Spanish, a trick on the felt;
- ``table-desktop.png``: the table at 1280x800, in English;
- ``analysis.png``: the analysis of a game at 1280x800, in Spanish: a hand where
  seat 0 bid 13, the bid marked, the chart of the expected score.

Run it after a change to the pages: ``scripts/screenshots`` (the dev install,
``scripts/setup --dev``, has Playwright). ``--out DIR`` saves elsewhere.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "images"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
WORDS = {
    "es": {"robots": "Completar con robots", "start": "Empezar la partida", "bid": "Apostar"},
    "en": {"robots": "Fill with robots", "start": "Start the game", "bid": "Bid"},
}
ANALYSE = {"es": "Analizar", "en": "Analyse"}
READY = {"es": "Análisis listo.", "en": "Analysis ready."}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def club(data: Path) -> Iterator[str]:
    """``espadas serve`` in its own process until the block ends; its address."""
    port = free_port()
    command = [sys.executable, "-m", "espadas.cli.main", "serve", "--port", str(port)]
    command += ["--data", str(data), "--robot-workers", "1", "--analysis-budget-ms", "20"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("espadas serve did not start")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(30)


def until(test: Callable[[], Any], what: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.05)
    raise SystemExit(f"never: {what}")


def view(page: Page, table: str) -> dict[str, Any]:
    data: dict[str, Any] = page.request.get(f"/api/tables/{table}").json()
    return data


def true_in_page(page: Page, expression: str) -> Any:
    """Waits until ``expression`` is truthy in the page (evaluated outside its
    Content-Security-Policy, which refuses ``eval``)."""
    return until(lambda: page.evaluate(expression), expression)


def robot_table(page: Page, lang: str, name: str, preset: str = "estandar") -> str:
    words = WORDS[lang]
    page.goto("/")
    page.fill("#name", name)
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    page.select_option("#preset", preset)
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.get_by_role("button", name=words["robots"], exact=True).click()
    page.get_by_role("button", name=words["start"], exact=True).click()
    page.wait_for_selector("#hand-cards button, .face-down")
    return page.url.rsplit("/", 1)[1]


def my_turn(page: Page, table: str, phase: str) -> dict[str, Any]:
    found: dict[str, Any] = until(
        lambda: (
            (v := view(page, table))["game"]["phase"] == phase and v["game"]["to_act"] == 0 and v
        ),
        f"seat 0 to act in {phase}",
    )
    true_in_page(page, "/^(¡Tu turno!|Your turn!)/.test(document.title)")
    if phase == "playing":
        true_in_page(page, "document.querySelector('#hand-cards .hand-card.playable') !== null")
    return found


def bid_and_play(page: Page, table: str, lang: str, bid: str | None, cards: int) -> None:
    """Seat 0 bids (``bid``, else 3: the page proposes nothing) and plays ``cards`` cards."""
    my_turn(page, table, "bidding")
    page.select_option("#bid", bid or "3")
    page.get_by_role("button", name=WORDS[lang]["bid"], exact=True).click()
    for _ in range(cards):
        before = my_turn(page, table, "playing")["version"]
        page.click("#hand-cards button.playable >> nth=0")
        until(lambda: view(page, table)["version"] > before, "the card played")  # noqa: B023


def table_shot(browser: Browser, base: str, lang: str, size: tuple[int, int], out: Path) -> None:
    """A table in play: a few tricks in, and the robots' cards of the next on the felt."""
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        locale="es-ES" if lang == "es" else "en-GB",
        base_url=base,
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    table = robot_table(page, lang, "Ana" if lang == "es" else "Anne")
    bid_and_play(page, table, lang, None, 3)
    my_turn(page, table, "playing")
    true_in_page(page, "document.getAnimations().every((a) => a.playState !== 'running')")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out))
    context.close()


def analysis_shot(browser: Browser, base: str, out: Path) -> None:
    """The replay of a game where seat 0 bid 13 (a plain blunder), analysed."""
    lang = "es"
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="es-ES", base_url=base
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    table = robot_table(page, lang, "Luis", preset="pagat")
    bid_and_play(page, table, lang, "13", 13)
    until(lambda: view(page, table)["game"]["phase"] != "playing", "the hand over")
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "espadas_csrf")
    done = page.request.post(
        f"/api/tables/{table}/actions",
        data={"type": "abandon"},
        headers={"x-csrf-token": csrf},
    )
    assert done.ok, done.text()
    page.goto(f"/mesa/{table}/repeticion")
    page.wait_for_selector("#checks li")
    page.locator("#analysis").get_by_role("button", name=ANALYSE[lang]).click()
    status = "document.querySelector('#analysis .analysis-status').textContent"
    until(lambda: page.evaluate(status) == READY[lang], "the analysis done", timeout=180)
    true_in_page(page, "document.querySelectorAll('#analysis-marked li.mark').length > 0")
    page.locator("#analysis-marked button", has_text="apuesta").first.click()
    true_in_page(page, "document.querySelectorAll('#analysis-step li.mark').length === 1")
    page.locator("#analysis").scroll_into_view_if_needed()
    page.locator("#analysis").screenshot(path=str(out))
    context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder (docs/images)")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, club(Path(data)) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        table_shot(browser, base, "es", (360, 640), out / "table-phone.png")
        table_shot(browser, base, "en", (1280, 800), out / "table-desktop.png")
        analysis_shot(browser, base, out / "analysis.png")
        browser.close()
    for name in ("table-phone.png", "table-desktop.png", "analysis.png"):
        print(f"{out / name}: {(out / name).stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
