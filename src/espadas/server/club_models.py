"""Bodies of the club's API (:mod:`espadas.server.club_api`): profiles, game
histories and leaderboards (the contract is ``CLUB_API.md``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, StrictBool, StringConstraints

Subject = Annotated[
    str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
]
"""A player's id, or ``robot-LEVEL`` for a robot level."""


class HistoryPointOut(BaseModel):
    """The rating after one rated game."""

    at: str
    rating: int
    uncertainty: int
    table: str


class RatingOut(BaseModel):
    """A rating of one kind: OpenSkill's ordinal on an Elo-like scale (1500 at
    start), its uncertainty (two sigmas), rated games, provisional until 10 of
    them, and its history (oldest first; the newest 200 points)."""

    rating: int
    uncertainty: int
    games: int
    provisional: bool
    history: list[HistoryPointOut]


class RatingsOut(BaseModel):
    partnership: RatingOut | None
    individual: RatingOut | None


class ChallengeRatingOut(BaseModel):
    """The daily challenge's own rating (each closed day one rated event, the
    day's players ranked by its standings); ``above_per_board``: the mean points
    above the field per board played."""

    rating: int
    uncertainty: int
    days: int
    boards: int
    above_per_board: float
    provisional: bool
    last_day: str


class StatsOut(BaseModel):
    """Sums over every game sat in (rated or not). A contract counts for each seat
    that bid a number; bags, over- and undertricks are the side's; ``points`` the
    side's hand scores (per hand: points / hands)."""

    games: int
    won: int
    hands: int
    contracts: int
    contracts_made: int
    nil_bid: int
    nil_made: int
    blind_nil_bid: int
    blind_nil_made: int
    bags: int
    tricks_over: int
    tricks_under: int
    bostons: int
    reneges_accused: int
    reneges_proven: int
    points: int


class PartnerOut(BaseModel):
    id: str
    name: str
    games: int
    won: int


class CompletionOut(BaseModel):
    """Rated games played to the end (``finished``) and left (``left``: abandoned,
    closed by a claim against them, or their seat given to a robot); ``rate`` is
    ``finished / (finished + left)``, null before any such game."""

    finished: int
    left: int
    rate: float | None


class ProfileOut(BaseModel):
    """A subject's profile: a person (``robot`` null; ``former`` once their
    account is gone) or a robot level."""

    id: str
    name: str
    robot: str | None
    former: bool
    ratings: RatingsOut
    stats: StatsOut
    partners: list[PartnerOut]
    challenge: ChallengeRatingOut | None = None
    completion: CompletionOut | None = None
    """A person's rated games finished and left (null for a robot level)."""


class WhoOut(BaseModel):
    id: str
    name: str


class GameOut(BaseModel):
    """One game sat in: its result for this subject, partners and opponents."""

    table: str
    finished_at: str
    preset: str
    rated: bool
    players: int
    won: bool
    place: int
    score: int
    partners: list[WhoOut]
    opponents: list[WhoOut]
    replay: str
    record: str


class GamesOut(BaseModel):
    """Games newest first; ``next`` is the ``before`` of the next page (null: none)."""

    games: list[GameOut]
    next: str | None


class BoardRowOut(BaseModel):
    rank: int
    id: str
    name: str
    robot: str | None
    rating: int
    uncertainty: int
    games: int
    won: int


class PairRowOut(BaseModel):
    rank: int
    players: list[WhoOut]
    games: int
    won: int


class LeaderboardOut(BaseModel):
    """Players by rating (``kind`` partnership or individual) or pairs by share of
    games won (``pairs``, from 3 games on)."""

    kind: str
    preset: str | None
    period: str
    rows: list[BoardRowOut] | list[PairRowOut]


class HiddenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hidden: StrictBool


class MeOut(BaseModel):
    """You in the club: your id and whether the leaderboards leave you out."""

    id: str
    hidden: bool
