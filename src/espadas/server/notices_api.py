"""API of turn notices: your e-mail (confirmed by a link), the notice mode of
each table (on, off, daily digest) and Web Push subscriptions."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, StringConstraints

from espadas.i18n import translate
from espadas.server.dependencies import (
    HubDep,
    PlayerDep,
    SettingsDep,
    public_base,
    store_of,
    table_of,
)
from espadas.server.errors import ApiError
from espadas.server.mail import compose, send, valid_email
from espadas.server.models import SUBSCRIPTION_BODY, ContactOut, ModeOut, OkOut, PushKeyOut, TableId
from espadas.server.openapi import answer, refusals
from espadas.tables.errors import NotAllowed

router = APIRouter()

RESOLVE_S = 5.0
"""How long resolving a push endpoint's host may take at subscription time."""


class ContactIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: Annotated[str, StringConstraints(strip_whitespace=True, max_length=254)] | None
    lang: Literal["es", "en"] = "es"
    purpose: Literal["notices", "signin"] = "notices"
    """What the confirmation mail speaks of: turn notices (the start page's form)
    or signing in with the address (the account page's)."""


class ModeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["on", "off", "digest"]


class EndpointIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: Annotated[str, StringConstraints(max_length=1000)]


@router.get("/api/contact", tags=["notices"], responses=answer(ContactOut) | refusals(401))
async def read_contact(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Your e-mail for notices, whether it is confirmed, and whether this server
    sends e-mail at all."""
    contact = await store_of(request).outbox.contact(player.id)
    return {
        "email": None if contact is None else contact.email,
        "confirmed": contact is not None and contact.confirmed,
        "lang": "es" if contact is None else contact.lang,
        "mail": settings.smtp_host is not None,
    }


@router.put("/api/contact", tags=["notices"], responses=answer(ContactOut) | refusals(401, 422))
async def set_contact(
    body: ContactIn, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Sets (or, with ``null``, removes) your e-mail and your language for notices.
    A new address gets a confirmation link; nothing is sent to it before."""
    store = store_of(request)
    now = settings.clock.now()
    email = body.email or None
    if email is not None and not valid_email(email):
        raise ApiError(422, "bad_email")
    token = await store.outbox.set_email(player.id, email, body.lang, now)
    if email is not None and settings.smtp_host:
        signin = body.purpose == "signin"
        url = f"{public_base(request, settings)}/avisos/confirmar/{token}"
        url += "?para=entrar" if signin else ""
        message = compose(
            settings.mail_from,
            email,
            translate("mail.confirm.subject", body.lang),
            [translate("mail.confirm.body_signin" if signin else "mail.confirm.body", body.lang,
                       url=url)],
        )  # fmt: skip
        await send(settings, message)
    return await read_contact(request, player, settings)


@router.get(
    "/api/tables/{table_id}/notices",
    tags=["notices"],
    responses=answer(ModeOut) | refusals(401, 404, 422),
)
async def read_mode(
    table_id: TableId, request: Request, player: PlayerDep, hub: HubDep
) -> dict[str, Any]:
    """Your notice mode at this table: ``on`` (default), ``off`` or ``digest``."""
    await table_of(hub, table_id)
    return {"mode": await store_of(request).outbox.mode(player.id, table_id)}


@router.put(
    "/api/tables/{table_id}/notices",
    tags=["notices"],
    responses=answer(ModeOut) | refusals(401, 403, 404, 422),
)
async def set_mode(
    table_id: TableId, body: ModeIn, request: Request, player: PlayerDep, hub: HubDep
) -> dict[str, Any]:
    """Chooses your notices at this table (seated people only)."""
    table = await table_of(hub, table_id)
    if table.seat_of(player.id) is None:
        raise NotAllowed("not_seated", "only the players seated at this table may do that")
    await store_of(request).outbox.set_mode(player.id, table_id, body.mode)
    return {"mode": body.mode}


@router.get("/api/push/key", tags=["notices"], responses=answer(PushKeyOut) | refusals(404))
async def push_key(request: Request) -> dict[str, Any]:
    """The server's Web Push key (``applicationServerKey``)."""
    push = request.app.state.push
    if push is None:
        raise ApiError(404, "no_push")
    return {"key": push.public_key()}


@router.post(
    "/api/push/subscriptions",
    status_code=201,
    tags=["notices"],
    responses=answer(OkOut, 201) | refusals(401, 404, 422),
    openapi_extra={"requestBody": SUBSCRIPTION_BODY},
)
async def add_subscription(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Stores this browser's push subscription (``PushSubscription.toJSON()``).
    Only an ``https`` endpoint whose host has public addresses only is taken
    (422 ``push_https``, ``push_private``, ``push_unresolved``): the server
    sends pushes there."""
    from espadas.server.push import EndpointRefused, check_subscription, endpoint_address

    if request.app.state.push is None:
        raise ApiError(404, "no_push")
    allow = settings.push_allow_private
    try:
        subscription = check_subscription(await request.json(), allow)
        await asyncio.wait_for(
            asyncio.to_thread(endpoint_address, subscription["endpoint"], allow), RESOLVE_S
        )
    except EndpointRefused as exc:
        raise ApiError(422, exc.code, host=exc.host) from None
    except TimeoutError:
        raise ApiError(
            422, "push_unresolved", host=urlsplit(subscription["endpoint"]).hostname or ""
        ) from None
    except ValueError as exc:
        raise ApiError(422, "bad_subscription", detail=str(exc)[:200]) from None
    await store_of(request).outbox.add_subscription(player.id, subscription, settings.clock.now())
    return {"ok": True}


@router.delete(
    "/api/push/subscriptions", tags=["notices"], responses=answer(OkOut) | refusals(401, 422)
)
async def remove_subscription(
    body: EndpointIn, request: Request, player: PlayerDep
) -> dict[str, Any]:
    """Forgets this browser's push subscription."""
    await store_of(request).outbox.remove_subscription(body.endpoint, player.id)
    return {"ok": True}
