"""Hints [pistas]: the robot's choice for the seat to act, and why, in a sentence.

Only at tables whose creator allowed hints (``hints`` when opening the table;
off by default). A hint is what ``normal`` would do from the asking seat's own
view (never the state: the cards it cannot see stay hidden) and the habit that
chose it, in words. ``normal`` decides in about a tenth of a millisecond, so a
hint never waits for the robot workers, and its habit is something a sentence
can say (``experto``'s search weighs hundreds of deals instead).
"""

from __future__ import annotations

import random
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel

from espadas.i18n import LANGS, reason_text
from espadas.robots.normal import NormalRobot
from espadas.server.dependencies import HubDep, PlayerDep, table_of
from espadas.server.errors import ApiError
from espadas.server.language import request_lang
from espadas.server.models import TableId
from espadas.server.openapi import answer, refusals
from espadas.tables.view import action_json

router = APIRouter()


class HintOut(BaseModel):
    """The action ``normal`` would take now (as in your view's ``legal``), the
    habit that chose it (``reason_key``) and that reason in words."""

    action: dict[str, Any]
    reason_key: str
    reason: str


@router.get(
    "/api/tables/{table_id}/hint",
    tags=["play"],
    responses=answer(HintOut) | refusals(401, 403, 404, 409, 422),
)
async def hint(
    table_id: TableId,
    request: Request,
    player: PlayerDep,
    hub: HubDep,
    lang: Literal["es", "en"] | None = None,
) -> dict[str, Any]:
    """A hint for your bid or card, at a table that allows hints (403
    ``hints_off`` elsewhere; 409 ``no_hint`` when no bid or card of yours is
    due). ``lang`` (else ``Accept-Language``) chooses the reason's language."""
    table = await table_of(hub, table_id)
    if not table.hints:
        raise ApiError(403, "hints_off")
    seat = table.seat_of(player.id)
    game = table.game
    if seat is None or game is None or game.to_act != seat:
        raise ApiError(409, "no_hint")
    view = game.view_for(seat)
    if view.phase not in ("bidding", "playing"):
        raise ApiError(409, "no_hint")
    # the same view gives the same hint: the robot's few random choices are seeded by it
    robot = NormalRobot(random.Random(f"{table.id}:{table.version}:{seat}"))
    explanation = robot.explain(view, points=False)
    chosen = lang if lang in LANGS else request_lang(request.headers.get("accept-language"))
    return {
        "action": action_json(explanation.action),
        "reason_key": explanation.reason,
        "reason": reason_text(explanation.reason, chosen, explanation.params, hint=True),
    }
