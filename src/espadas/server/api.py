"""The JSON API (documented by OpenAPI at ``/openapi.json``, readable at ``/docs``)
and the live WebSocket of each table.

Every answer about a table is a *view*: the seat's own view for the person
seated there, the public view for everyone else. A refused request answers
4xx with ``{"error": CODE, "message": TEXT}``, the text in the language of the
request's ``Accept-Language`` (Spanish by default), and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
)

from espadas.engine import PRESETS, EspadasError, InvalidRules, ParseError, RuleError, Rules
from espadas.i18n import translate
from espadas.server.guard import TokenBucket, same_origin
from espadas.server.hub import Command, Hub
from espadas.server.identity import (
    COOKIE_AGE,
    CSRF_COOKIE,
    PLAYER_COOKIE,
    Identity,
)
from espadas.server.language import request_lang
from espadas.server.settings import Settings
from espadas.store.store import Player, Store, new_token
from espadas.tables.commitment import verify_record
from espadas.tables.replay import replay_steps
from espadas.tables.table import BadCommand, Table, TableError
from espadas.tables.view import options_of, sheet, table_view

router = APIRouter()

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
TableId = Annotated[
    str, StringConstraints(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]
OptionValue = StrictBool | StrictInt | Annotated[StrictStr, StringConstraints(max_length=20)] | None


class ApiError(Exception):
    """A refusal outside the rules (no session, unknown table): ``code`` is a
    catalog key ``api.CODE``."""

    def __init__(self, status: int, code: str, **params: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


class SessionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class TableIn(BaseModel):
    """A new table: preset, target, renege mode and other options (RULES.md)."""

    model_config = ConfigDict(extra="forbid")
    preset: Literal["estandar", "pagat", "cien", "sala"] = "estandar"
    target: StrictInt | None = Field(None, ge=1, le=100_000)
    renege: Literal["allowed", "prevented"] | None = None
    options: dict[Annotated[str, StringConstraints(max_length=30)], OptionValue] = Field(
        default_factory=dict, max_length=20
    )


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(ge=0, le=5)


class RobotsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: Annotated[str, StringConstraints(max_length=40)]
    seats: list[Annotated[int, Field(ge=0, le=5)]] | None = Field(None, max_length=6)


class ActionIn(BaseModel):
    """An action of the seated person: ``look``, ``bid`` (value: 0-13, "nil",
    "blind_nil"), ``play`` (value: a card such as "QH"), ``accuse`` (value: a
    seat), ``next_hand``, ``confirm_end``, ``abandon`` or ``claim``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["look", "bid", "play", "accuse", "next_hand", "confirm_end", "abandon", "claim"]
    value: StrictInt | Annotated[StrictStr, StringConstraints(max_length=12)] | None = None


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: StrictInt | None = Field(None, ge=1, le=3)


class ResumeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, StringConstraints(max_length=100)]


# -- dependencies --------------------------------------------------------------
async def hub_of(request: Request) -> Hub:
    """(async: FastAPI runs a plain function dependency in a worker thread.)"""
    hub: Hub = request.app.state.hub
    return hub


async def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def player_or_none(request: Request) -> Player | None:
    identity: Identity = request.app.state.identity
    player_id = identity.read(request.cookies.get(PLAYER_COOKIE))
    if player_id is None:
        return None
    store: Store = request.app.state.store
    return await store.player(player_id)


async def player_required(
    player: Annotated[Player | None, Depends(player_or_none)],
) -> Player:
    if player is None:
        raise ApiError(401, "no_session")
    return player


HubDep = Annotated[Hub, Depends(hub_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
PlayerDep = Annotated[Player, Depends(player_required)]
MaybePlayerDep = Annotated[Player | None, Depends(player_or_none)]


def _base(request: Request, settings: Settings) -> str:
    return (settings.public_url or str(request.base_url)).rstrip("/")


async def _table(hub: Hub, table_id: str) -> Table:
    from espadas.store.store import UnknownTable

    try:
        return await hub.table(table_id)
    except UnknownTable:
        raise ApiError(404, "not_found") from None


def _view(table: Table, player: Player | None, settings: Settings) -> dict[str, Any]:
    return table_view(table, None if player is None else player.id, turn_limit=settings.turn_limit)


def _view_response(hub: Hub, table: Table, player: Player | None) -> Response:
    """The view as a JSON response, its public part shared with everyone's."""
    text = hub.view_text(table, None if player is None else player.id)
    return Response(text, media_type="application/json")


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


# -- identity ---------------------------------------------------------------------
@router.post("/api/session", tags=["identity"])
async def create_session(
    body: SessionIn,
    request: Request,
    response: Response,
    player: MaybePlayerDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """Chooses a display name. A new visitor gets a signed cookie (no password);
    a known one is renamed. Answers the CSRF token to send as ``X-CSRF-Token``."""
    store: Store = request.app.state.store
    if player is None:
        player = await store.create_player(body.name, settings.clock.now())
    else:
        await store.rename_player(player.id, body.name)
        player = Player(player.id, body.name)
    csrf = _set_session(response, request.app.state.identity, player, request.url.scheme == "https")
    return {"name": player.name, "csrf": csrf}


@router.get("/api/session", tags=["identity"])
async def read_session(request: Request, player: MaybePlayerDep) -> dict[str, Any]:
    """Who you are (``name`` is null before you choose one), and the CSRF token
    of this browser."""
    if player is None:
        return {"name": None, "csrf": None}
    return {"name": player.name, "csrf": request.cookies.get(CSRF_COOKIE)}


@router.post("/api/resume-link", tags=["identity"])
async def create_resume_link(
    request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """A private link that continues as you on another device. Keep it secret."""
    store: Store = request.app.state.store
    token = await store.resume_link(player.id, settings.clock.now())
    return {"url": f"{_base(request, settings)}/resume/{token}", "token": token}


async def _resume(request: Request, token: str, response: Response) -> Player:
    store: Store = request.app.state.store
    player = await store.player_for_link(token[:100])
    if player is None:
        raise ApiError(404, "bad_link")
    _set_session(response, request.app.state.identity, player, request.url.scheme == "https")
    return player


@router.post("/api/resume", tags=["identity"])
async def resume(body: ResumeIn, request: Request, response: Response) -> dict[str, Any]:
    """Signs this device in with a resume link's token."""
    player = await _resume(request, body.token, response)
    return {"name": player.name}


@router.get("/resume/{token}", tags=["identity"], response_class=RedirectResponse)
async def resume_page(token: str, request: Request) -> Response:
    """Opening a resume link signs the device in and goes to the start page."""
    response = RedirectResponse("/", status_code=303)
    await _resume(request, token, response)
    return response


# -- tables ----------------------------------------------------------------------
TARGETS = {"estandar": (500, 250), "sala": (500, 1000, 1500, 2000)}
"""The targets a table's creator may choose (RULES.md section 8); other presets
play to their own."""


def _rules(body: TableIn) -> Rules:
    options: dict[str, Any] = dict(body.options)
    if "preset" in options:
        raise BadCommand("bad_action", "the preset is its own field")
    if body.target is not None:
        options["target"] = body.target
    if body.renege is not None:
        options["renege"] = body.renege
    target = options.get("target")
    allowed = TARGETS.get(body.preset) or (Rules.from_preset(body.preset).target,)
    if target is not None and target not in allowed:
        shown = " / ".join(str(t) for t in allowed)
        raise BadCommand("bad_target", f"the target is one of {shown}", allowed=shown)
    return Rules.from_preset(body.preset, **options)


@router.get("/api/presets", tags=["tables"])
async def presets(settings: SettingsDep) -> dict[str, Any]:
    """Every preset with the value of each option, and the robot levels offered."""
    return {
        "presets": {name: options_of(Rules.from_preset(name)) for name in PRESETS},
        "targets": {
            name: list(TARGETS.get(name) or (Rules.from_preset(name).target,)) for name in PRESETS
        },
        "robots": list(settings.robot_levels()),
    }


@router.post("/api/tables", status_code=201, tags=["tables"])
async def create_table(
    body: TableIn, request: Request, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> dict[str, Any]:
    """Opens a table; you sit at seat 0. Share ``invite`` (the table's link):
    the first people to open it sit down, later visitors watch."""
    rules = _rules(body)
    table, events = Table.create(new_token(), rules, player.id, player.name, settings.clock.now())
    await hub.create(table, events)
    return {
        "id": table.id,
        "invite": f"{_base(request, settings)}/mesa/{table.id}",
        "view": _view(table, player, settings),
    }


@router.get("/api/tables", tags=["tables"])
async def my_tables(request: Request, player: PlayerDep) -> dict[str, Any]:
    """The tables you opened or sat at, newest first."""
    store: Store = request.app.state.store
    return {"tables": await store.tables_of(player.id)}


@router.get("/api/tables/{table_id}", tags=["tables"])
async def read_table(table_id: TableId, player: MaybePlayerDep, hub: HubDep) -> Response:
    """The table as you may see it (``version`` grows with every event)."""
    table = await _table(hub, table_id)
    if player is not None and table.seat_of(player.id) is not None:
        hub.saw(player.id, table_id, table.version)
    return _view_response(hub, table, player)


async def _run(
    hub: Hub,
    table_id: str,
    player: Player,
    command: Any,
) -> Response:
    # an unknown table raises UnknownTable here, which the app answers with 404
    table, _events = await hub.command(table_id, command)
    return _view_response(hub, table, player)


@router.post("/api/tables/{table_id}/join", tags=["tables"])
async def join_table(
    table_id: TableId, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """Opening the invitation: a free seat before the game starts, else you watch
    (``you`` is your seat, or ``null``)."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.join(player.id, player.name, now))


@router.post("/api/tables/{table_id}/partner", tags=["tables"])
async def choose_partner(
    table_id: TableId, body: SeatIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator chooses the seat of their partner (who moves opposite them)."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.choose_partner(player.id, body.seat, now))


@router.post("/api/tables/{table_id}/robots", tags=["tables"])
async def add_robots(
    table_id: TableId, body: RobotsIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator fills empty seats (all, or ``seats``) with robots of ``level``."""
    now = settings.clock.now()
    levels = settings.robot_levels()
    return await _run(
        hub,
        table_id,
        player,
        lambda t: t.add_robots(player.id, body.level, now, body.seats, levels),
    )


@router.post("/api/tables/{table_id}/free", tags=["tables"])
async def free_seat(
    table_id: TableId, body: SeatIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator takes a robot out of a seat before the start."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.free_seat(player.id, body.seat, now))


@router.post("/api/tables/{table_id}/start", tags=["tables"])
async def start_game(
    table_id: TableId, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator starts the game once every seat is taken; the first hand is dealt."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.start(player.id, now))


@router.post("/api/tables/{table_id}/actions", tags=["play"])
async def act(
    table_id: TableId, body: ActionIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """An action of yours at the table (see the ``legal`` list of your view)."""
    return await _run(hub, table_id, player, _act_command(player, body, settings))


@router.post("/api/tables/{table_id}/rematch", status_code=201, tags=["tables"])
async def rematch(
    table_id: TableId,
    body: RematchIn,
    request: Request,
    player: PlayerDep,
    hub: HubDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """The creator opens a rematch once the game is over: same rules, same people
    and robots, the partners kept or (``partner``) chosen anew."""
    old = await _table(hub, table_id)
    now = settings.clock.now()
    if player.id == old.creator and old.status == "finished" and old.rematch is None:
        new, events = Table.rematch_from(old, new_token(), now, body.partner)
        await hub.create(new, events)
        new_id = new.id
    else:
        new_id = "-"
    await hub.command(table_id, lambda t: t.mark_rematch(player.id, new_id, now))
    table = await _table(hub, new_id)
    return {
        "id": table.id,
        "invite": f"{_base(request, settings)}/mesa/{table.id}",
        "view": _view(table, player, settings),
    }


@router.get("/api/tables/{table_id}/record", tags=["tables"])
async def download_record(table_id: TableId, hub: HubDep) -> Response:
    """The table's ``espadas-record/1``: the finished hands while it is played,
    all of it once the game is over (each hand with its commitment and salt)."""
    table = await _table(hub, table_id)
    return JSONResponse(
        table.record(),
        headers={"content-disposition": f'attachment; filename="espadas-{table_id[:12]}.json"'},
    )


@router.get("/api/tables/{table_id}/replay", tags=["tables"])
async def replay_game(table_id: TableId, hub: HubDep) -> dict[str, Any]:
    """A finished game trick by trick, every hand visible, with each deal's
    commitment checked. Refused (409) while the game is being played."""
    table = await _table(hub, table_id)
    if table.status != "finished":
        raise TableError("not_finished", "the replay opens when the game is over")
    record = table.record()
    return {
        "id": table.id,
        "players": table.players(),
        "rules": table.rules.to_dict(),
        "steps": replay_steps(record),
        "checks": [c._asdict() for c in verify_record(record)],
        "sheet": sheet(table),
        "result": table_view(table, None)["game"]["result"],
    }


# -- live updates -----------------------------------------------------------------
VIEW_FRAME = '{"type":"view","version":%d,"view":%s}'


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
    if not same_origin(headers) or len(table_id) > 64:
        await websocket.close(code=1008)
        return
    identity: Identity = app.state.identity
    cookie = websocket.cookies.get(PLAYER_COOKIE)
    player_id = identity.read(cookie)
    store: Store = app.state.store
    player = None if player_id is None else await store.player(player_id)
    try:
        await hub.table(table_id)
    except KeyError:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    lang = request_lang(headers.get("accept-language"))
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
            return _refusal(ApiError(401, "no_session"), lang)
        if not bucket.take(str(cookie)[:600]):
            return _refusal(ApiError(429, "too_many"), lang)
        try:
            body = ActionIn.model_validate(message.get("action"))
        except ValidationError as err:
            detail = "; ".join(str(p.get("msg", "")) for p in err.errors()[:3])
            return _refusal(ApiError(422, "bad_request", detail=detail[:300]), lang)
        try:
            table, _events = await hub.command(table_id, _act_command(player, body, settings))
        except (EspadasError, ApiError) as err:
            return _refusal(err, lang)
        return {"type": "done", "version": table.version}

    async def receive() -> None:
        nonlocal sent, closed
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text) if len(text) <= 1000 else None
                except ValueError:
                    message = None
                if not isinstance(message, dict):
                    answer = _refusal(ApiError(400, "bad_request", detail="JSON object"), lang)
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


def _act_command(player: Player, body: ActionIn, settings: Settings) -> Command:
    now = settings.clock.now()
    return lambda t: t.act(
        player.id, body.type, now, value=body.value, turn_limit=settings.turn_limit
    )


def status_of(err: EspadasError) -> int:
    """The HTTP status that refuses ``err``."""
    if isinstance(err, TableError):
        return err.status
    if isinstance(err, ParseError | InvalidRules):
        return 422
    if isinstance(err, RuleError):
        return 409
    return 400


def _refusal(err: EspadasError | ApiError, lang: str) -> dict[str, Any]:
    if isinstance(err, ApiError):
        text = translate("api." + err.code, lang, **err.params)
        return {"type": "refused", "status": err.status, "error": err.code, "message": text}
    return {"type": "refused", "status": status_of(err), **error_body(err, lang)}


def error_body(err: EspadasError, lang: str, players: int = 4) -> dict[str, Any]:
    from espadas.i18n import error_text

    return {"error": err.code, "message": error_text(err, lang, players=players)}
