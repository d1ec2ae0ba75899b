"""The live WebSocket of each table: a new view after every event, and actions
sent on the same socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from espadas.engine import EspadasError
from espadas.server.dependencies import player_for_cookie
from espadas.server.errors import ApiError, refusal
from espadas.server.guard import TokenBucket, same_origin
from espadas.server.hub import Hub
from espadas.server.identity import PLAYER_COOKIE
from espadas.server.language import request_lang
from espadas.server.models import ActionIn
from espadas.server.settings import Settings
from espadas.server.table_api import act_command
from espadas.tables.ids import TABLE_ID_MAX

router = APIRouter()

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
    """
    app = websocket.app
    hub: Hub = app.state.hub
    settings: Settings = app.state.settings
    headers = {k.lower(): v for k, v in websocket.headers.items()}
    if not same_origin(headers) or len(table_id) > TABLE_ID_MAX:
        await websocket.close(code=1008)
        return
    cookie = websocket.cookies.get(PLAYER_COOKIE)
    player = await player_for_cookie(app.state, cookie)
    try:
        await hub.table(table_id)
    except KeyError:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    # the page passes its chosen language (?lang=en); else the browser's
    lang = request_lang(websocket.query_params.get("lang") or headers.get("accept-language"))
    bucket: TokenBucket = app.state.bucket
    seated = None if player is None else player.id
    flag = hub.subscribe(table_id, seated)
    sending = asyncio.Lock()
    sent = 0
    closed = False

    async def send(text: str) -> None:
        async with sending:
            await websocket.send_text(text)

    async def act(message: dict[str, Any]) -> dict[str, Any]:
        if player is None:
            return refusal(ApiError(401, "no_session"), lang)
        if not bucket.take(str(cookie)[:600]):
            return refusal(ApiError(429, "too_many"), lang)
        try:
            body = ActionIn.model_validate(message.get("action"))
        except ValidationError as err:
            detail = "; ".join(str(p.get("msg", "")) for p in err.errors()[:3])
            return refusal(ApiError(422, "bad_request", detail=detail[:300]), lang)
        try:
            table, _events = await hub.command(table_id, act_command(player, body, settings))
        except (EspadasError, ApiError) as err:
            return refusal(err, lang)
        return {"type": "done", "version": table.version}

    async def receive() -> None:
        nonlocal sent, closed
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text) if len(text) <= MAX_MESSAGE else None
                except ValueError:
                    message = None
                if not isinstance(message, dict):
                    answer = refusal(ApiError(400, "bad_request", detail="JSON object"), lang)
                    await send(json.dumps(answer))
                elif message.get("type") == "sync":
                    sent = 0
                    flag.set()
                elif message.get("type") == "act":
                    answer = await act(message)
                    ref = message.get("id")
                    answer["id"] = (
                        ref if isinstance(ref, int | str) and len(str(ref)) <= 40 else None
                    )
                    await send(json.dumps(answer))
        except Exception:  # the client went away (or sent what is not text)
            pass
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
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.unsubscribe(table_id, flag, seated)
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
