"""Routes of identity: choosing a display name (a signed cookie, no password),
reading it back, and resume links that continue as the same person on another
device.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse

from espadas.server.dependencies import (
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    public_base,
    store_of,
)
from espadas.server.errors import ApiError
from espadas.server.identity import COOKIE_AGE, CSRF_COOKIE, PLAYER_COOKIE, Identity
from espadas.server.models import ResumedOut, ResumeIn, ResumeLinkOut, SessionIn, SessionOut
from espadas.server.openapi import answer, refusals
from espadas.store.store import Player, new_token

router = APIRouter()


def _set_session(response: Response, identity: Identity, player: Player, secure: bool) -> str:
    csrf = new_token()
    for key, value, http_only in (
        (PLAYER_COOKIE, identity.sign(player.id), True),
        (CSRF_COOKIE, csrf, False),
    ):
        response.set_cookie(
            key,
            value,
            max_age=COOKIE_AGE,
            httponly=http_only,
            samesite="lax",
            secure=secure,
            path="/",
        )
    return csrf


@router.post("/api/session", tags=["identity"], responses=answer(SessionOut) | refusals(422))
async def create_session(
    body: SessionIn,
    request: Request,
    response: Response,
    player: MaybePlayerDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Chooses a display name. A new visitor gets a signed cookie (no password);
    a known one is renamed. Answers the CSRF token to send as ``X-CSRF-Token``."""
    store = store_of(request)
    if player is None:
        player = await store.create_player(body.name, settings.clock.now())
    else:
        await store.rename_player(player.id, body.name)
        player = Player(player.id, body.name)
    csrf = _set_session(response, request.app.state.identity, player, request.url.scheme == "https")
    return {"name": player.name, "csrf": csrf}


@router.get("/api/session", tags=["identity"], responses=answer(SessionOut))
async def read_session(request: Request, player: MaybePlayerDep) -> dict[str, Any]:
    """Who you are (``name`` is null before you choose one), and the CSRF token
    of this browser."""
    if player is None:
        return {"name": None, "csrf": None}
    return {"name": player.name, "csrf": request.cookies.get(CSRF_COOKIE)}


@router.post("/api/resume-link", tags=["identity"], responses=answer(ResumeLinkOut) | refusals(401))
async def create_resume_link(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """A private link that continues as you on another device. Keep it secret."""
    token = await store_of(request).resume_link(player.id, settings.clock.now())
    return {"url": f"{public_base(request, settings)}/resume/{token}", "token": token}


async def _resume(request: Request, token: str, response: Response) -> Player:
    player = await store_of(request).player_for_link(token[:100])
    if player is None:
        raise ApiError(404, "bad_link")
    _set_session(response, request.app.state.identity, player, request.url.scheme == "https")
    return player


@router.post(
    "/api/resume", tags=["identity"], responses=answer(ResumedOut) | refusals(404, 409, 422)
)
async def resume(body: ResumeIn, request: Request, response: Response) -> dict[str, Any]:
    """Signs this device in with a resume link's token."""
    player = await _resume(request, body.token, response)
    return {"name": player.name}


@router.get(
    "/resume/{token}",
    tags=["identity"],
    response_class=RedirectResponse,
    status_code=303,
    response_description="Signed in: to the start page (Location), with the session cookies.",
    responses=refusals(404, 409),
)
async def resume_page(token: str, request: Request) -> Response:
    """Opening a resume link signs the device in and goes to the start page."""
    response = RedirectResponse("/", status_code=303)
    await _resume(request, token, response)
    return response
