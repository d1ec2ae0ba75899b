"""The club's API: profiles, game histories and leaderboards, read from what the
store counts as each game ends (:mod:`espadas.store.club_writes`). Subjects are
player ids and ``robot-LEVEL`` for a robot level. The contract with the pages is
``CLUB_API.md``.

Periods are calendar ones, in UTC: ``year``, ``month`` and ``week`` (ISO week)
are the current ones.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from espadas.engine.rules import PRESETS
from espadas.robots.registry import LEVELS
from espadas.server.club_models import (
    GamesOut,
    HiddenIn,
    LeaderboardOut,
    MeOut,
    ProfileOut,
    Subject,
)
from espadas.server.dependencies import PlayerDep, SettingsDep, store_of
from espadas.server.errors import ApiError
from espadas.server.openapi import answer, refusals
from espadas.store.club_writes import periods

router = APIRouter()

PERIODS = ("all", "year", "month", "week")


def period_key(period: str, now: datetime) -> str:
    """The bucket that ``period`` names at ``now``.

    >>> from datetime import UTC
    >>> [period_key(p, datetime(2026, 12, 1, tzinfo=UTC)) for p in PERIODS]
    ['all', 'y2026', 'm2026-12', 'w2026-49']
    """
    return periods(now.isoformat())[PERIODS.index(period)]


@router.get(
    "/api/club/players/{subject}", tags=["club"], responses=answer(ProfileOut) | refusals(404, 422)
)
async def profile(subject: Subject, request: Request) -> Response:
    """A player's (or a robot level's) profile: ratings with their history,
    statistics, favourite partners, the daily challenge's rating
    (``challenge``, null before a day of theirs is rated) and a person's
    completion rate (``completion``: rated games finished and left) (404
    ``no_player``)."""
    store = store_of(request)
    found = await store.club.profile(subject, LEVELS)
    if found is None:
        raise ApiError(404, "no_player")
    found["challenge"] = await store.challenge_ratings.get(subject)
    found["completion"] = None  # a robot level's; a person's: rated games finished and left
    if found["robot"] is None:
        found["completion"] = (await store.club.completion(subject)).to_json()
    return JSONResponse(found)


@router.get(
    "/api/club/players/{subject}/games",
    tags=["club"],
    responses=answer(GamesOut) | refusals(404, 422),
)
async def games(
    subject: Subject,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    before: Annotated[str | None, Query(pattern=r"^[0-9]{1,12}$")] = None,
) -> Response:
    """The games the subject sat in, newest first, ``limit`` at a time; ``before``
    is the ``next`` of the page before."""
    club = store_of(request).club
    page, following = await club.games(subject, limit, None if before is None else int(before))
    if not page and before is None and await club.profile(subject, LEVELS) is None:
        raise ApiError(404, "no_player")
    return JSONResponse({"games": page, "next": None if following is None else str(following)})


@router.get(
    "/api/club/leaderboard", tags=["club"], responses=answer(LeaderboardOut) | refusals(422)
)
async def leaderboard(
    request: Request,
    settings: SettingsDep,
    kind: Literal["partnership", "individual", "pairs", "challenge"] = "partnership",
    preset: Annotated[str | None, Query(max_length=20)] = None,
    period: Literal["all", "year", "month", "week"] = "all",
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Response:
    """Players by rating of ``kind`` (or ``pairs`` by share of rated games won,
    from 3 games on); with a ``preset`` or a ``period`` only those who played a
    rated game of it, their games and wins counted there. Players who chose to be
    hidden are left out (422 ``bad_preset`` for an unknown preset). ``challenge``:
    players by the daily challenge's own rating, with their days and points above
    the field per board (the rules and the period do not apply: every closed day)."""
    if preset is not None and preset not in PRESETS:
        raise ApiError(422, "bad_preset", presets=", ".join(PRESETS))
    club = store_of(request).club
    key = period_key(period, settings.clock.now())
    if kind == "challenge":
        rows = await store_of(request).challenge_ratings.leaderboard(limit)
        return JSONResponse({"kind": kind, "preset": None, "period": "all", "rows": rows})
    if kind == "pairs":
        rows = await club.pairs(preset, key, limit)
    else:
        rows = await club.leaderboard(kind, preset, key, limit)
    return JSONResponse({"kind": kind, "preset": preset, "period": period, "rows": rows})


@router.get("/api/club/me", tags=["club"], responses=answer(MeOut) | refusals(401))
async def read_me(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Whether the leaderboards leave you out."""
    return {"id": player.id, "hidden": await store_of(request).club.hidden(player.id)}


@router.put("/api/club/me", tags=["club"], responses=answer(MeOut) | refusals(401, 422))
async def set_me(
    body: HiddenIn, request: Request, player: PlayerDep, settings: SettingsDep
) -> dict[str, Any]:
    """Leaves you out of the leaderboards (``hidden``: true) or back in. Your
    profile stays visible to those who follow a link to it."""
    await store_of(request).club.set_hidden(player.id, body.hidden, settings.clock.now())
    return {"id": player.id, "hidden": body.hidden}
