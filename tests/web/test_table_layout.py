"""The table page as a card table, driven by Playwright in Debian's chromium.

At a phone (360x640), a phone held sideways (640x360) and a desktop (1280x800):
while bidding and while playing, the status line, the felt, every card of your
hand and the score bar are on the first screen, with nothing to scroll
sideways and targets big enough. A hand played from the page sends its actions
over the live socket, never to ``/api/tables/.../actions``; the renege
confirmation; the hand summary agrees with the score sheet for every hand of a
robot game; axe-core finds nothing in each state; no card of the trick covers
a seat. The pages run under their real Content-Security-Policy. Screenshots go to
``test-screenshots/`` (ignored by git), with
``ESPADAS_SCREENSHOTS=1``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from felt_helpers import (
    SIZES,
    TEXTS,
    my_turn,
    person,
    play_hand,
    robot_table,
    shot,
    trick_clear_of_seats,
    wait_until,
    wait_version,
)
from web_helpers import api_view, axe_clean, wait_for, watch_errors


def one_screen(page: Page, state: str, cards_held: int = 13, lang: str = "es") -> None:
    """Status, felt, trick, score bar and every card of the hand inside the
    viewport at scroll 0; nothing to scroll sideways; targets big enough."""
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    assert size is not None
    width, height = size["width"], size["height"]
    names = TEXTS[lang]
    felt = page.get_by_role("region", name=names["felt"], exact=True)
    parts = {
        "status": page.get_by_role("status"),
        "felt": felt,
        "trick": felt.get_by_role("region", name=names["trick"], exact=True),
        "score": page.get_by_role("region", name=names["score"], exact=True),
        "hand": page.get_by_role("toolbar", name=names["hand"], exact=True),
    }
    cards = parts["hand"].get_by_role("button").all()
    assert len(cards) == cards_held, state
    for name, locator in [*parts.items(), *((f"card {i}", c) for i, c in enumerate(cards))]:
        box = locator.bounding_box()
        assert box is not None, (state, name)
        inside = (
            box["x"] >= 0
            and box["y"] >= 0
            and box["x"] + box["width"] <= width + 0.5
            and box["y"] + box["height"] <= height + 0.5
        )
        assert inside, (state, name, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, state
    # each card's visible part: up to the next card in its row, above the row below
    visible = page.evaluate(
        """() => {
          const cards = [...document.querySelectorAll('#hand-cards .hand-card')];
          return cards.map((c, i) => {
            const r = c.getBoundingClientRect();
            let right = r.right, bottom = r.bottom;
            for (const later of cards.slice(i + 1)) {
              const o = later.getBoundingClientRect();
              const sameRow = Math.abs(o.top - r.top) < r.height / 2;
              if (sameRow && o.left > r.left && o.left < right) right = o.left;
              const across = o.left < r.right && o.right > r.left;
              if (!sameRow && across && o.top > r.top && o.top < bottom) bottom = o.top;
            }
            return [c.dataset.card, right - r.left, bottom - r.top];
          });
        }"""
    )
    small = [v for v in visible if v[1] < 24 or v[2] < 44]
    assert small == [], (state, small)
    targets = page.evaluate(
        """() => [...document.querySelectorAll('main button, main select, main summary,'
                 + ' header button, header select, dialog[open] button')]
          .filter((e) => e.offsetParent !== null && !e.classList.contains('hand-card'))
          .map((e) => [e.id || e.textContent.trim().slice(0, 20),
                       e.getBoundingClientRect().height, e.getBoundingClientRect().width])
          .filter(([, h, w]) => h < 44 || w < 44)"""
    )
    assert targets == [], (state, targets)


@pytest.mark.parametrize("size", list(SIZES))
def test_bidding_and_playing_fit_one_screen(base: str, browser: Browser, size: str) -> None:
    context = person(browser, base, size)
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Eva")
    view = my_turn(page, table, "bidding")
    one_screen(page, f"bidding {size}")
    axe_clean(page, f"bidding {size}")
    shot(page, f"layout-bidding-{size}")
    page.select_option("#bid", "3")  # nothing is chosen for you
    page.get_by_role("button", name="Apostar", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    view = my_turn(page, table, "playing")
    one_screen(page, f"playing {size}")
    trick_clear_of_seats(page, f"playing {size}")
    axe_clean(page, f"playing {size}")
    shot(page, f"layout-playing-{size}")
    page.get_by_role("button", name="Planilla", exact=True).click()
    page.wait_for_selector("#sheet-dialog[open]")
    axe_clean(page, f"score sheet {size}")
    shot(page, f"layout-sheet-{size}")
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet-dialog:not([open])", state="attached")
    play_hand(page, table)
    page.wait_for_selector("#summary[open]")
    axe_clean(page, f"hand summary {size}")
    shot(page, f"layout-summary-{size}")
    page.get_by_role("button", name="Cerrar", exact=True).click()
    assert page.get_attribute("#last-trick", "aria-pressed") == "false"
    page.locator("body").press("u")  # the last trick, back on the felt
    assert page.get_attribute("#last-trick", "aria-pressed") == "true"
    assert page.locator("#trick-cards .card.won").count() == 1
    assert trick_clear_of_seats(page, f"last trick {size}") == 4
    shot(page, f"layout-last-trick-{size}")
    page.get_by_role("button", name="Resumen de la mano", exact=True).click()
    page.wait_for_selector("#summary[open]")
    # short animations, none under prefers-reduced-motion
    motion = "getComputedStyle(document.querySelector('#trick-cards .card')).transitionDuration"
    assert page.evaluate(motion) not in ("0s", "")
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(motion) == "0s"
    assert errors == []
    context.close()


@pytest.mark.parametrize("players", [3, 5, 6])
def test_three_five_and_six_players_around_the_felt(
    base: str, browser: Browser, players: int
) -> None:
    context = person(browser, base, "phone")
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Teo", preset="sala", players=str(players))
    view = my_turn(page, table, "bidding")
    held = len(view["game"]["hand"])
    assert held == 52 // players
    one_screen(page, f"bidding, {players} players", held)
    seats = page.locator("#seats .seat").all()
    shot(page, f"layout-{players}-players-phone")
    assert len(seats) == players
    felt = page.get_by_role("region", name="Mesa", exact=True).bounding_box()
    assert felt is not None
    boxes = [s.bounding_box() for s in seats]
    for box in boxes:
        assert box is not None
        assert felt["x"] <= box["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"]
        assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a is not None and b is not None
            apart = (
                a["x"] + a["width"] <= b["x"]
                or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"]
                or b["y"] + b["height"] <= a["y"]
            )
            assert apart, (a, b)
    # in play order: each next seat further round, clockwise from yours at the bottom
    order = page.eval_on_selector_all("#seats .seat", "els => els.map(e => Number(e.dataset.seat))")
    assert order == [(0 + i) % players for i in range(players)]
    axe_clean(page, f"bidding, {players} players")
    shot(page, f"layout-{players}-players-phone")
    page.select_option("#bid", "3")  # nothing is chosen for you
    page.get_by_role("button", name="Apostar", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    my_turn(page, table, "playing")
    one_screen(page, f"playing, {players} players", held)
    trick_clear_of_seats(page, f"playing, {players} players")
    shot(page, f"layout-{players}-players-playing-phone")
    assert errors == []
    context.close()


def test_in_english_the_same_names_and_one_screen(base: str, browser: Browser) -> None:
    context = person(browser, base, "phone", locale="en-US")
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Ann")
    view = my_turn(page, table, "bidding")
    one_screen(page, "bidding in English", lang="en")
    shot(page, "layout-bidding-phone-en")
    page.select_option("#bid", "3")  # nothing is chosen for you
    page.get_by_role("button", name="Bid", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    view = my_turn(page, table, "playing")
    one_screen(page, "playing in English", lang="en")
    card = page.get_by_role("toolbar", name="Your hand", exact=True).get_by_role("button").first
    assert re.fullmatch(
        r"(ace|king|queen|jack|\w+) of (spades|hearts|diamonds|clubs)",
        card.get_attribute("aria-label") or "",
    )
    shot(page, "layout-playing-phone-en")
    axe_clean(page, "playing in English")
    assert errors == []
    context.close()


def test_a_hand_goes_over_the_live_socket(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    posted: list[str] = []
    acts: list[dict[str, Any]] = []
    actions = re.compile(r"/api/tables/[^/]+/actions")
    page.on("request", lambda r: posted.append(r.url) if actions.search(r.url) else None)

    def watch(socket: Any) -> None:
        def sent(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "act":
                acts.append(message)

        socket.on("framesent", sent)

    page.on("websocket", watch)
    table = robot_table(page, base, "Iris")
    sent = play_hand(page, table)
    page.get_by_role("button", name="SIGUIENTE MANO", exact=True).click()
    wait_until(page, table, lambda v: v["game"]["hand_number"] == 2, "the second hand")
    assert sent == 14  # a bid and 13 cards
    assert [a["action"]["type"] for a in acts] == ["bid"] + ["play"] * 13 + ["next_hand"]
    assert posted == []
    assert errors == []
    context.close()


def test_a_renege_asks_first(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Olga")
    assert api_view(page, table)["rules"].get("renege", "allowed") == "allowed"
    for _ in range(2000):
        view = api_view(page, table)
        game = view["game"]
        if game["phase"] == "hand_end":
            page.get_by_role("button", name="SIGUIENTE MANO", exact=True).click()
            wait_version(page, table, view["version"] + 1)
            continue
        if game["to_act"] != 0:
            time.sleep(0.03)
            continue
        my_turn(page, table, game["phase"])
        if game["phase"] == "bidding":
            page.select_option("#bid", "3")  # nothing is chosen for you
            page.get_by_role("button", name="Apostar", exact=True).click()
            wait_version(page, table, view["version"] + 1)
            continue
        off = [c for c in game["hand"] if c not in game["proper_plays"]]
        if not off:
            page.click("#hand-cards button.playable >> nth=0")
            wait_version(page, table, view["version"] + 1)
            continue
        card = off[0]
        led = game["trick"]["cards"][0][-1]
        assert page.get_attribute(f"#hand-cards [data-card='{card}']", "aria-disabled") == "false"
        page.click(f"#hand-cards [data-card='{card}']")
        page.wait_for_selector("#confirm[open]")
        message = page.inner_text("#confirm-message")
        assert "igualmente" in message and {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[led] in message
        axe_clean(page, "renege confirmation")
        shot(page, "layout-renege-desktop")
        page.get_by_role("button", name="No", exact=True).click()
        time.sleep(0.5)
        after = api_view(page, table)
        assert after["version"] == view["version"] and card in after["game"]["hand"]
        page.click(f"#hand-cards [data-card='{card}']")
        page.wait_for_selector("#confirm[open]")
        page.get_by_role("button", name="Sí", exact=True).click()
        done = wait_version(page, table, view["version"] + 1)
        game = done["game"]
        played = [c for t in game["tricks"] for c in t["cards"]]
        played += game["trick"]["cards"] if game["trick"] else []
        assert card in played and card not in (game["hand"] or [])
        assert errors == []
        context.close()
        return
    raise AssertionError("no chance to renege came")


SHEET_CELL = re.compile(r"^([+-]?\d+) \((-?\d+); sacos: (\d+)\)$")


def summary_numbers(page: Page, row: str) -> list[str]:
    cells: list[str] = page.eval_on_selector_all(
        f"#summary-body tr[data-row={row}] td", "els => els.map(e => e.textContent)"
    )
    return cells


def test_the_summary_agrees_with_the_score_sheet(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    table = robot_table(page, base, "Pilar", target="250")
    hands = 0
    for _ in range(100):
        play_hand(page, table)
        view = api_view(page, table)
        game = view["game"]
        if game["phase"] == "game_over":
            break
        page.wait_for_selector("#summary[open]")
        if hands == 0:
            axe_clean(page, "hand summary")
        hands += 1
        row = view["sheet"][-1]
        assert page.inner_text("#summary-title") == f"Mano {row['hand']} terminada"
        points = summary_numbers(page, "points")
        totals = summary_numbers(page, "total")
        bags = summary_numbers(page, "bags")
        sheet_row = page.eval_on_selector_all(
            "#sheet-body tr:last-child td", "els => els.map(e => e.textContent)"
        )
        for side, cell in enumerate(sheet_row):
            match = SHEET_CELL.match(cell)
            assert match, cell
            assert int(points[side]) == int(match[1]) == row["points"][side]
            assert int(totals[side]) == int(match[2]) == row["totals"][side]
            assert int(bags[side]) == int(match[3]) == row["bags"][side]
            contract = int(summary_numbers(page, "contract-points")[side])
            penalty = int(summary_numbers(page, "penalty")[side].replace("−", "-"))
            nils = sum(n["points"] for n in row["parts"][side]["nils"])
            bonus = row["parts"][side]["bonus"]
            assert contract + nils + bonus + penalty == row["points"][side]
        label = "SIGUIENTE MANO" if game["result"] is None else "Confirmar el final"
        page.locator("#summary").get_by_role("button", name=label, exact=True).click()
        wait_version(page, table, view["version"] + 1)
        if game["result"] is not None:
            break
    assert hands >= 1
    page.wait_for_selector("#result h2")
    wait_for(page, "!document.getElementById('summary').open")
    assert len(api_view(page, table)["sheet"]) == hands
    axe_clean(page, "game over")
    assert errors == []
    context.close()


def test_a_refusal_over_the_socket_speaks_the_page_language(base: str, browser: Browser) -> None:
    context = person(browser, base)  # the browser asks for Spanish
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(base + "/ayuda")
    page.click("#lang-switch")  # the person chooses English
    # the switch loads the page again: between two documents there may be no <html> yet
    wait_for(page, "document.documentElement?.lang === 'en'")
    page.goto(base + "/")
    page.wait_for_selector("#signin:visible")
    page.fill("#name", "Uma")
    page.click("#signin button[type=submit]")
    page.wait_for_selector("#create", state="visible")
    page.click("#create button[type=submit]")
    page.wait_for_url("**/mesa/**")
    page.get_by_role("button", name="Fill with robots", exact=True).click()
    page.get_by_role("button", name="Start the game", exact=True).click()
    table = page.url.rsplit("/", 1)[1]
    view = wait_until(
        page, table, lambda v: v["game"]["phase"] == "bidding" and v["game"]["to_act"] == 0, "bid"
    )
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if "/actions" in r.url else None)
    card = view["game"]["hand"][0]
    page.evaluate(
        "(card) => import('/static/js/table/commands.js').then((m) => m.send('play', card))", card
    )
    page.wait_for_selector("#error:not([hidden])")
    catalog = json.loads(
        (Path(__file__).resolve().parents[2] / "src/espadas/i18n/en.json").read_text()
    )
    assert page.inner_text("#error") == catalog["errors"]["bids_due"]
    assert [u for u in posted if "/api/" in u] == []
    assert [e for e in errors if "409" not in e] == []
    context.close()


def test_while_the_socket_reconnects_actions_go_by_http(base: str, browser: Browser) -> None:
    context = person(browser, base)
    page = context.new_page()
    errors = watch_errors(page)
    blocked = [False]
    open_routes: list[Any] = []

    def route(socket: Any) -> None:
        if blocked[0]:
            socket.close()
            return
        socket.connect_to_server()
        open_routes.append(socket)

    page.route_web_socket(re.compile(r"/api/tables/[^/]+/live"), route)
    posted: list[str] = []
    actions = re.compile(r"/api/tables/[^/]+/actions")
    page.on("request", lambda r: posted.append(r.method) if actions.search(r.url) else None)
    table = robot_table(page, base, "Vera")
    view = my_turn(page, table, "bidding")
    blocked[0] = True
    for socket in open_routes:
        socket.close()  # the socket drops; reopening it is refused for now
    page.select_option("#bid", "3")  # nothing is chosen for you
    page.get_by_role("button", name="Apostar", exact=True).click()
    wait_version(page, table, view["version"] + 1)
    assert posted == ["POST"]
    blocked[0] = False  # the socket comes back: the next action goes over it
    view = my_turn(page, table, "playing")
    page.click("#hand-cards button.playable >> nth=0")
    wait_version(page, table, view["version"] + 1)
    assert posted == ["POST"]
    assert [e for e in errors if "WebSocket" not in e] == []
    context.close()
