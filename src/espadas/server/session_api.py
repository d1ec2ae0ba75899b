"""Routes of identity: choosing a display name (a signed cookie, no password),
reading it back, and resume links that continue as the same person on another
device.

A resume link never replaces the person a device is signed in as without being
asked: :func:`open_link` says what a link would do, and the API
(``POST /api/resume``) and the page that opens a link (``GET /resume/TOKEN``, in
:mod:`espadas.web.site`) switch only on an explicit confirmation. Resume links
can be revoked (all of a person's at once), and each use is recorded for the
person's devices list (``GET /api/resume-link``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response

from espadas.server.dependencies import (
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    player_or_none,
    public_base,
    session_hash,
    store_of,
)
from espadas.server.device import describe
from espadas.server.errors import ApiError
from espadas.server.identity import COOKIE_AGE, CSRF_COOKIE, PLAYER_COOKIE, Identity
from espadas.server.models import (
    ResumedOut,
    ResumeIn,
    ResumeLinkIn,
    ResumeLinkOut,
    ResumeUsesOut,
    RevokedOut,
    SessionIn,
    SessionOut,
)
from espadas.server.openapi import answer, refusals
from espadas.server.settings import Settings
from espadas.store.accounts import NameTaken
from espadas.store.outbox import unstamp
from espadas.store.store import Player, new_token

router = APIRouter()


def _set_session(
    response: Response, identity: Identity, player: Player, session_id: str, secure: bool
) -> str:
    csrf = new_token()
    for key, value, http_only in (
        (PLAYER_COOKIE, identity.sign(player.id, session_id), True),
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


async def start_session(request: Request, response: Response, player: Player, how: str) -> str:
    """Signs this device in as ``player`` with a new session (``how``: ``name``,
    ``resume``, ``email``, ``passkey``); answers the new CSRF token."""
    settings: Settings = request.app.state.settings
    browser, system = describe(request.headers.get("user-agent"))
    session_id = await store_of(request).sessions.open(
        player.id, settings.clock.now(), browser, system, how
    )
    return _set_session(
        response, request.app.state.identity, player, session_id, request.url.scheme == "https"
    )


def name_taken(name: str) -> ApiError:
    """The refusal of a name someone else has (409 ``name_taken``)."""
    return ApiError(409, "name_taken", name=name)


@router.post("/api/session", tags=["identity"], responses=answer(SessionOut) | refusals(409, 422))
async def create_session(
    body: SessionIn,
    request: Request,
    response: Response,
    player: MaybePlayerDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Chooses a display name. A new visitor gets a signed cookie (no password);
    a known one is renamed. A name someone else has (in any case) is refused
    (409 ``name_taken``). Answers the CSRF token to send as ``X-CSRF-Token``."""
    store = store_of(request)
    unique = settings.unique_names
    try:
        if player is None:
            player = await store.create_player(body.name, settings.clock.now(), unique)
        else:
            await store.rename_player(player.id, body.name, unique)
            player = Player(player.id, body.name)
    except NameTaken:
        raise name_taken(body.name) from None
    found = request.app.state.identity.read_session(request.cookies.get(PLAYER_COOKIE))
    if found is not None and found[0] == player.id and found[1] is not None:
        csrf = _set_session(
            response, request.app.state.identity, player, found[1], request.url.scheme == "https"
        )
    else:
        csrf = await start_session(request, response, player, "name")
    return {"name": player.name, "csrf": csrf}


@router.get("/api/session", tags=["identity"], responses=answer(SessionOut))
async def read_session(
    request: Request, response: Response, player: MaybePlayerDep
) -> dict[str, Any]:
    """Who you are (``name`` is null before you choose one), and the CSRF token
    of this browser. A cookie signed before sessions existed is exchanged for
    one with a session (and a new CSRF token)."""
    if player is None:
        return {"name": None, "csrf": None}
    if session_hash(request) is None:
        return {"name": player.name, "csrf": await start_session(request, response, player, "name")}
    return {"name": player.name, "csrf": request.cookies.get(CSRF_COOKIE)}


@router.post(
    "/api/resume-link", tags=["identity"], responses=answer(ResumeLinkOut) | refusals(401, 422)
)
async def create_resume_link(
    request: Request,
    player: PlayerDep,
    settings: SettingsDep,
    body: ResumeLinkIn | None = None,
) -> dict[str, Any]:
    """A private link that continues as you on another device. Keep it secret.
    With ``{"replace": true}`` every earlier link of yours (those in mails too)
    is revoked first: they answer 410 from then on."""
    replace = body is not None and body.replace
    token = await store_of(request).resume_link(player.id, settings.clock.now(), replace)
    return {"url": f"{public_base(request, settings)}/resume/{token}", "token": token}


@router.get("/api/resume-link", tags=["identity"], responses=answer(ResumeUsesOut) | refusals(401))
async def read_resume_links(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Your devices list: how many of your resume links still work (``active``)
    and the latest uses of them, the most recent first: when (``at``) and the
    ``browser`` and ``system`` named by the device's User-Agent (``""`` when it
    did not say)."""
    links = store_of(request).links
    uses = [
        {"at": unstamp(use.at).isoformat(), "browser": use.browser, "system": use.system}
        for use in await links.uses(player.id)
    ]
    return {"active": await links.active(player.id), "uses": uses}


@router.delete("/api/resume-link", tags=["identity"], responses=answer(RevokedOut) | refusals(401))
async def revoke_resume_links(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Revokes every resume link of yours (those in mails too): opening one then
    answers 410. ``revoked`` says how many still worked."""
    return {"revoked": await store_of(request).links.revoke(player.id, settings.clock.now())}


@dataclass(frozen=True)
class Opened:
    """A resume link opened on a device: whose it is (``player``) and whom the
    device is signed in as now (``current``, None for nobody)."""

    player: Player
    current: Player | None

    @property
    def switches(self) -> bool:
        """Whether following the link would sign the device out of someone else."""
        return self.current is not None and self.current.id != self.player.id


async def open_link(request: Request, token: str) -> Opened:
    """What ``token`` would do on this device; refuses an unknown link (404
    ``bad_link``) and a revoked one (410 ``link_revoked``). Changes nothing."""
    store = store_of(request)
    owner = await store.links.owner(token[:100])
    player = None if owner is None else await store.player(owner.player_id)
    if owner is None or player is None:
        raise ApiError(404, "bad_link")
    if owner.revoked_at is not None:
        raise ApiError(410, "link_revoked")
    return Opened(player, await player_or_none(request))


async def follow_link(request: Request, response: Response, opened: Opened) -> None:
    """Signs the device in as the link's person (unless it already is) and
    records the use in their devices list."""
    if opened.current is None or opened.switches:
        await start_session(request, response, opened.player, "resume")
    settings: Settings = request.app.state.settings
    browser, system = describe(request.headers.get("user-agent"))
    await store_of(request).links.record_use(
        opened.player.id, settings.clock.now(), browser, system
    )


@router.post(
    "/api/resume", tags=["identity"], responses=answer(ResumedOut) | refusals(404, 409, 410, 422)
)
async def resume(body: ResumeIn, request: Request, response: Response) -> dict[str, Any]:
    """Signs this device in with a resume link's token. On a device signed in as
    someone else it changes nothing and answers 409 ``resume_would_switch``
    (the message names both people) unless ``confirm`` is true. ``switched``
    says whether the device left another person."""
    opened = await open_link(request, body.token)
    if opened.switches and not body.confirm:
        assert opened.current is not None
        raise ApiError(
            409, "resume_would_switch", current=opened.current.name, other=opened.player.name
        )
    await follow_link(request, response, opened)
    return {"name": opened.player.name, "switched": opened.switches}
