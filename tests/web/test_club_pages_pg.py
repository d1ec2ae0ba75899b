"""The club's pages over a server on PostgreSQL: a game abandoned through the API
shows on the profile and on the leaderboard, as on SQLite
(``test_club_pages.py`` covers the pages in full)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from club_pages_helpers import abandoned_game
from server_helpers import Client
from web_helpers import axe_clean, person, wait_for

pytestmark = pytest.mark.databases("postgresql")


def test_profile_and_leaderboard_on_postgresql(base: str, browser: Browser) -> None:
    ana = Client(base)
    ana.sign_in("Ana")
    table = abandoned_game(ana, "aleatorio", "normal")
    ana_id = ana.http.get("/jugador/yo", follow_redirects=False).headers["location"]
    page = person(browser, base, "es-ES", "phone").new_page()
    page.goto(ana_id)
    page.wait_for_selector("#profile:not([hidden]) #games li")
    assert page.locator("#games li .result").all_text_contents() == ["Perdida"]
    assert page.get_by_role("link", name="Repetición").get_attribute("href") == (
        f"/mesa/{table}/repeticion"
    )
    assert page.locator(".rating-value").count() == 1  # partnership only
    axe_clean(page, "profile on postgresql")
    page.goto("/clasificacion")
    wait_for(page, "document.querySelectorAll('#board tbody tr').length === 1")
    names = set(page.locator("#board tbody th a").all_text_contents())
    assert names == {"Ana"}  # robots are left out of the players' leaderboard
    page.context.close()
    ana.close()
