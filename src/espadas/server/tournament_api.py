"""Routes of duplicate events [torneos] (OpenAPI tag ``events``): list and create,
an event (join, leave, start), its standings per round and overall, and at the
end its boards file and records.

No answer shows a card before the end: the set's commitment is public from the
creation; a table's id (the way to its cards) is given to those seated there, and
to everybody once its round is over. At the end the boards file
(``espadas-boards/1``) and the bundle of records (``espadas-event/1``) are public.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from espadas.server.dependencies import MaybePlayerDep, PlayerDep, public_base
from espadas.server.openapi import answer, refusals
from espadas.server.tournaments import EventRefused, EventService
from espadas.store.store import Player, UnknownTable
from espadas.store.tournaments import EventRow
from espadas.tables.absent import replace_open_at
from espadas.tables.clock import limit
from espadas.tables.tournament import (
    EventSpec,
    make_spec,
    seat_round,
    standings_body,
    table_done,
    two_tables_from,
)

router = APIRouter(tags=["events"])

BUNDLE = "espadas-event/1"
"""The ``format`` of an event's records bundle."""

EventId = Path(pattern=r"^[0-9a-f]{12}$", examples=["0a1b2c3d4e5f"])


class EventIn(BaseModel):
    """A new event. ``boards`` in all, played in ``rounds`` rounds of equal size;
    ``mode`` follows the rule set (pairs for partnerships); ``starts_at``: it starts
    by itself then (else when the organiser starts it); ``days``: it ends that many
    days after its start; ``invited``: player ids or names (else anyone with the
    link); ``absent``: past the turn limit an absent entrant is replaced by a robot
    (by the organiser or the other side) or, ``claim``, the other side closes the
    game."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    preset: str = Field("estandar", max_length=20)
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    renege: Literal["allowed", "prevented"] = "prevented"
    boards: int = Field(8, ge=1, le=100)
    rounds: int = Field(1, ge=1, le=12)
    mode: Literal["pairs", "individual"] | None = None
    robot: str = Field("experto", max_length=20)
    starts_at: datetime | None = None
    days: int | None = Field(None, ge=1, le=60)
    invited: list[str] | None = Field(None, max_length=200)
    absent: Literal["claim", "robot"] = "robot"


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str | None = Field(None, max_length=40)


class TableOut(BaseModel):
    round: int
    number: int
    players: list[str]
    boards_played: int
    done: bool
    table: str | None
    """Its id: for those seated there, and for everybody once its round is over."""
    replace_at: str | None
    """When you may put a robot in the seat of the person keeping it waiting (the
    organiser, or the other side; ``null``: you may not, or nobody is waiting)."""
    replace_open: bool
    """Whether that time has come (``POST /api/tables/ID/actions`` ``replace``)."""
    waiting: int | None
    """The seat of the person it waits for (given with ``replace_at``)."""


class EventOut(BaseModel):
    """An event as the person asking may see it."""

    id: str
    name: str
    organiser: str
    status: str
    round: int
    rounds: int
    boards: int
    mode: str
    rules: dict[str, Any]
    robot: str
    absent: str
    starts_at: str | None
    days: int | None
    invited_only: bool
    commitment: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    entrants: list[str]
    tables: list[TableOut]
    link: str | None
    """The join link (for the organiser and the entrants of a link event)."""
    you: dict[str, bool]
    tables_per_round: int
    """The tables a round has with these entrants (before the start: would have)."""
    two_tables_from: int
    """The fewest entrants that make two tables a round: with one table no board
    is compared with another table, so nobody is ranked against a field."""


class EventsOut(BaseModel):
    events: list[dict[str, Any]]


class StandingOut(BaseModel):
    rank: int
    entrant: str
    boards: int
    total: float
    matchpoints: float
    lines: list[dict[str, Any]]


class RoundOut(BaseModel):
    round: int
    standings: list[StandingOut]


class StandingsOut(BaseModel):
    """By matchpoints (points above the field break ties), per round and overall."""

    event: str
    final: bool
    method: str
    overall: list[StandingOut]
    rounds: list[RoundOut]


def _service(request: Request) -> EventService:
    found: EventService = request.app.state.events
    return found


def _summary(event: EventRow) -> dict[str, Any]:
    spec = EventSpec.from_dict(event.spec)
    return {
        "id": event.id,
        "name": event.name,
        "organiser": event.organiser_name,
        "status": event.status,
        "mode": spec.mode,
        "boards": spec.boards,
        "rounds": spec.rounds,
        "preset": spec.rules.preset,
        "starts_at": event.spec.get("starts_at"),
        "invited_only": spec.invited is not None,
        "created_at": event.created_at,
    }


async def _event_out(request: Request, event: EventRow, player: Player | None) -> dict[str, Any]:
    service = _service(request)
    spec = EventSpec.from_dict(event.spec)
    entrants = await service.db.entrants(event.id)
    me = None if player is None else player.id
    entrant = any(e.player_id == me for e in entrants)
    organiser = me == event.organiser_id
    names = {e.player_id: e.name for e in entrants}
    settings = request.app.state.settings
    now = settings.clock.now()
    tables = []
    for row in await service.db.tables(event.id):
        try:
            game = await service.hub.table(row.table_id)
        except UnknownTable:  # opened by an instance that then lost the race
            continue
        over = event.status == "finished" or row.round < event.round
        shown = over or (me is not None and me in row.seats) or (organiser and not entrant)
        done = table_done(spec, game)
        waits = shown and not done and event.status == "playing"
        opens = (
            replace_open_at(game, me, limit(game.turn_seconds, settings.turn_limit))
            if waits
            else None
        )
        tables.append(
            {
                "round": row.round,
                "number": row.number,
                "players": [
                    names.get(p, "?") if p is not None else f"robot:{spec.robot}" for p in row.seats
                ],
                "boards_played": 0 if game.game is None else len(game.game.scored),
                "done": done,
                "table": row.table_id if shown else None,
                "replace_at": None if opens is None else opens.isoformat(),
                "replace_open": opens is not None and opens <= now,
                "waiting": None if opens is None or game.game is None else game.game.to_act,
            }
        )
    base = public_base(request, settings)
    link = f"{base}/torneo/{event.id}"
    if spec.invited is None:
        link += f"?t={event.token}"
    return {
        **{k: v for k, v in _summary(event).items() if k != "preset"},
        "round": event.round,
        "rules": spec.rules.to_dict(),
        "robot": spec.robot,
        "absent": spec.absent,
        "days": spec.days,
        "commitment": event.commitment,
        "started_at": event.started_at,
        "finished_at": event.finished_at,
        "entrants": [e.name for e in entrants],
        "tables": tables,
        "link": link if organiser or entrant else None,
        "you": {"organiser": organiser, "entrant": entrant},
        "tables_per_round": len(seat_round(spec, [e.player_id for e in entrants], 1)),
        "two_tables_from": two_tables_from(spec),
    }


@router.get("/api/events", responses=answer(EventsOut))
async def list_events(request: Request) -> dict[str, Any]:
    """The newest events (100 at most)."""
    service = _service(request)
    return {"events": [_summary(e) for e in await service.db.newest()]}


@router.post("/api/events", status_code=201, responses=answer(EventOut, 201) | refusals(401, 422))
async def create_event(request: Request, body: EventIn, player: PlayerDep) -> dict[str, Any]:
    """Creates an event, you its organiser: its boards are dealt now, and their
    commitment is public from now on."""
    spec = make_spec(
        body.name,
        body.preset,
        body.options,
        body.renege,
        body.boards,
        body.rounds,
        body.mode,
        body.robot,
        body.starts_at,
        body.days,
        body.invited,
        body.absent,
    )
    service = _service(request)
    event = await service.create(spec, player)
    return await _event_out(request, event, player)


@router.get("/api/events/{event_id}", responses=answer(EventOut) | refusals(404, 422))
async def get_event(request: Request, player: MaybePlayerDep, event_id: str = EventId) -> Any:
    """An event: entrants, tables (their ids as far as you may know them), your part."""
    event = await _service(request).get(event_id)
    return await _event_out(request, event, player)


@router.post(
    "/api/events/{event_id}/join", responses=answer(EventOut) | refusals(401, 403, 404, 409, 422)
)
async def join_event(
    request: Request, body: JoinIn, player: PlayerDep, event_id: str = EventId
) -> Any:
    """Joins an event before it starts: with the link's ``token`` (an event for anyone
    with the link; 403 ``event_link``) or being on its list (403
    ``event_not_invited``). Joining twice changes nothing."""
    service = _service(request)
    event = await service.get(event_id)
    await service.join(event, player, body.token)
    return await _event_out(request, event, player)


@router.post(
    "/api/events/{event_id}/leave", responses=answer(EventOut) | refusals(401, 404, 409, 422)
)
async def leave_event(request: Request, player: PlayerDep, event_id: str = EventId) -> Any:
    """Leaves an event before it starts."""
    service = _service(request)
    event = await service.get(event_id)
    await service.leave(event, player)
    return await _event_out(request, event, player)


@router.post(
    "/api/events/{event_id}/start", responses=answer(EventOut) | refusals(401, 403, 404, 409, 422)
)
async def start_event(request: Request, player: PlayerDep, event_id: str = EventId) -> Any:
    """The organiser starts the event now (403 ``event_not_organiser``): round 1's
    tables are seated, robots in the gaps, and the first board is dealt."""
    service = _service(request)
    event = await service.get(event_id)
    await service.start(event, player)
    return await _event_out(request, await service.get(event_id), player)


@router.get("/api/events/{event_id}/standings", responses=answer(StandingsOut) | refusals(404, 422))
async def event_standings(request: Request, event_id: str = EventId) -> dict[str, Any]:
    """The standings, live: each entrant's result on each board against the others
    who played it in the same direction, per round and overall."""
    service = _service(request)
    event = await service.get(event_id)
    got = await service.standings(event)
    return standings_body(event.id, event.status == "finished", got)


async def _finished(request: Request, event_id: str) -> EventRow:
    event = await _service(request).get(event_id)
    if event.status != "finished":
        raise EventRefused(409, "event_not_over", "published when the event is over")
    return event


@router.get("/api/events/{event_id}/boards", responses=refusals(404, 409, 422))
async def event_boards(request: Request, event_id: str = EventId) -> dict[str, Any]:
    """The boards file once the event is over (``espadas-boards/1``, every deal and
    salt; check it with ``espadas verify``). Refused before (409 ``event_not_over``)."""
    event = await _finished(request, event_id)
    return event.boards


@router.get("/api/events/{event_id}/records", responses=refusals(404, 409, 422))
async def event_records(request: Request, event_id: str = EventId) -> dict[str, Any]:
    """Every record of the event once it is over, in one JSON bundle
    (``espadas-event/1``): the event's choices, its boards file, and each table's
    round, number, ``entrants`` (the names the event seated there, ``null`` for a
    robot filling a gap: a person later replaced by a robot keeps their place) and
    record (``espadas-record/1``). ``espadas duplicate`` scores it."""
    event = await _finished(request, event_id)
    service = _service(request)
    return {
        "format": BUNDLE,
        "event": {"id": event.id, **event.spec},
        "boards": event.boards,
        "tables": [
            {
                "round": row.round,
                "number": row.number,
                "table": row.table_id,
                "entrants": rec.get("entrants"),
                "record": {k: v for k, v in rec.items() if k != "entrants"},
            }
            for row, rec in await service.records(event)
        ],
    }
