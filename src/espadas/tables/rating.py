"""Ratings of the club: OpenSkill's Plackett-Luce model (Weng-Lin), for teams and
for any number of sides.

A partnership game has two teams of two; an individual game of 3 to 6 players has
one team per seat, ranked by the final ranking (equal places tie). A subject
seated more than once in one game (robots of one level) takes the mean of the
updates of its seats. The rating shown is OpenSkill's ordinal (mu - 3 sigma, 0 at
start) on an Elo-like scale, :data:`START` at start, and its uncertainty is two
sigmas on that scale; it is provisional until :data:`PROVISIONAL_GAMES` games.

>>> before = [[Skill(), Skill()], [Skill(), Skill()]]
>>> after = rate(before, [1, 2])
>>> after[0][0].mu > 25 > after[1][0].mu, display(Skill()), display(after[0][0])[0] > 1500
(True, (1500, 333), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
START = 1500
"""The rating shown at start."""
SCALE = 20.0
"""Rating points per unit of OpenSkill's ordinal."""
PROVISIONAL_GAMES = 10
"""Games of a kind before its rating stops being provisional."""

KINDS = ("partnership", "individual")

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Skill:
    """One subject's OpenSkill rating of one kind."""

    mu: float = MU
    sigma: float = SIGMA


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The teams' new skills after a game; ``ranks``: 1 is first, equal ranks tie."""
    model_teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams]
    rated = _MODEL.rate(model_teams, ranks=[float(r) for r in ranks])
    return [[Skill(r.mu, r.sigma) for r in team] for team in rated]


def display(skill: Skill) -> tuple[int, int]:
    """The rating and uncertainty shown ("1540 ± 80")."""
    return round(START + SCALE * (skill.mu - 3 * skill.sigma)), round(SCALE * 2 * skill.sigma)


def mean(skills: Sequence[Skill]) -> Skill:
    """The mean of several updates of one subject."""
    if len(skills) == 1:
        return skills[0]
    return Skill(
        sum(s.mu for s in skills) / len(skills), sum(s.sigma for s in skills) / len(skills)
    )


def kind_of(partnerships: bool) -> str:
    """The kind of rating a game counts for."""
    return "partnership" if partnerships else "individual"
