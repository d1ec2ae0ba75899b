"""Routes of the daily challenge [reto diario] (OpenAPI tag ``challenge``): today's
challenge and your attempt, starting it, leaving it, a day's leaderboard and the
boards file of a closed day.

No answer shows a card of a board: before the day closes only the commitments
are public (the set's and each board's); the cards reach a player one hand at a
time at their own table, as at any table.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel

from espadas.server.challenge_plays import board_play
from espadas.server.challenges import Challenges
from espadas.server.dependencies import MaybePlayerDep, PlayerDep, public_base
from espadas.server.errors import ApiError
from espadas.server.openapi import answer, refusals
from espadas.store.challenges import AlreadyAttempted, Attempt, Challenge
from espadas.tables.boards import boards_json
from espadas.tables.challenge import is_day

router = APIRouter(tags=["challenge"])


class BoardOut(BaseModel):
    board: int
    dealer: int
    commitment: str


class AttemptOut(BaseModel):
    """Your attempt: your table, and the board the robot took over from if you left."""

    table: str
    link: str
    started_at: str
    left_board: int | None
    finished: bool


class ChallengeOut(BaseModel):
    """A day's challenge as anybody may see it: no card before the day closes."""

    day: str
    opens_at: str
    closes_at: str
    closed: bool
    commitment: str
    boards: list[BoardOut]
    rules: dict[str, Any]
    robots: dict[str, str]
    seat: int
    par_ready: bool
    you: AttemptOut | None


class LineOut(BaseModel):
    board: int
    points: int
    robot: bool
    field_size: int
    field: float | None
    above: float
    matchpoints: float
    par: int | None


class StandingOut(BaseModel):
    rank: int
    player: str
    """The player's id (their profile: ``/jugador/ID``)."""
    name: str
    boards: int
    total: float
    matchpoints: float
    lines: list[LineOut]


class LeaderboardOut(BaseModel):
    """The day's standings by duplicate scoring (matchpoints; points above the field
    break ties): the first ``limit`` of them; ``entrants``: how many in all;
    ``you``: your place (from 0), if you played, and ``mine`` your standing."""

    day: str
    closed: bool
    method: str
    boards: int
    par: list[int] | None
    standings: list[StandingOut]
    entrants: int
    you: int | None
    mine: StandingOut | None


class StepOut(BaseModel):
    """The board after the bids and after each trick (as a game's replay)."""

    hand_number: int
    trick_number: int
    dealer: int
    bids: list[int | str | None]
    hands: list[str]
    trick: dict[str, Any] | None
    tricks_taken: list[int]
    scores: list[int]
    bags: list[int]
    sides: list[str]
    players: int


class PlayOut(BaseModel):
    """A player's play of one board of a closed day: its steps scored from 0–0,
    their whole game's replay, and its analysis where one is done."""

    day: str
    board: int
    player: str
    name: str
    table: str
    players: list[str]
    rules: dict[str, Any]
    points: int | None
    robot: bool
    steps: list[StepOut]
    replay: str
    analysis: str | None


Day = Path(pattern=r"^\d{4}-\d{2}-\d{2}$", examples=["2026-12-01"])
PlayerId = Path(pattern=r"^[A-Za-z0-9_-]{1,64}$", examples=["p-1234"])


def _challenges(request: Request) -> Challenges:
    found: Challenges = request.app.state.challenges
    return found


async def _day(challenges: Challenges, day: str) -> Challenge:
    if not is_day(day) or day > challenges.today():
        raise ApiError(404, "challenge_unknown")
    found = await challenges.challenge(day)
    if found is None:
        raise ApiError(404, "challenge_unknown")
    return found


def _attempt(request: Request, attempt: Attempt) -> dict[str, Any]:
    settings = request.app.state.settings
    return {
        "table": attempt.table_id,
        "link": f"{public_base(request, settings)}/mesa/{attempt.table_id}",
        "started_at": attempt.started_at,
        "left_board": attempt.left_board,
        "finished": attempt.finished_at is not None,
    }


class PastDayOut(BaseModel):
    day: str
    players: int


class PastDaysOut(BaseModel):
    days: list[PastDayOut]


@router.get("/api/challenges", responses=answer(PastDaysOut) | refusals(422))
async def past_days(request: Request, limit: int = Query(14, ge=1, le=100)) -> dict[str, Any]:
    """The days before today that had a challenge, newest first (``limit`` of them),
    each with how many players made an attempt: their pages are ``/reto/DAY``."""
    challenges = _challenges(request)
    found = await challenges.store.challenges.days(challenges.today(), limit)
    return {"days": [{"day": day, "players": n} for day, n in found]}


@router.get("/api/challenge", responses=answer(ChallengeOut))
async def today(request: Request, player: MaybePlayerDep) -> dict[str, Any]:
    """Today's challenge (made when first asked for): its commitment, boards (their
    commitments only), rules, robots and your attempt."""
    challenges = _challenges(request)
    day = challenges.today()
    found = await challenges.challenge(day, create=True)
    assert found is not None
    mine = None if player is None else await challenges.store.challenges.attempt(day, player.id)
    if player is not None and mine is not None and mine.finished_at is None:
        await challenges.reconcile(mine)
        mine = await challenges.store.challenges.attempt(day, player.id)
    return {**challenges.public(found), "you": None if mine is None else _attempt(request, mine)}


@router.post(
    "/api/challenge/attempt",
    status_code=201,
    responses=answer(AttemptOut, 201) | refusals(401, 409),
)
async def start(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Starts your one attempt at today's challenge: a private table with robots,
    you at seat 0, the first board dealt. A second attempt is refused (409
    ``challenge_taken``)."""
    challenges = _challenges(request)
    try:
        attempt = await challenges.begin(player)
    except AlreadyAttempted:
        raise ApiError(409, "challenge_taken") from None
    return _attempt(request, attempt)


@router.post("/api/challenge/leave", responses=answer(AttemptOut) | refusals(401, 404, 409))
async def leave(request: Request, player: PlayerDep) -> dict[str, Any]:
    """Leaves today's attempt: the robot plays on in your seat (the hand in progress
    at your table; the boards not reached count as the robots' own play, par).
    Refused without an attempt (404 ``no_attempt``) or when it is over (409
    ``attempt_over``)."""
    challenges = _challenges(request)
    day = challenges.today()
    attempt = await challenges.store.challenges.attempt(day, player.id)
    if attempt is None:
        raise ApiError(404, "no_attempt")
    if attempt.left_at is not None or attempt.finished_at is not None:
        raise ApiError(409, "attempt_over")
    await challenges.leave(attempt)
    found = await challenges.store.challenges.attempt(day, player.id)
    assert found is not None
    return _attempt(request, found)


@router.get(
    "/api/challenge/{day}/leaderboard",
    responses=answer(LeaderboardOut)
    | {304: {"description": "Unchanged (If-None-Match)"}}
    | refusals(404, 422),
)
async def leaderboard(
    request: Request,
    player: MaybePlayerDep,
    day: str = Day,
    limit: int = Query(100, ge=1, le=1000),
) -> Response:
    """A day's standings, made again as attempts finish boards: each player's result
    on each board against the field (the others who played it) and par (at most a
    second late); the first ``limit`` players, and yours. An ``ETag`` names the
    version: asked again with ``If-None-Match``, an unchanged one answers 304."""
    challenges = _challenges(request)
    found = await _day(challenges, day)
    board, version = await challenges.leaderboard(day, found)
    you = board.place(player.id) if player is not None else None
    etag = f'"{day}.{version}.{limit}.{"-" if you is None else you}"'
    headers = {"etag": etag, "cache-control": "no-cache", "vary": "cookie"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(board.answer(you, limit), media_type="application/json", headers=headers)


@router.get("/api/challenge/{day}", responses=answer(ChallengeOut) | refusals(404, 422))
async def one_day(request: Request, player: MaybePlayerDep, day: str = Day) -> dict[str, Any]:
    """A day's challenge (today's or a past one's): its commitment, boards (their
    commitments only), rules, robots and your attempt (404 for a day without one)."""
    challenges = _challenges(request)
    found = await _day(challenges, day)
    mine = None if player is None else await challenges.store.challenges.attempt(day, player.id)
    return {**challenges.public(found), "you": None if mine is None else _attempt(request, mine)}


@router.get(
    "/api/challenge/{day}/boards/{board}/plays/{player_id}",
    responses=answer(PlayOut) | refusals(404, 409, 422),
)
async def board_play_route(
    request: Request,
    day: str = Day,
    board: int = Path(ge=1, le=100),
    player_id: str = PlayerId,
) -> dict[str, Any]:
    """A player's play of one board, for the side-by-side replay: only once the
    day has closed (409 ``challenge_open`` before: until then nobody sees
    another's play); 404 ``no_play`` when they did not play that board at their
    table (not that day, or they left before it)."""
    challenges = _challenges(request)
    found = await _day(challenges, day)
    if not challenges.is_closed(day):
        raise ApiError(409, "challenge_open")
    if board > len(found.boards["boards"]):
        raise ApiError(404, "no_play")
    return await board_play(challenges, day, board, player_id)


@router.get("/api/challenge/{day}/boards", responses=refusals(404, 409, 422))
async def boards_file(request: Request, day: str = Day) -> dict[str, Any]:
    """The boards file of a closed day (``espadas-boards/1``, every deal and salt):
    check it with ``espadas verify``. Refused while the day is open (409
    ``challenge_open``)."""
    challenges = _challenges(request)
    await _day(challenges, day)
    if not challenges.is_closed(day):
        raise ApiError(409, "challenge_open")
    return boards_json(challenges.boards(day), reveal=True)
