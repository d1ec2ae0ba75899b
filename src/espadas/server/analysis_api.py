"""The analysis of a finished game through the API: start it, follow its
progress, read it. The work is the :class:`~espadas.server.analyst.Analyst`'s,
in the robot workers; the result is ``espadas-analysis/1`` (README, "Records,
replay and export") for every seat.

Only a finished game is analysed (409 ``analysis_not_finished`` before): then
every hand is public, and so is every seat's analysis, for players and
spectators alike.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict

from espadas.server.analyst import Analyst
from espadas.server.dependencies import HubDep, PlayerDep, table_of
from espadas.server.errors import ApiError
from espadas.server.models import TableId
from espadas.server.openapi import answer, refusals
from espadas.tables.table import Table

router = APIRouter()

Level = Literal["experto", "maestro"]
Mark = Literal["inaccuracy", "mistake", "blunder"]


class AnalysisIn(BaseModel):
    """Which search analyses the game: ``experto`` (the default) or ``maestro``
    (four times as long)."""

    model_config = ConfigDict(extra="forbid")
    level: Level = "experto"


class CandidateOut(BaseModel):
    """An action weighed: a card ``"QH"``, a bid (``0`` Nil, ``"blind_nil"``) or
    ``"look"``, and the points it expects for the seat's side (``null``:
    nothing to weigh)."""

    action: int | str
    points: float | None


class DecisionOut(BaseModel):
    """One decision: ``hand`` and ``action`` numbered from 0 (bids, then plays),
    the action ``taken``, the ``best``, the points lost, their standard error
    (``loss_error``), the mark, and for a bid compared with Nil how often the Nil
    was made against ``normal``'s defence (``nil_chance``, 0 to 1). An analysis
    kept from before ``loss_error`` and ``nil_chance`` were given has them null."""

    hand: int
    action: int
    seat: int
    taken: int | str
    best: int | str
    loss: float | None
    loss_error: float | None = None
    mark: Mark | None
    nil_chance: float | None = None
    candidates: list[CandidateOut]


class SeatSummaryOut(BaseModel):
    decisions: int
    average_loss: float | None
    marks: dict[str, int]


class AnalysisJsonOut(BaseModel):
    """The ``espadas-analysis/1`` object, every seat analysed."""

    format: str
    decisions: list[DecisionOut]
    summary: dict[str, SeatSummaryOut]


class AnalysisOut(BaseModel):
    """Where the analysis of the game stands: ``none`` (never asked), ``queued``
    (``waiting`` analyses before it here), ``running`` (``done`` of ``total``
    decisions, ``percent``), ``done`` (with ``analysis``) or ``failed`` (ask
    again). ``thresholds``: the least points lost for each mark."""

    status: Literal["none", "queued", "running", "done", "failed"]
    level: Level
    done: int
    total: int
    percent: int
    waiting: int | None
    thresholds: dict[str, float]
    analysis: AnalysisJsonOut | None


def _analyst(request: Request) -> Analyst:
    analyst: Analyst = request.app.state.analyst
    return analyst


def _finished(table: Table) -> None:
    if table.status != "finished":
        raise ApiError(409, "analysis_not_finished")


@router.post(
    "/api/tables/{table_id}/analysis",
    status_code=202,
    tags=["analysis"],
    responses=answer(AnalysisOut, 202) | answer(AnalysisOut) | refusals(401, 404, 409, 422, 503),
)
async def start_analysis(
    table_id: TableId,
    request: Request,
    response: Response,
    player: PlayerDep,
    hub: HubDep,
    body: AnalysisIn | None = None,
) -> dict[str, Any]:
    """Starts the analysis of a finished game (202 with its progress), every
    seat's decisions valued by the search from that seat's own view. Asking
    again while it runs answers its progress, and once it is done the analysis
    (200): a game is analysed once per level. Refused before the end (409
    ``analysis_not_finished``) and while too many analyses wait (503
    ``analysis_busy``: try again later)."""
    table = await table_of(hub, table_id)
    _finished(table)
    level = (body or AnalysisIn()).level
    state = await _analyst(request).start(table_id, level, table.record())
    if state["status"] == "done":
        response.status_code = 200
    return state


@router.get(
    "/api/tables/{table_id}/analysis",
    tags=["analysis"],
    responses=answer(AnalysisOut) | refusals(404, 409, 422),
)
async def read_analysis(
    table_id: TableId, request: Request, hub: HubDep, level: Level = "experto"
) -> dict[str, Any]:
    """The analysis of a finished game at ``level``: its progress while it runs,
    the ``espadas-analysis/1`` object once done (``status`` ``none`` if nobody
    asked for it). Everyone sees every seat's analysis, as every hand."""
    table = await table_of(hub, table_id)
    _finished(table)
    return await _analyst(request).state(table_id, level)
