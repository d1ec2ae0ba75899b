"""Routes of tables: presets, opening a table, seats, partners and robots, the
start, the actions of play, rematches, the record and the replay.

Every answer about a table is a *view*: the seat's own view for the person
seated there, the public view for everyone else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from espadas.engine import PRESETS, Rules
from espadas.server.dependencies import (
    HubDep,
    MaybePlayerDep,
    PlayerDep,
    SettingsDep,
    public_base,
    store_of,
    table_of,
)
from espadas.server.errors import ApiError
from espadas.server.hub import Command, Hub
from espadas.server.models import (
    ActionIn,
    OpenedOut,
    PresetsOut,
    RematchIn,
    ReplayOut,
    RobotsIn,
    SeatIn,
    TableId,
    TableIn,
    TablesOut,
    ViewOut,
)
from espadas.server.openapi import answer, refusals
from espadas.server.settings import Settings
from espadas.store.store import Player, UnknownTable
from espadas.tables.absent import replace
from espadas.tables.challenge import PREFIX as CHALLENGE_PREFIX
from espadas.tables.chat import COMMANDS as CHAT_COMMANDS
from espadas.tables.chat import chat_command
from espadas.tables.clock import limit
from espadas.tables.commitment import fresh_deal, verify_record
from espadas.tables.errors import BadCommand, TableError
from espadas.tables.ids import new_table_id
from espadas.tables.listing import table_line
from espadas.tables.replay import replay_steps
from espadas.tables.table import Dealer, Table
from espadas.tables.view import options_of, sheet, table_view

router = APIRouter()

TARGETS = {"estandar": (500, 250), "sala": (500, 1000, 1500, 2000)}
"""The targets a table's creator may choose (RULES.md section 8); other presets
play to their own."""


def rules_of(body: TableIn) -> Rules:
    """The rules a new table asks for; a target the preset does not offer is refused."""
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


def act_command(
    player: Player,
    body: ActionIn,
    settings: Settings,
    dealer_for: Callable[[Table], Dealer] = lambda _t: fresh_deal,
) -> Command:
    """The hub command for ``player``'s action ``body`` (HTTP and live socket alike);
    ``dealer_for`` tells how a table deals its next hand (a challenge's boards)."""
    now = settings.clock.now()
    if body.type in CHAT_COMMANDS:
        return lambda t: chat_command(
            t,
            player.id,
            player.name,
            body.type,
            now,
            text=body.text,
            phrase=body.phrase,
            value=body.value,
        )
    if body.text is not None or body.phrase is not None:
        raise BadCommand("bad_action", "only a chat message has a text or a phrase")
    if body.type == "replace":
        levels = settings.robot_levels()
        return lambda t: replace(t, player.id, now, body.value, _limit(t, settings), levels)
    if body.type == "next_hand":
        return lambda t: t.act(
            player.id,
            body.type,
            now,
            dealer=dealer_for(t),
            turn_limit=_limit(t, settings),
        )
    return lambda t: t.act(
        player.id, body.type, now, value=body.value, turn_limit=_limit(t, settings)
    )


def _view(table: Table, player: Player | None, settings: Settings) -> dict[str, Any]:
    who = None if player is None else player.id
    return table_view(table, who, turn_limit=_limit(table, settings))


def _limit(table: Table, settings: Settings) -> timedelta:
    """The table's turn limit: its own, or the club's."""
    return limit(table.turn_seconds, settings.turn_limit)


def _view_response(hub: Hub, table: Table, player: Player | None) -> Response:
    """The view as a JSON response, its public part shared with everyone's."""
    text = hub.view_text(table, None if player is None else player.id)
    return Response(text, media_type="application/json")


def _opened(request: Request, table: Table, player: Player, settings: Settings) -> dict[str, Any]:
    """The answer for a table just opened: its id, its invitation and your view."""
    return {
        "id": table.id,
        "invite": f"{public_base(request, settings)}/mesa/{table.id}",
        "view": _view(table, player, settings),
    }


@router.get("/api/presets", tags=["tables"], responses=answer(PresetsOut))
async def presets(settings: SettingsDep) -> dict[str, Any]:
    """Every preset with the value of each option, and the robot levels offered."""
    return {
        "presets": {name: options_of(Rules.from_preset(name)) for name in PRESETS},
        "targets": {
            name: list(TARGETS.get(name) or (Rules.from_preset(name).target,)) for name in PRESETS
        },
        "robots": list(settings.robot_levels()),
    }


@router.post(
    "/api/tables",
    status_code=201,
    tags=["tables"],
    responses=answer(OpenedOut, 201) | refusals(401, 409, 422),
)
async def create_table(
    body: TableIn, request: Request, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> dict[str, Any]:
    """Opens a table; you sit at seat 0. Share ``invite`` (the table's link):
    the first people to open it sit down, later visitors watch."""
    rules = rules_of(body)
    now = settings.clock.now()
    table, events = Table.create(
        new_table_id(),
        rules,
        player.id,
        player.name,
        now,
        hints=body.hints,
        rated=body.rated,
        absent=body.absent,
    )
    await hub.create(table, events)
    return _opened(request, table, player, settings)


@router.get("/api/tables", tags=["tables"], responses=answer(TablesOut) | refusals(401))
async def my_tables(request: Request, player: PlayerDep, hub: HubDep) -> dict[str, Any]:
    """The tables you opened or sat at, newest first (the latest 30): each with its
    seats, the score, whether it is your turn and its kind."""
    rows = await store_of(request).tables_of(player.id, limit=30)
    for row in rows:
        with contextlib.suppress(UnknownTable):
            row.update(table_line(await hub.table(row["id"]), player.id))
    return {"tables": rows}


@router.get(
    "/api/tables/{table_id}", tags=["tables"], responses=answer(ViewOut) | refusals(404, 422)
)
async def read_table(table_id: TableId, player: MaybePlayerDep, hub: HubDep) -> Response:
    """The table as you may see it (``version`` grows with every event)."""
    table = await table_of(hub, table_id)
    if player is not None and table.seat_of(player.id) is not None:
        hub.saw(player.id, table_id, table.version)
    return _view_response(hub, table, player)


async def _run(hub: Hub, table_id: str, player: Player, command: Command) -> Response:
    # an unknown table raises UnknownTable here, which the app answers with 404
    table, _events = await hub.command(table_id, command)
    return _view_response(hub, table, player)


@router.post(
    "/api/tables/{table_id}/join",
    tags=["tables"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422),
)
async def join_table(
    table_id: TableId, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """Opening the invitation: a free seat before the game starts, else you watch
    (``you`` is your seat, or ``null``)."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.join(player.id, player.name, now))


@router.post(
    "/api/tables/{table_id}/partner",
    tags=["tables"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422),
)
async def choose_partner(
    table_id: TableId, body: SeatIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator chooses the seat of their partner (who moves opposite them)."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.choose_partner(player.id, body.seat, now))


@router.post(
    "/api/tables/{table_id}/robots",
    tags=["tables"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422),
)
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


@router.post(
    "/api/tables/{table_id}/free",
    tags=["tables"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422),
)
async def free_seat(
    table_id: TableId, body: SeatIn, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator takes a robot out of a seat before the start."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.free_seat(player.id, body.seat, now))


@router.post(
    "/api/tables/{table_id}/start",
    tags=["tables"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422),
)
async def start_game(
    table_id: TableId, player: PlayerDep, hub: HubDep, settings: SettingsDep
) -> Response:
    """The creator starts the game once every seat is taken; the first hand is dealt."""
    now = settings.clock.now()
    return await _run(hub, table_id, player, lambda t: t.start(player.id, now))


@router.post(
    "/api/tables/{table_id}/actions",
    tags=["play"],
    responses=answer(ViewOut) | refusals(401, 403, 404, 409, 422, 429),
)
async def act(
    table_id: TableId,
    body: ActionIn,
    request: Request,
    player: PlayerDep,
    hub: HubDep,
    settings: SettingsDep,
) -> Response:
    """An action of yours at the table (see the ``legal`` list of your view), or
    a chat message (``say``; spectators too, unless the creator turned their
    chat off: 403 ``chat_closed``). Messages are limited per person: 5 in 10
    seconds and 30 in 10 minutes (429 ``chat_too_fast``)."""
    dealing = request.app.state.dealing  # a challenge's or an event's boards
    await dealing.ready(table_id)
    return await _run(
        hub, table_id, player, act_command(player, body, settings, dealing.dealer_for)
    )


@router.post(
    "/api/tables/{table_id}/rematch",
    status_code=201,
    tags=["tables"],
    responses=answer(OpenedOut, 201) | answer(OpenedOut) | refusals(401, 403, 404, 409, 422),
)
async def rematch(
    table_id: TableId,
    body: RematchIn,
    request: Request,
    response: Response,
    player: PlayerDep,
    hub: HubDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    """The creator opens a rematch once the game is over: same rules, same people
    and robots, the partners kept or (``partner``) chosen anew. There is one
    rematch per table: asking again (at once or later, on any instance) answers
    the same table (200); asking with another partner once it is open is
    refused (409 ``rematch_exists``); a daily challenge's table has none (409
    ``no_rematch``)."""
    if table_id.startswith(CHALLENGE_PREFIX):
        raise ApiError(409, "no_rematch")
    new, opened = await hub.rematch(table_id, player.id, body.partner)
    if not opened:
        response.status_code = 200
    return _opened(request, new, player, settings)


@router.get("/api/tables/{table_id}/record", tags=["tables"], responses=refusals(404, 422))
async def download_record(table_id: TableId, hub: HubDep) -> Response:
    """The table's ``espadas-record/1``: the finished hands while it is played,
    all of it once the game is over (each hand with its commitment and salt)."""
    table = await table_of(hub, table_id)
    return JSONResponse(
        table.record(),
        headers={"content-disposition": f'attachment; filename="espadas-{table_id[:12]}.json"'},
    )


@router.get(
    "/api/tables/{table_id}/replay",
    tags=["tables"],
    responses=answer(ReplayOut) | refusals(404, 409, 422),
)
async def replay_game(table_id: TableId, hub: HubDep) -> dict[str, Any]:
    """A finished game trick by trick, every hand visible, with each deal's
    commitment checked. Refused (409) while the game is being played."""
    table = await table_of(hub, table_id)
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
