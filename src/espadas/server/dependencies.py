"""What the routes are given: the hub, the settings, the person asking (from their
signed cookie) and the table named in the path, as FastAPI dependencies and
helpers shared by every API module.

The dependencies are ``async``: FastAPI runs a plain function dependency in a
worker thread, a hop per request for nothing.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.datastructures import State

from espadas.server.errors import ApiError
from espadas.server.hub import Hub
from espadas.server.identity import PLAYER_COOKIE, Identity
from espadas.server.settings import Settings
from espadas.store.resume_links import token_hash
from espadas.store.store import Player, Store, UnknownTable
from espadas.tables.table import Table


async def hub_of(request: Request) -> Hub:
    """The application's hub (one writer per table)."""
    hub: Hub = request.app.state.hub
    return hub


async def settings_of(request: Request) -> Settings:
    """The application's settings."""
    settings: Settings = request.app.state.settings
    return settings


async def player_for_cookie(state: State, cookie: str | None) -> Player | None:
    """The person whose signed player cookie is ``cookie`` (``None``: no valid
    cookie, a session signed out, or a player the store does not know)."""
    identity: Identity = state.identity
    found = identity.read_session(cookie)
    if found is None:
        return None
    player_id, session_id = found
    store: Store = state.store
    if session_id is None:
        if not await store.sessions.old_cookie_valid(player_id):
            return None
    else:
        settings: Settings = state.settings
        if not await store.sessions.valid(player_id, session_id, settings.clock.now()):
            return None
    return await store.player(player_id)


def session_hash(request: Request) -> str | None:
    """The id hash of the session of this request's cookie (None: no session,
    or a cookie from before sessions)."""
    identity: Identity = request.app.state.identity
    found = identity.read_session(request.cookies.get(PLAYER_COOKIE))
    return None if found is None or found[1] is None else token_hash(found[1])


async def player_or_none(request: Request) -> Player | None:
    """The person asking, if they have chosen a name."""
    return await player_for_cookie(request.app.state, request.cookies.get(PLAYER_COOKIE))


async def player_required(
    player: Annotated[Player | None, Depends(player_or_none)],
) -> Player:
    """The person asking; without a session the request is refused (401)."""
    if player is None:
        raise ApiError(401, "no_session")
    return player


HubDep = Annotated[Hub, Depends(hub_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
PlayerDep = Annotated[Player, Depends(player_required)]
MaybePlayerDep = Annotated[Player | None, Depends(player_or_none)]


def store_of(request: Request) -> Store:
    """The application's store."""
    store: Store = request.app.state.store
    return store


async def table_of(hub: Hub, table_id: str) -> Table:
    """The table ``table_id``; an unknown one is refused (404)."""
    try:
        return await hub.table(table_id)
    except UnknownTable:
        raise ApiError(404, "not_found") from None


def public_base(request: Request, settings: Settings) -> str:
    """The address people use, for links: the configured one, or the request's."""
    return (settings.public_url or str(request.base_url)).rstrip("/")
