"""The live WebSocket of each table: a new view after every event, and actions
sent on the same socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from espadas.engine import EspadasError
from espadas.server.dependencies import player_for_cookie
from espadas.server.errors import ApiError, refusal
from espadas.server.hub import Hub
from espadas.server.identity import PLAYER_COOKIE
from espadas.server.language import request_lang
from espadas.server.limiter import RateLimit
from espadas.server.models import ActionIn
from espadas.server.presence import Presence
from espadas.server.settings import Settings
from espadas.server.table_api import act_command
from espadas.tables.ids import TABLE_ID_MAX

router = APIRouter()
log = logging.getLogger("espadas.server")

VIEW_FRAME = '{"type":"view","version":%d,"view":%s}'
MAX_MESSAGE = 1000
"""The longest message (in characters) a client may send."""


@router.websocket("/api/tables/{table_id}/live")
async def live(websocket: WebSocket, table_id: str) -> None:
    """Pushes ``{"type": "view", "version": N, "view": {...}}`` after every event.

    The client may send (JSON text, at most 1000 characters):

    - ``{"type": "sync"}``: the current view again, after missed frames;
    - ``{"type": "act", "id": ID, "action": {"type": "bid", "value": 3}}``: the
      same action as ``POST /api/tables/ID/actions``, answered with
      ``{"type": "done", "id": ID, "version": N}`` once it is committed, or
      ``{"type": "refused", "id": ID, "status": 409, "error": CODE, "message":
      TEXT}``. The new view comes as for everyone else. ``ID`` is the client's
      own (a number or a short string), returned as it came.

    Anything else (a binary frame, text that is not a JSON object, a message too
    long or of an unknown ``type``) is answered with a refusal (status 400), and
    the socket stays open. The :class:`~espadas.server.guard.Guard` has checked
    the handshake's ``Origin``, its rate and the number of sockets open.
    """
    app = websocket.app
    hub: Hub = app.state.hub
    settings: Settings = app.state.settings
    if len(table_id) > TABLE_ID_MAX:
        await websocket.close(code=1008)
        return
    player = await player_for_cookie(app.state, websocket.cookies.get(PLAYER_COOKIE))
    try:
        await hub.table(table_id)
    except KeyError:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    # the page passes its chosen language (?lang=en); else the browser's
    lang = request_lang(
        websocket.query_params.get("lang") or websocket.headers.get("accept-language")
    )
    limit: RateLimit = app.state.limit
    seated = None if player is None else player.id
    flag = hub.subscribe(table_id, seated)
    presence: Presence = app.state.presence
    sending = asyncio.Lock()
    sent = 0
    closed = False
    gone = False
    """Whether the client closed the socket (else the server closes it)."""

    async def send(text: str) -> None:
        async with sending:
            await websocket.send_text(text)

    cookie = websocket.cookies.get(PLAYER_COOKIE)

    async def act(message: dict[str, Any]) -> dict[str, Any]:
        # a device signed out since the handshake acts no more (the check is cached)
        if player is None or await player_for_cookie(app.state, cookie) is None:
            return refusal(ApiError(401, "no_session"), lang)
        if not await limit.hit("player:" + player.id):
            return refusal(ApiError(429, "too_many"), lang)
        try:
            body = ActionIn.model_validate(message.get("action"))
        except ValidationError as err:
            detail = "; ".join(str(p.get("msg", "")) for p in err.errors()[:3])
            return refusal(ApiError(422, "bad_request", detail=detail[:300]), lang)
        try:
            dealing = websocket.app.state.dealing  # a challenge's or an event's boards
            await dealing.ready(table_id)
            command = act_command(player, body, settings, dealing.dealer_for)
            table, _events = await hub.command(table_id, command)
        except (EspadasError, ApiError) as err:
            return refusal(err, lang)
        return {"type": "done", "version": table.version}

    async def answer(message: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one message, or ``None`` when it is a view to come."""
        nonlocal sent
        kind = message.get("type")
        if kind == "sync":
            sent = 0
            flag.set()
            return None
        if kind == "act":
            return await act(message)
        return refusal(ApiError(400, "unknown_message"), lang)

    async def receive() -> None:
        nonlocal closed, gone
        try:
            while True:
                event = await websocket.receive()
                if event["type"] == "websocket.disconnect":
                    gone = True
                    break
                message = _message(event.get("text"))
                if isinstance(message, str):
                    reply: dict[str, Any] | None = refusal(ApiError(400, message), lang)
                    message = {}
                else:
                    reply = await answer(message)
                if reply is not None:
                    ref = message.get("id")
                    reply["id"] = (
                        ref if isinstance(ref, int | str) and len(str(ref)) <= 40 else None
                    )
                    await send(json.dumps(reply))
        except WebSocketDisconnect:
            gone = True
        except Exception:
            log.exception("live socket of table %s", table_id)
        finally:
            closed = True
            flag.set()

    reader = asyncio.create_task(receive())
    try:
        flag.set()
        while not hub.closing:
            await flag.wait()
            if closed:
                break
            flag.clear()
            table = await hub.table(table_id)
            if table.version > sent:
                view = hub.view_text(table, seated)
                await send(VIEW_FRAME % (table.version, view))
                sent = table.version
                if seated is not None and table.seat_of(seated) is not None:
                    hub.saw(seated, table_id, sent)
                presence.seen(table, seated)
    except (WebSocketDisconnect, RuntimeError):
        gone = True
    finally:
        hub.unsubscribe(table_id, flag, seated)
        presence.closed(table_id, seated)
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        if not gone:  # a close frame, not a dropped connection
            with contextlib.suppress(Exception):
                await websocket.close(code=1001 if hub.closing else 1011)


def _message(text: str | None) -> dict[str, Any] | str:
    """The JSON object in a text frame, or the code of its refusal.

    >>> _message('{"type": "sync"}'), _message(None), _message('{"type": "act"')
    ({'type': 'sync'}, 'not_text', 'bad_message')
    >>> _message("[1]"), _message(" " * 1001)
    ('bad_message', 'too_long')
    """
    if text is None:
        return "not_text"
    if len(text) > MAX_MESSAGE:
        return "too_long"
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return "bad_message"
    return message if isinstance(message, dict) else "bad_message"
