"""Routes of the lobby: quick play, open tables, games to watch, blocks, and the
lobby's live socket (:mod:`espadas.server.lobby` does the work)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from espadas.server.dependencies import (
    HubDep,
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    player_for_cookie,
    table_of,
)
from espadas.server.errors import ApiError
from espadas.server.identity import PLAYER_COOKIE
from espadas.server.limiter import RateLimit
from espadas.server.lobby import LobbyService
from espadas.server.openapi import refusals
from espadas.server.seeks import SeekService, SeekSpec
from espadas.server.table_api import _view_response
from espadas.store.lobby import Lobby
from espadas.store.tournaments import Tournaments
from espadas.tables.ids import TABLE_ID_MAX
from espadas.tables.quick import MINE, RULE_SETS

router = APIRouter()

LOBBY_RATE = 0.2
LOBBY_BURST = 6.0
"""Quick-play presses (and leaves) a person may make: 6 at once, then one every 5 s."""

PlayerId = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class QuickIn(BaseModel):
    """Quick play: the rule set (``estandar``, ``pagat``, ``cien``, ``sala``,
    ``sala-3``, ``sala-5``, ``sala-6`` or ``mine``), the wait before robots take
    the free seats (seconds, 1 to 300; by default the server's) and their level."""

    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, StringConstraints(max_length=40)] = "estandar"
    wait: float | None = Field(None, allow_inf_nan=False)
    robot: Annotated[str, StringConstraints(max_length=40)] | None = None
    min_completion: float = Field(0.0, allow_inf_nan=False)
    """Seat me only with people who finished at least this share (0 to 1) of
    their rated games (people with no rated game yet pass)."""


class SeekIn(BaseModel):
    """A seek: a quick-play rule set (as :class:`QuickIn`), ``live`` or ``days``,
    rated or not, and the ratings accepted (``null``: no bound; 0 to 4000, at
    least 50 apart)."""

    model_config = ConfigDict(extra="forbid")
    rules: Annotated[str, StringConstraints(max_length=40)] = "estandar"
    turns: Annotated[str, StringConstraints(max_length=8)] = "live"
    rated: bool = True
    min_rating: int | None = None
    max_rating: int | None = None


class OpenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: Annotated[str, StringConstraints(min_length=1, max_length=TABLE_ID_MAX)]


class BlockIn(BaseModel):
    """The person to block: by ``name`` (as the club shows it), or by ``player`` id."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)] | None = None
    player: PlayerId | None = None


def _service(request: Request) -> LobbyService:
    service: LobbyService = request.app.state.lobby
    return service


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.store.lobby
    return lobby


async def _limited(request: Request, player_id: str) -> None:
    limit: RateLimit = request.app.state.lobby_limit
    if not await limit.hit("lobby:" + player_id):
        raise ApiError(429, "lobby_too_fast")


@router.get("/api/lobby", tags=["lobby"])
async def lobby_state(request: Request, player: MaybePlayerDep) -> dict[str, Any]:
    """The rule sets of quick play, your place in its queue (``you``: ``null``, or
    your rule set, since when, your wait and, once seated, your ``table``), your
    ``seek`` (``null``, or its table and conditions; ``accepted`` once someone sat
    at it), how many wait for each rule set, the open tables, the ``seeks`` others
    may accept and the games to watch. The
    lobby's socket (``/api/lobby/live``) sends the same whenever it changes."""
    service = _service(request)
    you = seek = None
    if player is not None:
        entry = (await _lobby(request).entries([player.id])).get(player.id)
        you = None if entry is None else entry.public()
        mine = await service.store.seeks.of(player.id)
        seek = None if mine is None else mine.public()
    return {
        "rule_sets": [*RULE_SETS, MINE],
        "wait": service.settings.lobby_wait_s,
        "robots": list(service.levels()),
        "you": you,
        "seek": seek,
        **(await service.lists()),
    }


@router.post(
    "/api/lobby/quick", status_code=201, tags=["lobby"], responses=refusals(401, 409, 422, 429)
)
async def quick_play(body: QuickIn, request: Request, player: PlayerDep) -> dict[str, Any]:
    """Quick play: you wait for a table of that rule set (once: pressing again, or
    for another rule set, moves you). People are seated together as soon as a
    table can be formed, nearest ratings first; after your wait robots take the
    free seats and the game starts (rated only without robots). Keep the lobby's
    socket open: without one you leave the queue within seconds. Refused: an
    unknown rule set, wait or robot (422), a live game of yours in progress
    (409 ``lobby_playing``), too many presses (429 ``lobby_too_fast``)."""
    await _limited(request, player.id)
    service = _service(request)
    entry = await service.quick(player, body.rules, body.wait, body.robot, body.min_completion)
    return {"you": entry.public()}


@router.delete("/api/lobby/quick", tags=["lobby"], responses=refusals(401, 429))
async def leave_quick_play(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Leaves the queue (``left``: whether you were waiting)."""
    await _limited(request, player.id)
    return {"left": await _service(request).leave(player.id)}


@router.post("/api/lobby/open", tags=["lobby"], responses=refusals(401, 403, 404, 409, 422))
async def list_open(
    body: OpenIn, request: Request, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> dict[str, Any]:
    """Lists your table in the lobby, open to everyone ("abierta a todos") until
    its game starts; only its creator may, before the start."""
    table = await table_of(hub, body.table)
    if table.creator != player.id:
        raise ApiError(403, "lobby_not_creator")
    if table.status != "waiting":
        raise ApiError(409, "lobby_started")
    await _lobby(request).list_open(table.id, player.id, settings.clock.now())
    _service(request).wake.set()
    return {"open": True}


@router.delete("/api/lobby/open/{table_id}", tags=["lobby"], responses=refusals(401, 403, 404))
async def unlist_open(
    table_id: Annotated[str, StringConstraints(max_length=TABLE_ID_MAX)],
    request: Request,
    player: PlayerDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Takes your table out of the lobby."""
    table = await table_of(hub, table_id)
    if table.creator != player.id:
        raise ApiError(403, "lobby_not_creator")
    await _lobby(request).unlist(table.id)
    _service(request).wake.set()
    return {"open": False}


@router.post(
    "/api/lobby/open/{table_id}/join", tags=["lobby"], responses=refusals(401, 403, 404, 409)
)
async def join_open(
    table_id: Annotated[str, StringConstraints(max_length=TABLE_ID_MAX)],
    request: Request,
    player: PlayerDep,
    hub: HubDep,
    settings: SettingsDep,
) -> Response:
    """Sits at a table listed as open (your view of it). Refused: a table not
    listed (404), one whose creator or a seated person blocked you or whom you
    blocked (403 ``lobby_blocked``), one that has filled or started since
    (409 ``lobby_full``)."""
    lobby = _lobby(request)
    if not await lobby.is_open(table_id):
        raise ApiError(404, "lobby_not_open")
    table = await table_of(hub, table_id)
    if table.seat_of(player.id) is None:
        seated = [s.player for s in table.seats if s is not None and s.player is not None]
        if await lobby.any_block(player.id, seated):
            raise ApiError(403, "lobby_blocked")
        now = settings.clock.now()
        table, _ = await hub.command(table_id, lambda t: t.join(player.id, player.name, now))
        if table.seat_of(player.id) is None:
            raise ApiError(409, "lobby_full")
        _service(request).wake.set()
    return _view_response(hub, table, player)


@router.post(
    "/api/lobby/seeks", status_code=201, tags=["lobby"], responses=refusals(401, 409, 422, 429)
)
async def post_seek(body: SeekIn, request: Request, player: PlayerDep) -> dict[str, Any]:
    """Posts a seek: the server opens its table (you sit at it) and lists it in
    the lobby for others to accept. Until someone does, it lasts while your lobby
    socket is open. Leaves the quick-play queue. Refused: an unknown rule set or
    turns, an absurd range of ratings (422), a live game of yours in progress
    (409 ``lobby_playing``), a seek of yours still waiting (409
    ``lobby_seek_exists``), too many presses (429)."""
    await _limited(request, player.id)
    spec = SeekSpec(body.rules, body.turns, body.rated, body.min_rating, body.max_rating)
    seek = await SeekService(_service(request)).post(player, spec)
    _service(request).wake.set()
    return {"seek": seek.public()}


@router.delete("/api/lobby/seeks", tags=["lobby"], responses=refusals(401, 429))
async def withdraw_seek(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Withdraws your seek nobody accepted yet (``withdrawn``: whether there was one)."""
    await _limited(request, player.id)
    return {"withdrawn": await SeekService(_service(request)).withdraw(player.id)}


@router.post(
    "/api/lobby/seeks/{table_id}/accept",
    tags=["lobby"],
    responses=refusals(401, 403, 404, 409),
)
async def accept_seek(
    table_id: Annotated[str, StringConstraints(max_length=TABLE_ID_MAX)],
    request: Request,
    player: PlayerDep,
    hub: HubDep,
) -> Response:
    """Accepts a seek: you sit at its table (your view of it); the game starts when
    its last seat is taken. Refused: no such seek (404 ``lobby_no_seek``), your
    rating outside its range (403 ``lobby_out_of_range``), a block between you
    and someone seated (403 ``lobby_blocked``), a live game of yours in progress
    (409 ``lobby_playing``), a seek that filled meanwhile (409 ``lobby_full``)."""
    table = await SeekService(_service(request)).accept(player, table_id)
    return _view_response(hub, table, player)


@router.get("/api/lobby/watch", tags=["lobby"], responses=refusals(422))
async def watch_list(
    request: Request, rules: Annotated[str, StringConstraints(max_length=40)] | None = None
) -> dict[str, Any]:
    """Games in progress to watch, highest rated first (``rules``: only that rule set)."""
    if rules is not None and rules not in RULE_SETS:
        raise ApiError(422, "lobby_bad_rules", rules=", ".join(RULE_SETS))
    games = (await _service(request).lists())["watch"]
    return {"watch": [g for g in games if rules is None or g["rules"] == rules]}


@router.get("/api/blocks", tags=["lobby"], responses=refusals(401))
async def my_blocks(request: Request, player: PlayerDep) -> dict[str, Any]:
    """The people you blocked (``id`` and ``name``)."""
    store = request.app.state.store
    out = []
    for other in await _lobby(request).blocked_by(player.id):
        known = await store.player(other)
        out.append({"id": other, "name": known.name if known else None})
    return {"blocks": out}


@router.post("/api/blocks", tags=["lobby"], responses=refusals(401, 404, 422))
async def block(
    body: BlockIn, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Blocks a person ("bloquear"): quick play never seats you together, and they
    cannot join your open tables. Blocking again changes nothing."""
    store = request.app.state.store
    other = body.player
    if body.name is not None:
        found = await Tournaments(store.engine).player_named(body.name)
        other = None if found is None else found[0]
    if other is None or await store.player(other) is None:
        raise ApiError(404, "no_player")
    if other == player.id:
        raise ApiError(422, "lobby_block_self")
    await _lobby(request).block(player.id, other, settings.clock.now())
    return {"blocked": other}


@router.delete("/api/blocks/{other}", tags=["lobby"], responses=refusals(401))
async def unblock(other: PlayerId, request: Request, player: PlayerDep) -> dict[str, Any]:
    """Lifts a block (``unblocked``: whether there was one)."""
    return {"unblocked": await _lobby(request).unblock(player.id, other)}


@router.websocket("/api/lobby/live")
async def lobby_live(websocket: WebSocket) -> None:
    """Sends ``{"type": "lobby", "you": ..., "seek": ..., "counts": ..., "open":
    [...], "seeks": [...], "watch": [...]}`` (as ``GET /api/lobby``) whenever it
    changes; once ``you.table`` is set, quick play has seated you there. The client
    may send ``{"type": "sync"}`` for the state again. Closing the socket (closing
    the page, losing the connection) takes you out of the queue, and withdraws your
    seek nobody accepted, within seconds."""
    app = websocket.app
    service: LobbyService = app.state.lobby
    player = await player_for_cookie(app.state, websocket.cookies.get(PLAYER_COOKIE))
    await websocket.accept()
    socket = service.connect(None if player is None else player.id)

    async def receive() -> None:
        try:
            while True:
                event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    break
                with contextlib.suppress(ValueError, RecursionError, AttributeError):
                    message = json.loads(event.get("text") or "")
                    if isinstance(message, dict) and message.get("type") == "sync":
                        service.resend(socket)
        except WebSocketDisconnect:
            pass
        finally:
            socket.frames.put_nowait("")

    reader = asyncio.create_task(receive())
    try:
        while True:
            frame = await socket.frames.get()
            if not frame:
                break
            await websocket.send_text(frame)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        await service.disconnect(socket)
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)
