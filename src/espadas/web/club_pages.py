"""The club's pages: a player's profile (``/jugador/{subject}``) and the
leaderboard (``/clasificacion``), shells that ES modules fill from the club's JSON
API (``/api/club/...``), plus two short ways to a profile: ``/jugador/yo`` (your
own) and ``/mesa/{id}/asiento/{seat}`` (whoever sat there).

A subject is a player's id, or ``robot-LEVEL`` for a robot level.

>>> seat_subject(Seat("Ana", player="p1")), seat_subject(Seat("Robot", robot="experto"))
('p1', 'robot-experto')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from espadas.server.dependencies import player_or_none
from espadas.server.hub import Hub
from espadas.store.store import UnknownTable
from espadas.tables.ids import TABLE_ID
from espadas.tables.seat import Seat

SUBJECT = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a subject may look like (a player id or ``robot-LEVEL``)."""

PagePicker = Callable[[str, Request], HTMLResponse]
"""The site's ``html_page(name, request)``: a page's response."""

NotFound = Callable[[Request], HTMLResponse]
"""The site's short page that says there is no such player (404)."""


def seat_subject(seat: Seat) -> str | None:
    """The subject whose profile a seat links to (``None``: nobody to show)."""
    if seat.player is not None:
        return seat.player
    if seat.robot is not None:
        return f"robot-{seat.robot}"
    return None


def profile_url(subject: str) -> str:
    """The address of ``subject``'s profile page."""
    return "/jugador/" + quote(subject, safe="")


def add_club_pages(app: FastAPI, html_page: PagePicker, not_found: NotFound) -> None:
    """Adds the club's page routes to ``app``; ``html_page`` makes a page's response."""

    @app.get("/clasificacion", response_class=HTMLResponse, include_in_schema=False)
    async def leaderboard_page(request: Request) -> HTMLResponse:
        return html_page("leaderboard", request)

    @app.get("/jugador/yo", include_in_schema=False)
    async def own_profile(request: Request) -> Response:
        """Your own profile; without a name yet, the start page (to choose one)."""
        player = await player_or_none(request)
        where = "/" if player is None else profile_url(player.id)
        return RedirectResponse(where, status_code=303, headers={"cache-control": "no-store"})

    @app.get("/jugador/{subject}", response_class=HTMLResponse, include_in_schema=False)
    async def profile_page(request: Request, subject: str) -> HTMLResponse:
        """The page's script reads the subject from the address and asks the API."""
        if not SUBJECT.match(subject):
            return not_found(request)
        return html_page("profile", request)

    @app.get("/mesa/{table_id}/asiento/{seat}", include_in_schema=False)
    async def seat_profile(request: Request, table_id: str, seat: int) -> Response:
        """The profile of whoever sat in ``seat`` of the table (404 when nobody did)."""
        hub: Hub = request.app.state.hub
        if not TABLE_ID.match(table_id):
            return not_found(request)
        try:
            table = await hub.table(table_id)
        except UnknownTable:
            table = None
        sitting = table.seats[seat] if table and 0 <= seat < len(table.seats) else None
        subject = seat_subject(sitting) if sitting is not None else None
        if subject is None:
            return not_found(request)
        return RedirectResponse(profile_url(subject), status_code=303)
