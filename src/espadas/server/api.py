"""The JSON API (described by OpenAPI at ``/openapi.json``, see :mod:`~espadas.server.openapi`)
and the live WebSocket of each table, as one router.

Every answer about a table is a *view*: the seat's own view for the person
seated there, the public view for everyone else. A refused request answers
4xx with ``{"error": CODE, "message": TEXT}``, the text in the language of the
request's ``Accept-Language`` (Spanish by default), and changes nothing.

The routes live by noun: :mod:`~espadas.server.session_api` (identity),
:mod:`~espadas.server.table_api` (tables and play), :mod:`~espadas.server.hint_api`
(hints), :mod:`~espadas.server.analysis_api` (the analysis of a finished game),
:mod:`~espadas.server.club_api` (the club), :mod:`~espadas.server.live`
(the WebSocket) and :mod:`~espadas.server.notices_api` (turn notices, added by the
app); their bodies are in :mod:`~espadas.server.models`, what they are given in
:mod:`~espadas.server.dependencies` and how refusals are answered in
:mod:`~espadas.server.errors`.
"""

from __future__ import annotations

from fastapi import APIRouter

from espadas.server import (
    analysis_api,
    club_api,
    hint_api,
    live,
    lobby_api,
    session_api,
    table_api,
)

router = APIRouter()
router.include_router(session_api.router)
router.include_router(table_api.router)
router.include_router(hint_api.router)
router.include_router(analysis_api.router)
router.include_router(club_api.router)
router.include_router(live.router)
router.include_router(lobby_api.router)
