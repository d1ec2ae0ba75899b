"""Routes of passkeys (WebAuthn, through the ``webauthn`` library): register one
for the person signed in, sign in with one on any device, list and remove them.

Each ceremony is two requests: ``.../options`` answers the options for
``navigator.credentials`` and keeps a challenge, the next request answers it.
A registration's challenge is bound to the session asking; a sign-in's (before
anyone is signed in) to a cookie of its own, ``espadas_challenge``. Either is
taken once and lives five minutes. The relying party is the server's host name
(``rp_id``, else the host of ``public_url`` or of the request) and the origin
the one the guard accepts.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
)

from espadas.server.account_models import SignedInOut
from espadas.server.dependencies import (
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    session_hash,
    store_of,
)
from espadas.server.device import describe
from espadas.server.errors import ApiError
from espadas.server.openapi import answer, refusals
from espadas.server.session_api import start_session
from espadas.server.settings import Settings
from espadas.store.resume_links import token_hash
from espadas.store.store import new_token

router = APIRouter()

CHALLENGE_COOKIE = "espadas_challenge"


class CredentialIn(BaseModel):
    """What ``navigator.credentials`` answered, as JSON (``PublicKeyCredential``
    with its buffers in base64url)."""

    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any] = Field(max_length=10)


class PasskeyOut(BaseModel):
    id: str
    label: str
    created_at: str
    used_at: str | None


class PasskeysOut(BaseModel):
    passkeys: list[PasskeyOut]


class OptionsOut(BaseModel):
    """``PublicKeyCredentialCreationOptions`` or ``...RequestOptions`` as JSON."""

    challenge: str
    rpId: str | None = None


def relying_party(request: Request, settings: Settings) -> tuple[str, str]:
    """``(rp_id, origin)`` of this server."""
    base = settings.public_url or str(request.base_url)
    parts = urlsplit(base)
    origin = f"{parts.scheme}://{parts.netloc}"
    return settings.rp_id or (parts.hostname or "localhost"), origin


def _options(options: Any) -> Response:
    return Response(options_to_json(options), media_type="application/json")


@router.get("/api/passkeys", tags=["identity"], responses=answer(PasskeysOut) | refusals(401))
async def list_passkeys(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Your passkeys: their id, the device they were made on, when made and last used."""
    keys = await store_of(request).passkeys.of(player.id)
    return {
        "passkeys": [
            {"id": k.id, "label": k.label, "created_at": k.created_at, "used_at": k.used_at}
            for k in keys
        ]
    }


@router.post(
    "/api/passkeys/register/options",
    tags=["identity"],
    responses=answer(OptionsOut) | refusals(401),
)
async def register_options(request: Request, player: PlayerDep, settings: SettingsDep) -> Response:
    """Options to make a passkey for you (``navigator.credentials.create``); the
    challenge is bound to this session."""
    here = session_hash(request)
    if here is None:
        raise ApiError(401, "no_session")
    rp_id, _ = relying_party(request, settings)
    store = store_of(request)
    existing = await store.passkeys.of(player.id)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name="Espadas",
        user_name=player.name,
        user_id=player.id.encode(),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.id)) for k in existing
        ],
    )
    challenge = bytes_to_base64url(options.challenge)
    await store.passkeys.challenge(here, "register", challenge, player.id, settings.clock.now())
    return _options(options)


@router.post(
    "/api/passkeys",
    status_code=201,
    tags=["identity"],
    responses=answer(PasskeyOut, 201) | refusals(401, 409, 422),
)
async def register(
    body: CredentialIn, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Keeps the passkey ``navigator.credentials.create`` made: its id, public
    key and sign count. 409 ``no_challenge``: no options asked for by this
    session (or used, or expired); 422 ``passkey_refused``: it does not check."""
    here = session_hash(request)
    store = store_of(request)
    now = settings.clock.now()
    waiting = None if here is None else await store.passkeys.take(here, "register", now)
    if waiting is None or waiting.player_id != player.id:
        raise ApiError(409, "no_challenge")
    rp_id, origin = relying_party(request, settings)
    try:
        verified = verify_registration_response(
            credential=body.credential,
            expected_challenge=base64url_to_bytes(waiting.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise ApiError(422, "passkey_refused", detail=str(exc)[:200]) from None
    credential_id = bytes_to_base64url(verified.credential_id)
    if await store.passkeys.find(credential_id) is not None:
        raise ApiError(409, "passkey_exists")
    browser, system = describe(request.headers.get("user-agent"))
    label = " · ".join(part for part in (browser, system) if part)
    await store.passkeys.add(
        player.id,
        credential_id,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
        label,
        now,
    )
    return {"id": credential_id, "label": label, "created_at": now.isoformat(), "used_at": None}


@router.delete(
    "/api/passkeys/{passkey_id}",
    tags=["identity"],
    responses=answer(PasskeysOut) | refusals(401, 404, 422),
)
async def remove(
    passkey_id: Annotated[str, Field(max_length=700)], request: Request, player: PlayerDep
) -> dict[str, Any]:
    """Forgets one of your passkeys (404 ``no_passkey``); answers those left."""
    if not await store_of(request).passkeys.remove(player.id, passkey_id):
        raise ApiError(404, "no_passkey")
    return await list_passkeys(request, player)


@router.post("/api/passkeys/signin/options", tags=["identity"], responses=answer(OptionsOut))
async def signin_options(request: Request, response: Response, settings: SettingsDep) -> Response:
    """Options to sign in with a passkey (``navigator.credentials.get``); the
    challenge is bound to a cookie of its own, ``espadas_challenge``."""
    rp_id, _ = relying_party(request, settings)
    options = generate_authentication_options(rp_id=rp_id)
    key = new_token()
    await store_of(request).passkeys.challenge(
        token_hash(key), "signin", bytes_to_base64url(options.challenge), None, settings.clock.now()
    )
    answered = _options(options)
    answered.set_cookie(
        CHALLENGE_COOKIE,
        key,
        max_age=300,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/api/passkeys",
    )
    return answered


@router.post(
    "/api/passkeys/signin",
    tags=["identity"],
    responses=answer(SignedInOut) | refusals(404, 409, 422),
)
async def signin(
    body: CredentialIn,
    request: Request,
    response: Response,
    current: MaybePlayerDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Signs this device in with a passkey (``navigator.credentials.get``'s
    answer): the device gets a session of the passkey's person. 409
    ``no_challenge``: no options asked for by this browser (or used, or
    expired); 404 ``unknown_passkey``; 422 ``passkey_refused``."""
    store = store_of(request)
    now = settings.clock.now()
    key = request.cookies.get(CHALLENGE_COOKIE, "")
    waiting = await store.passkeys.take(token_hash(key), "signin", now) if key else None
    response.delete_cookie(CHALLENGE_COOKIE, path="/api/passkeys")
    if waiting is None:
        raise ApiError(409, "no_challenge")
    raw_id = body.credential.get("id")
    passkey = await store.passkeys.find(raw_id) if isinstance(raw_id, str) else None
    owner = None if passkey is None else await store.player(passkey.player_id)
    if passkey is None or owner is None:
        raise ApiError(404, "unknown_passkey")
    rp_id, origin = relying_party(request, settings)
    try:
        verified = verify_authentication_response(
            credential=json.dumps(body.credential),
            expected_challenge=base64url_to_bytes(waiting.challenge),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise ApiError(422, "passkey_refused", detail=str(exc)[:200]) from None
    await store.passkeys.used(passkey.id, verified.new_sign_count, now)
    switched = current is not None and current.id != owner.id
    if current is None or switched:
        await start_session(request, response, owner, "passkey")
    return {"name": owner.name, "switched": switched}
