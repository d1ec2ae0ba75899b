"""The club's pages in Debian's chromium (Playwright), over real data: games played
and abandoned through the API of a running server, rated and counted by the
server as they end. The profile shows what the club's API says (ratings with a
chart and its table, statistics, partners, the history a page at a time); the
leaderboard's filters change the rows and the address; both pages in Spanish
and English, axe-core clean, without sideways scrolling, at 360x640 and
1280x800 (screenshots in ``test-screenshots/`` (with
``ESPADAS_SCREENSHOTS=1``))."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from club_pages_helpers import abandoned_game, whole_game
from espadas.web.site import page as page_html
from server_helpers import Client
from web_helpers import (
    SIZES,
    axe_clean,
    csp_violations,
    no_sideways_scroll,
    person,
    shot,
    touch_targets,
    wait_for,
    watch_errors,
)

RATING = re.compile(r"^\d+ ± \d+$")


@dataclass
class Club:
    """The people of the module's club, and their games."""

    ana: Client
    ana_id: str
    luis_id: str
    whole: list[str]
    abandoned: list[str]
    individual: str


def player_id(client: Client) -> str:
    answer = client.http.get("/jugador/yo", follow_redirects=False)
    assert answer.status_code == 303
    return answer.headers["location"].removeprefix("/jugador/")


@pytest.fixture(scope="module")
def club(base: str) -> Iterator[Club]:
    """Ana: 2 whole games (cien, a robot "normal" partner against "aleatorio"), 22
    abandoned ones (estandar, an "aleatorio" partner against "experto") and an
    abandoned individual game for three (sala, with "normal" and "aleatorio");
    Luis: one whole game (cien, a "normal" partner against "aleatorio")."""
    ana, luis = Client(base), Client(base)
    ana.sign_in("Ana")
    luis.sign_in("Luis")
    whole = [whole_game(ana, "normal", "aleatorio") for _ in range(2)]
    abandoned = [abandoned_game(ana, "aleatorio", "experto") for _ in range(22)]
    individual = abandoned_game(ana, "normal", "aleatorio", "sala", players=3, partnerships=False)
    whole_game(luis, "normal", "aleatorio")
    yield Club(ana, player_id(ana), player_id(luis), whole, abandoned, individual)
    ana.close()
    luis.close()


def api(base: str, path: str) -> Any:
    answer = httpx.get(base + path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def signed_in_page(browser: Browser, base: str, who: Client, size: str, locale: str) -> Page:
    """A page of ``who``'s browser (their cookies)."""
    context = person(browser, base, locale, size)
    context.add_cookies([{"name": k, "value": v, "url": base} for k, v in who.http.cookies.items()])
    return context.new_page()


def board_says(page: Page, caption: str) -> list[str]:
    """Waits until the leaderboard shows ``caption`` (its filters), and returns its names."""
    wait_for(
        page,
        "(c) => (document.querySelector('#board caption') || {}).textContent === c",
        caption,
    )
    return page.locator("#board tbody th a").all_text_contents()


def check(page: Page, state: str, size: str) -> None:
    axe_clean(page, state)
    no_sideways_scroll(page)
    touch_targets(page)
    assert csp_violations(page) == []
    shot(page, f"{state}-{size}")
    shot(page, f"{state}-{size}-first-screen", full_page=False)


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("name", ["profile", "leaderboard"])
def test_the_shells_fill_every_placeholder(name: str, lang: str) -> None:
    html = page_html(name, lang)
    assert "{{" not in html and "}}" not in html
    assert html.count("<h1") == 1 and f'<html lang="{lang}">' in html


@pytest.mark.parametrize("size", list(SIZES))
def test_the_profile_shows_the_api_numbers(
    base: str, browser: Browser, club: Club, size: str
) -> None:
    data = api(base, f"/api/club/players/{club.ana_id}")
    page = signed_in_page(browser, base, club.ana, size, "es-ES")
    errors = watch_errors(page)
    page.goto("/")
    page.get_by_role("link", name="Tu perfil").click()
    page.wait_for_url(f"**/jugador/{club.ana_id}")
    page.wait_for_selector("#profile:not([hidden]) #games li")
    assert page.text_content("h1") == "Ana"
    assert page.title() == "Ana — Espadas"
    # ratings: one number and its uncertainty per kind, provisional under 10 games
    pair, alone = data["ratings"]["partnership"], data["ratings"]["individual"]
    shown = page.locator(".rating-value").all_text_contents()
    assert shown == [
        f"{pair['rating']} ± {pair['uncertainty']}",
        f"{alone['rating']} ± {alone['uncertainty']}",
    ]
    assert all(RATING.match(s) for s in shown)
    assert pair["games"] == 24 and not pair["provisional"]
    assert alone["games"] == 1 and alone["provisional"]
    assert page.locator("#rating-individual ~ .rating-now .badge").text_content() == "provisional"
    assert page.locator("#rating-partnership ~ .rating-now .badge").count() == 0
    # the chart: an image with a title and a summary, and its numbers in a table
    chart = page.locator("svg.rating-chart").first
    assert chart.get_attribute("role") == "img"
    summary = page.text_content("#chart-partnership-desc") or ""
    assert f"Partidas puntuadas: {len(pair['history'])}." in summary
    assert f"ahora {pair['rating']} ± {pair['uncertainty']}" in summary
    page.locator(".chart-data summary").first.click()
    rows = page.locator("#ratings .rating-kind").first.locator("tbody tr")
    assert rows.count() == len(pair["history"])
    last = pair["history"][-1]
    assert (
        rows.first.locator("td").nth(2).text_content()
        == f"{last['rating']} ± {last['uncertainty']}"
    )
    # statistics as the API counts them
    stats = data["stats"]
    figures = dict(
        zip(
            page.locator("#stats dt").all_text_contents(),
            page.locator("#stats dd").all_text_contents(),
            strict=True,
        )
    )
    assert figures["Partidas jugadas"] == str(stats["games"]) == "25"
    done = data["completion"]  # rated games finished and left, beside the games played
    total = done["finished"] + done["left"]
    assert total > 0 and figures["Partidas terminadas"].endswith(
        f"{done['finished']} de {total} partidas puntuables terminadas, {done['left']} dejadas"
    )
    assert figures["Manos jugadas"] == str(stats["hands"])
    assert figures["Bostons (13 bazas)"] == str(stats["bostons"])
    made, tried = stats["contracts_made"], stats["contracts"]
    assert figures["Contratos cumplidos"].startswith(f"{made} de {tried} (")
    # the page rounds halves away from zero, as Intl.NumberFormat does (59.25 -> 59,3)
    per_hand = (Decimal(stats["points"]) / Decimal(stats["hands"])).quantize(
        Decimal("0.1"), rounding=ROUND_HALF_UP
    )
    assert stats["hands"] > 0 and figures["Puntos por mano"] == str(per_hand).replace(".", ",")
    # favourite partners: the robots she sat with, most games first
    partners = page.locator("#partners tbody th").all_text_contents()
    assert partners == ["Robot aleatorio", "Robot normal"]
    assert page.locator("#partners tbody tr").first.locator("td").first.text_content() == "22"
    check(page, "club-profile", size)
    assert errors == []
    page.context.close()


def test_the_history_pages_on_and_links_replays_and_records(
    base: str, browser: Browser, club: Club
) -> None:
    page = signed_in_page(browser, base, club.ana, "phone", "es-ES")
    page.goto(f"/jugador/{club.ana_id}")
    page.wait_for_selector("#games li")
    games = page.locator("#games li.game")
    assert games.count() == 20
    newest = api(base, f"/api/club/players/{club.ana_id}/games?limit=20")
    assert newest["next"] is not None
    first = newest["games"][0]
    assert first["table"] == club.individual  # her last game
    replay = games.first.get_by_role("link", name="Repetición")
    assert replay.get_attribute("href") == f"/mesa/{first['table']}/repeticion"
    record = games.first.get_by_role("link", name="Registro")
    assert record.get_attribute("href") == f"/api/tables/{first['table']}/record"
    assert record.get_attribute("download") is not None
    # the individual game says a place, the others won or lost
    assert re.match(r"^Puesto [1-3] de 3$", games.first.locator(".result").text_content() or "")
    assert games.nth(1).locator(".result").text_content() == "Perdida"  # abandoned
    # by keyboard: the button loads the rest and the focus goes to the first new game
    page.focus("#more-games")
    page.keyboard.press("Enter")
    wait_for(page, "document.querySelectorAll('#games li.game').length === 25")
    assert page.evaluate("document.activeElement === document.querySelectorAll('#games li')[20]")
    assert page.locator("#more-games").is_hidden()
    tables = page.eval_on_selector_all(
        "#games a[href$='/repeticion']",
        "links => links.map(a => a.getAttribute('href').split('/')[2])",
    )
    assert sorted(tables) == sorted([*club.whole, *club.abandoned, club.individual])
    # the replay of a whole game opens, and its names lead to profiles
    page.goto(f"/mesa/{club.whole[0]}/repeticion")
    page.wait_for_selector("#replay-board h3 a")
    page.locator("#replay-board h3 a").nth(2).click()  # her partner, seat 2
    page.wait_for_url("**/jugador/robot-normal")
    page.wait_for_selector("#profile:not([hidden])")
    assert page.text_content("h1") == "Robot normal"
    assert "Un robot de nivel normal" in (page.text_content("#player-note") or "")
    # a robot level counts per seat: "aleatorio", both opponents at whole games,
    # played as many games as its list shows seats (more than its tables)
    robot = api(base, "/api/club/players/robot-aleatorio")
    listed = api(base, "/api/club/players/robot-aleatorio/games?limit=100")["games"]
    assert robot["stats"]["games"] == len(listed) > len({g["table"] for g in listed})
    page.context.close()


def test_the_result_links_each_seat_to_its_profile(base: str, browser: Browser, club: Club) -> None:
    page = signed_in_page(browser, base, club.ana, "desktop", "es-ES")
    page.goto(f"/mesa/{club.whole[1]}")
    page.wait_for_selector("#result .profiles a")
    links = page.locator("#result .profiles a")
    assert links.count() == 4
    if page.locator("#summary[open]").count():  # the last hand's summary comes first
        page.keyboard.press("Escape")
    links.first.click()
    page.wait_for_url(f"**/jugador/{club.ana_id}")
    page.context.close()
    lost = httpx.get(f"{base}/mesa/{club.whole[1]}/asiento/7", follow_redirects=False)
    assert lost.status_code == 404
    assert httpx.get(f"{base}/jugador/no%20vale").status_code == 404
    assert httpx.get(f"{base}/jugador/yo", follow_redirects=False).headers["location"] == "/"


@pytest.mark.parametrize("size", list(SIZES))
def test_the_leaderboard_filters_change_rows_and_address(
    base: str, browser: Browser, club: Club, size: str
) -> None:
    page = person(browser, base, "es-ES", size).new_page()
    errors = watch_errors(page)
    page.goto("/")
    page.get_by_role("link", name="Clasificación").click()
    page.wait_for_url("**/clasificacion")
    page.wait_for_selector("#board table")
    names = page.locator("#board tbody th a").all_text_contents()
    # the players' leaderboard: robots are left out (their profiles rate them)
    assert set(names) == {"Ana", "Luis"}
    everyone = api(base, "/api/club/leaderboard?kind=partnership&period=all&limit=50")
    assert len(names) == len(everyone["rows"])
    rating = page.locator("#board tbody tr").first.locator("td.num").first.text_content()
    top = everyone["rows"][0]
    assert rating == f"{top['rating']} ± {top['uncertainty']}"
    check(page, "club-leaderboard", size)
    # rules "estandar": only those who sat at an estandar game (not Luis, not "normal")
    page.select_option("#preset", "estandar")
    page.wait_for_url("**/clasificacion?preset=estandar")
    names = board_says(page, "En pareja · Estándar · Desde siempre")
    assert {"Ana"} == set(names)
    # individual games: Ana's game of three (a sala game, with robots)
    page.select_option("#kind", "individual")
    page.wait_for_url("**/clasificacion?kind=individual&preset=estandar")
    wait_for(page, "document.getElementById('board-state').textContent.startsWith('Nadie')")
    page.select_option("#preset", "sala")
    page.wait_for_url("**/clasificacion?kind=individual&preset=sala")
    names = board_says(page, "Individual · Sala · Desde siempre")
    assert set(names) == {"Ana"}
    page.select_option("#preset", "")
    page.wait_for_url("**/clasificacion?kind=individual")
    assert set(board_says(page, "Individual · Todas las reglas · Desde siempre")) == set(names)
    # pairs: Ana with her robot partner of 22 games is one of them
    page.select_option("#kind", "pairs")
    page.wait_for_url("**/clasificacion?kind=pairs")
    board_says(page, "Parejas de jugadores · Todas las reglas · Desde siempre")
    pairs = [
        sorted(row.locator("a").all_text_contents())
        for row in page.locator("#board tbody th").all()
    ]
    assert ["Ana", "Robot aleatorio"] in pairs
    check(page, "club-pairs", size)
    # back: the address and the filters go back together
    page.go_back()
    page.wait_for_url("**/clasificacion?kind=individual")
    wait_for(page, "document.getElementById('kind').value === 'individual'")
    # this week (all the games are this week's) and an address opened as it is
    page.goto("/clasificacion?kind=pairs&period=week")
    week = board_says(page, "Parejas de jugadores · Todas las reglas · Esta semana")
    assert page.input_value("#kind") == "pairs" and page.input_value("#period") == "week"
    assert len(week) == sum(len(pair) for pair in pairs)
    assert errors == []
    page.context.close()


def test_keyboard_alone_changes_the_filters(base: str, browser: Browser, club: Club) -> None:
    page = person(browser, base, "es-ES").new_page()
    page.goto("/clasificacion")
    page.wait_for_selector("#board table")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "kind":
            break
    assert page.evaluate("document.activeElement.id") == "kind"
    page.keyboard.press("ArrowDown")
    page.wait_for_url("**/clasificacion?kind=individual")
    # Ana alone: the robots of her game of three are left out
    wait_for(page, "document.getElementById('board-state').textContent.endsWith(': 1')")
    page.context.close()


def test_both_pages_in_english(base: str, browser: Browser, club: Club) -> None:
    page = signed_in_page(browser, base, club.ana, "phone", "en-GB")
    page.goto(f"/jugador/{club.ana_id}")
    page.wait_for_selector("#profile:not([hidden]) #games li")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.text_content("#ratings-title") == "Ratings"
    assert "Rated games: 24" in (page.text_content("#ratings") or "")
    assert page.locator("#stats dt").first.text_content() == "Games played"
    assert page.locator("#games li .result").all_text_contents()[-1] in ("Won", "Lost")
    check(page, "club-profile-en", "phone")
    page.goto("/clasificacion?kind=pairs")
    page.wait_for_selector("#board table")
    assert page.text_content("h1") == "Leaderboard"
    assert page.text_content("#board caption") == "Pairs of players · All rules · All time"
    check(page, "club-leaderboard-en", "phone")
    # the other language by the switch, kept in the address's filters
    page.click("#lang-switch")
    page.wait_for_selector("#board table")
    assert page.text_content("h1") == "Clasificación"
    assert page.input_value("#kind") == "pairs"
    page.goto("/jugador/nadie-por-aqui")
    wait_for(page, "document.getElementById('profile-state').textContent.length > 12")
    assert page.text_content("#profile-state") == "No existe ese jugador."
    page.context.close()


def test_hiding_yourself_leaves_the_leaderboards(base: str, browser: Browser, club: Club) -> None:
    def listed() -> set[str]:
        rows = api(base, "/api/club/leaderboard?kind=partnership")["rows"]
        return {row["id"] for row in rows}

    page = signed_in_page(browser, base, club.ana, "phone", "es-ES")
    page.goto(f"/jugador/{club.luis_id}")  # someone else's profile offers nothing
    page.wait_for_selector("#profile:not([hidden])")
    assert page.locator("#me").is_hidden()
    page.goto("/jugador/yo")
    page.wait_for_selector("#me:not([hidden])")
    assert page.is_checked("#listed") and club.ana_id in listed()
    page.focus("#listed")
    page.keyboard.press("Space")
    wait_for(page, "document.getElementById('listed-state').textContent.includes('ya no')")
    assert club.ana_id not in listed()
    page.goto("/clasificacion")
    names = board_says(page, "En pareja · Todas las reglas · Desde siempre")
    assert "Ana" not in names and "Luis" in names
    page.goto("/jugador/yo")  # her profile stays, and she comes back
    page.wait_for_selector("#me:not([hidden])")
    assert not page.is_checked("#listed")
    page.check("#listed")
    wait_for(page, "document.getElementById('listed-state').textContent.length > 0")
    assert club.ana_id in listed()
    page.context.close()
