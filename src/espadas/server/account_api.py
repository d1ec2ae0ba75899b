"""Routes of accounts: a name that is yours alone, signing in on any device with
a one-time link sent to your confirmed e-mail (the address of notices,
``PUT /api/contact``), the devices signed in and signing them out, downloading
your data and deleting your account.

Asking for a sign-in link answers the same (202) whether or not the address
belongs to anyone, and the mail goes out after the answer, so that neither the
answer nor its time tells; requests are limited per address and per client.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request, Response
from fastapi.responses import JSONResponse

from espadas.i18n import translate
from espadas.server.account_models import (
    AccountOut,
    DeletedOut,
    DeleteIn,
    DevicesOut,
    ExportOut,
    NameOut,
    RenameIn,
    SignedInOut,
    SignedOutOut,
    SigninIn,
    SigninSentOut,
    SigninUseIn,
)
from espadas.server.dependencies import (
    HubDep,
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    public_base,
    session_hash,
    store_of,
)
from espadas.server.errors import ApiError
from espadas.server.identity import CSRF_COOKIE, PLAYER_COOKIE
from espadas.server.limiter import RateLimit, address_key
from espadas.server.mail import compose, send, valid_email
from espadas.server.openapi import answer, refusals
from espadas.server.session_api import name_taken, start_session
from espadas.server.settings import Settings
from espadas.store.accounts import SIGNIN_TTL, NameTaken, SigninRefused
from espadas.store.store import Player

log = logging.getLogger("espadas.accounts")

router = APIRouter()

WINDOW_S = 15 * 60
"""The window of the sign-in limits."""


def signin_limits(settings: Settings) -> tuple[RateLimit, RateLimit]:
    """The limits of sign-in requests: per e-mail address and per client."""
    per_mail = settings.signin_per_address
    return (
        RateLimit(per_mail / WINDOW_S, per_mail, settings.rate_store),
        RateLimit(10 * per_mail / WINDOW_S, 10 * per_mail, settings.rate_store),
    )


@router.get("/api/account", tags=["identity"], responses=answer(AccountOut) | refusals(401))
async def read_account(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Your name, your e-mail (the one of notices and sign-in links) and whether
    it is confirmed, whether this server sends e-mail, and how many passkeys
    you have."""
    store = store_of(request)
    contact = await store.outbox.contact(player.id)
    keys = await store.passkeys.of(player.id)
    return {
        "name": player.name,
        "email": None if contact is None else contact.email,
        "confirmed": contact is not None and contact.confirmed,
        "mail": settings.smtp_host is not None,
        "passkeys": len(keys),
    }


@router.put(
    "/api/account/name", tags=["identity"], responses=answer(NameOut) | refusals(401, 409, 422)
)
async def rename(
    body: RenameIn, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Changes your display name. Names are unique in the club whatever their
    case: one someone else has is refused (409 ``name_taken``). The names in the
    logs of games already played stay as they were."""
    try:
        await store_of(request).rename_player(player.id, body.name, settings.unique_names)
    except NameTaken:
        raise name_taken(body.name) from None
    return {"name": body.name}


@router.post(
    "/api/signin/email",
    status_code=202,
    tags=["identity"],
    responses=answer(SigninSentOut, 202) | refusals(404, 422),
)
async def ask_signin(
    body: SigninIn, request: Request, settings: SettingsDep, background: BackgroundTasks
) -> dict[str, Any]:
    """Sends a one-time sign-in link (valid 15 minutes, once) to ``email`` if it
    is someone's confirmed address: one link per person with that address. The
    answer is the same whether or not it is (202). 404 ``no_mail``: this server
    sends no e-mail. 429 ``signin_too_many``: too many requests for this address
    or from this client."""
    if not settings.smtp_host:
        raise ApiError(404, "no_mail")
    if not valid_email(body.email):
        raise ApiError(422, "bad_email")
    per_mail, per_client = request.app.state.signin_limits
    client = request.client.host if request.client else "?"
    if not await per_mail.hit("signin-mail:" + body.email.lower()) or not await per_client.hit(
        "signin-client:" + address_key(client)
    ):
        raise ApiError(429, "signin_too_many")
    background.add_task(_send_links, request, settings, body.email, body.lang)
    return {"sent": True, "message": translate("api.signin_sent", body.lang)}


async def _send_links(request: Request, settings: Settings, email: str, lang: str) -> None:
    """The sign-in mail, after the answer: one link per person holding ``email``."""
    store = store_of(request)
    try:
        holders = await store.accounts.holders(email)
        if not holders:
            return
        now = settings.clock.now()
        base = public_base(request, settings)
        lines = [translate("mail.signin.intro", lang), ""]
        for holder in holders:
            token = await store.accounts.signin_link(holder.player_id, now)
            lines.append(
                translate("mail.signin.link", lang, name=holder.name, url=f"{base}/entrar/{token}")
            )
        minutes = int(SIGNIN_TTL.total_seconds() // 60)
        lines += ["", translate("mail.signin.outro", lang, minutes=minutes)]
        subject = translate("mail.signin.subject", lang)
        # to the address as it was confirmed (the request may differ in case)
        to = holders[0].email
        await send(settings, compose(settings.mail_from, to, subject, lines))
    except Exception:  # nobody waits for this answer: say it in the log
        log.exception("a sign-in mail could not be sent")


@router.post(
    "/api/signin/email/use",
    tags=["identity"],
    responses=answer(SignedInOut) | refusals(404, 409, 410, 422),
)
async def use_signin(
    body: SigninUseIn,
    request: Request,
    response: Response,
    current: MaybePlayerDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Signs this device in with a sign-in link's token: the device gets a
    session of the link's person. The link then never works again (410
    ``signin_used``); after 15 minutes it has expired (410 ``signin_expired``);
    404 ``bad_signin``: no such link. A device signed in as someone else is
    asked first (409 ``signin_would_switch``) unless ``confirm`` is true."""
    store = store_of(request)
    now = settings.clock.now()
    owner = await _peek(request, body.token, now)
    switches = current is not None and current.id != owner.id
    if switches and not body.confirm:
        assert current is not None
        raise ApiError(409, "signin_would_switch", current=current.name, other=owner.name)
    try:
        await store.accounts.use_signin(body.token, now)
    except SigninRefused as err:
        raise ApiError(404 if err.code == "bad_signin" else 410, err.code) from None
    if current is None or switches:
        await start_session(request, response, owner, "email")
    return {"name": owner.name, "switched": switches}


async def _peek(request: Request, token: str, now: Any) -> Player:
    """Whose working link ``token`` is; refuses as :func:`use_signin` says."""
    store = store_of(request)
    try:
        player_id = await store.accounts.check_signin(token, now)
    except SigninRefused as err:
        raise ApiError(404 if err.code == "bad_signin" else 410, err.code) from None
    player = await store.player(player_id)
    if player is None:
        raise ApiError(404, "bad_signin")
    return player


@router.get("/api/account/devices", tags=["identity"], responses=answer(DevicesOut) | refusals(401))
async def devices(request: Request, player: PlayerDep) -> dict[str, Any]:
    """The devices signed in as you, the most recently seen first (``seen_at``
    to the hour): how each signed in (``name``, ``resume``, ``email``,
    ``passkey``), its browser and system, and which one is this (``current``)."""
    here = session_hash(request)
    return {
        "devices": [
            {
                "id": d.id,
                "current": d.id == here,
                "created_at": d.created_at,
                "seen_at": d.seen_at,
                "browser": d.browser,
                "system": d.system,
                "how": d.how,
            }
            for d in await store_of(request).sessions.devices(player.id)
        ]
    }


@router.delete(
    "/api/account/devices/{device_id}",
    tags=["identity"],
    responses=answer(SignedOutOut) | refusals(401, 404, 422),
)
async def sign_out_device(
    device_id: str, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Signs one of your devices out (this one too, if it is its ``id``): its
    next request is no longer you. 404 ``no_device``: no such device of yours."""
    if not await store_of(request).sessions.revoke(player.id, device_id[:64], settings.clock.now()):
        raise ApiError(404, "no_device")
    return {"signed_out": 1}


@router.delete(
    "/api/account/devices", tags=["identity"], responses=answer(SignedOutOut) | refusals(401)
)
async def sign_out_others(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Signs every other device of yours out (and the cookies from before
    devices were listed); this one stays. ``signed_out`` counts the listed ones."""
    count = await store_of(request).sessions.revoke_others(
        player.id, session_hash(request), settings.clock.now()
    )
    return {"signed_out": count}


@router.get("/api/account/data", tags=["identity"], responses=answer(ExportOut) | refusals(401))
async def export(request: Request, player: PlayerDep) -> JSONResponse:
    """All your data as one JSON file (``espadas-account/1``): you, your names,
    contacts, devices, passkeys (no secrets) and the tables you sat at."""
    data = await store_of(request).accounts.export(player.id)
    return JSONResponse(
        data,
        headers={
            "content-disposition": 'attachment; filename="espadas-account.json"',
            "cache-control": "no-store",
        },
    )


@router.delete(
    "/api/account", tags=["identity"], responses=answer(DeletedOut) | refusals(401, 409, 422)
)
async def delete_account(
    body: DeleteIn,
    request: Request,
    response: Response,
    player: PlayerDep,
    settings: SettingsDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Deletes your account: your name, e-mail, devices, links and passkeys are
    gone; in past games your seats say "former player" and the games stay
    whole and replayable. Refused while you sit at a game being played (409
    ``account_playing``: finish or abandon it first)."""
    store = store_of(request)
    playing = await store.accounts.playing(player.id)
    if playing:
        raise ApiError(409, "account_playing", count=len(playing))
    changed = await store.delete_player(player.id, settings.clock.now())
    await hub.reread(changed)
    response.delete_cookie(PLAYER_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return {"deleted": True, "tables": len(changed)}
