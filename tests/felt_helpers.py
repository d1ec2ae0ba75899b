"""The table page's felt as the browser tests see it: a person at a robot table
(made through the API, then opened in the page), waiting for their turn,
playing a hand from the page, and the boxes the layout tests compare (the felt,
each seat, each card of the trick on it).

Pages run under their real Content-Security-Policy here (no ``bypass_csp``): a
page that the policy breaks fails the tests that open it, and
:func:`csp_violations` lists what the policy refused."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page

from web_helpers import WATCH_CSP, WORKER, api_view, wait_for
from web_helpers import shot as save_shot

SIZES = {"phone": (360, 640), "landscape": (640, 360), "desktop": (1280, 800)}
# the stable names (and the buttons the tests press), in both languages
TEXTS = {
    "es": {
        "robots": "Completar con robots",
        "start": "Empezar la partida",
        "bid": "Apostar",
        "felt": "Mesa",
        "trick": "Baza en curso",
        "score": "Puntos",
        "hand": "Tu mano",
    },
    "en": {
        "robots": "Fill with robots",
        "start": "Start the game",
        "bid": "Bid",
        "felt": "Table",
        "trick": "Trick in progress",
        "score": "Score",
        "hand": "Your hand",
    },
}
Box = dict[str, float]


def person(
    browser: Browser, base: str, size: str = "desktop", locale: str = "es-ES"
) -> BrowserContext:
    """A browser context of the given size, under the pages' real policy."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        base_url=base,
        service_workers=WORKER,
    )
    context.add_init_script(WATCH_CSP)
    context.set_default_timeout(20_000)
    return context


def shot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    save_shot(page, name, full_page=False)


def robot_table(page: Page, base: str, name: str, **choices: str) -> str:
    """A started table of ``name`` and ``normal`` robots, open in ``page``.

    It is made through the API with the page's own cookies, as the start page's
    form and the table's "fill with robots and start" button make it when nothing
    else is chosen (``choices``: ``preset``, ``players``, ``target``); loading the
    start page and the table page once more cost each test about a second of
    processor time. The form and the button themselves are driven by the tests of
    the first game (``test_first_game_web``) and of the pages (``test_web``)."""
    session = page.request.get(base + "/api/session").json()
    if session["name"] is None:
        answer = page.request.post(base + "/api/session", data={"name": name})
        assert answer.ok, answer.text()
        session = answer.json()
    headers = {"x-csrf-token": session["csrf"]}
    body: dict[str, Any] = {"preset": choices.pop("preset", "estandar")}
    if "target" in choices:
        body["target"] = int(choices.pop("target"))
    if "players" in choices:
        players = int(choices.pop("players"))
        body["options"] = {"players": players, "partnerships": players == 4}
    assert not choices, f"robot_table does not know {sorted(choices)}"
    made = page.request.post(base + "/api/tables", data=body, headers=headers)
    assert made.ok, made.text()
    table: str = made.json()["id"]
    for step, data in (("robots", {"level": "normal"}), ("start", None)):
        done = page.request.post(f"{base}/api/tables/{table}/{step}", data=data, headers=headers)
        assert done.ok, (step, done.text())
    page.goto(f"{base}/mesa/{table}")
    page.wait_for_selector("#hand-cards button, .face-down")
    return table


def wait_until(page: Page, table: str, test: Any, what: str) -> dict[str, Any]:
    """The table's view once ``test`` holds; a test about the game waits while there is none.

    Right after "Start the game" the view may still be the waiting table's, whose ``game`` is
    ``None``: such a view is "not yet" for a test that reads the game, not an error.
    """
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = api_view(page, table)
        try:
            holds = test(view)
        except TypeError:
            if view.get("game") is not None:
                raise
            holds = False
        if holds:
            return view
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def my_turn(page: Page, table: str, phase: str) -> dict[str, Any]:
    view = wait_until(
        page,
        table,
        lambda v: v["game"]["phase"] == phase and v["game"]["to_act"] == 0,
        f"my turn in {phase}",
    )
    wait_for(page, "/^(¡Tu turno!|Your turn!)/.test(document.title)")
    wait_for(
        page,
        "(v) => document.querySelectorAll('#hand-cards .hand-card').length === v",
        arg=len(view["game"]["hand"]),
    )
    if phase == "playing":  # the page has drawn the play (the API may be ahead of its socket)
        wait_for(page, "document.querySelector('#hand-cards .hand-card.playable') !== null")
    return view


def wait_version(page: Page, table: str, at_least: int) -> dict[str, Any]:
    return wait_until(page, table, lambda v: v["version"] >= at_least, f"version {at_least}")


def play_hand(page: Page, table: str, cards: int = 99) -> int:
    """Bids and plays seat 0's turns from the page until the hand ends (or
    ``cards`` cards are played); the number of actions sent."""
    sent = played = 0
    for _ in range(500):
        view = api_view(page, table)
        game = view["game"]
        if game["phase"] in ("hand_end", "game_over") or played >= cards:
            return sent
        if game["to_act"] != 0:
            time.sleep(0.03)
            continue
        my_turn(page, table, game["phase"])
        if game["phase"] == "bidding":
            page.select_option("#bid", "3")  # nothing is chosen for you
            page.get_by_role("button", name="Apostar", exact=True).click()
        else:
            page.click("#hand-cards button.playable >> nth=0")
            played += 1
        sent += 1
        wait_version(page, table, view["version"] + 1)
    raise AssertionError("the hand did not end")


def settled(page: Page) -> None:
    """Waits until no animation or transition runs (boxes are where they stay)."""
    wait_for(page, "document.getAnimations().every((a) => a.playState !== 'running')")


def felt_boxes(page: Page) -> dict[str, Any]:
    """The felt's box, each seat's box (in the felt's order) and each card of the
    trick on the felt (a winner's card with its mark below it)."""
    settled(page)
    found: dict[str, Any] = page.evaluate(
        """() => {
          const box = (r) => ({x: r.left, y: r.top, width: r.width, height: r.height});
          const felt = box(document.querySelector('.felt').getBoundingClientRect());
          const seats = [...document.querySelectorAll('#seats .seat')].map((s) => ({
            seat: Number(s.dataset.seat), ...box(s.getBoundingClientRect())}));
          const cards = [...document.querySelectorAll('#trick-cards .card')].map((c) => {
            const r = box(c.getBoundingClientRect());
            const mark = getComputedStyle(c, '::after');
            if (c.classList.contains('won') && mark.content !== 'none') {
              r.height += parseFloat(mark.fontSize) * 1.3 + 2;  // the winner's mark below it
            }
            return {card: c.dataset.card || c.getAttribute('aria-label'), ...r};
          });
          return {felt, seats, cards};
        }"""
    )
    return found


def apart(a: Box, b: Box) -> bool:
    """Whether two boxes share no area (touching edges is apart)."""
    return (
        a["x"] + a["width"] <= b["x"] + 0.5
        or b["x"] + b["width"] <= a["x"] + 0.5
        or a["y"] + a["height"] <= b["y"] + 0.5
        or b["y"] + b["height"] <= a["y"] + 0.5
    )


def inside(inner: Box, outer: Box) -> bool:
    return (
        outer["x"] - 0.5 <= inner["x"]
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and outer["y"] - 0.5 <= inner["y"]
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


def trick_clear_of_seats(page: Page, state: str) -> int:
    """Asserts that no card of the trick on the felt covers any seat (nor leaves
    the felt); the number of cards on it."""
    boxes = felt_boxes(page)
    for card in boxes["cards"]:
        assert inside(card, boxes["felt"]), (state, card, boxes["felt"])
        for seat in boxes["seats"]:
            assert apart(card, seat), (state, card, seat)
    return len(boxes["cards"])


def cards_share_at_most_a_corner(page: Page, state: str) -> int:
    """Asserts that no two cards of the trick on the felt overlap by more than a
    corner (half a card's width and half its height at most), so that every card
    is seen; the number of cards on the felt."""
    settled(page)
    cards: list[Box] = page.evaluate(
        """() => [...document.querySelectorAll('#trick-cards .card')].map((c) => {
             const r = c.getBoundingClientRect();
             return {x: r.left, y: r.top, width: r.width, height: r.height}; })"""
    )
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
            down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
            if across > 0.5 and down > 0.5:
                assert across <= a["width"] / 2 + 1 and down <= a["height"] / 2 + 1, (state, a, b)
    return len(cards)
