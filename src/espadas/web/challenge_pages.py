"""The daily challenge's pages beside ``/reto`` (today's): a day's page
(``/reto/DAY``: its standings; once closed, its boards file and the ``espadas
verify`` hint) and the side-by-side replay of one board
(``/reto/DAY/tablero/N?jugador=ID``). Shells filled by ES modules from the
challenge's API, which refuses another's play before the day closes.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from espadas.tables.challenge import is_day

PagePicker = Callable[[str, Request], HTMLResponse]
"""The site's ``html_page(name, request)``: a page's response."""

NotFound = Callable[[Request], HTMLResponse]
"""The site's short page that says there is no such day (404)."""


def add_challenge_pages(app: FastAPI, html_page: PagePicker, not_found: NotFound) -> None:
    """Adds the challenge's day and side-by-side pages to ``app``."""

    @app.get("/reto/{day}", response_class=HTMLResponse, include_in_schema=False)
    async def day_page(request: Request, day: str) -> HTMLResponse:
        if not is_day(day):
            return not_found(request)
        return html_page("challenge_day", request)

    @app.get("/reto/{day}/tablero/{board}", response_class=HTMLResponse, include_in_schema=False)
    async def compare_page(request: Request, day: str, board: int) -> HTMLResponse:
        if not is_day(day) or not 1 <= board <= 100:
            return not_found(request)
        return html_page("challenge_compare", request)
