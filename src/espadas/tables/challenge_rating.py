"""The challenge rating [rating del reto]: the daily challenge's own rating, apart
from the club's table ratings, with the same model (OpenSkill's Plackett-Luce,
:mod:`espadas.tables.rating`).

- **One day is one rated event**: its players, each a team of one, ranked by the
  day's standings (duplicate scoring: :func:`espadas.tables.duplicate.score`,
  mean matchpoints, points above the field breaking ties; equal players share a
  rank). A field of one moves nothing (nobody to be compared with).
- Ties: each tied group takes the mean of its members' updates (see
  :func:`rate_day`).
- A day is rated once it has **closed** (its standings are final then) and every
  attempt of it has a result on every board; a day that stays incomplete (a
  result never written) is rated a day later with its complete attempts only.
- Beside the rating: the days played and the **points above the field**, summed
  over the boards (shown as a mean per board).

>>> day = [("ana", 1, 30.0, 2), ("bea", 2, 0.0, 2), ("cai", 3, -30.0, 2)]
>>> after = rate_day({}, day)
>>> after["ana"].mu > after["bea"].mu > after["cai"].mu
True
>>> rate_day({}, [("ana", 1, 0.0, 2)])["ana"] == Skill()
True
>>> tied = rate_day({}, [(p, r, 0.0, 1) for p, r in zip("abcde", [1, 1, 1, 4, 5])])
>>> tied["a"] == tied["c"] and tied["c"].mu > tied["d"].mu > tied["e"].mu
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from espadas.tables.duplicate import Table as Scored
from espadas.tables.rating import Skill, rate

DayLine = tuple[str, int, float, int]
"""One player's day: ``(player, rank, points above the field, boards)``."""


def rate_day(before: Mapping[str, Skill], day: Sequence[DayLine]) -> dict[str, Skill]:
    """Each player's skill after the day (``before``: their skills, new players
    start at OpenSkill's default). ``day`` is in the order of the standings.

    Players who share a rank are rated in that order and then each given the
    mean of their group's updates: OpenSkill's own ties, in a large group, can
    leave the tied players below the next one (``[1, 1, 1, 4, 5]`` with equal
    skills moves the fourth above the first three), which a ranking must not."""
    players = [line[0] for line in day]
    if len(players) < 2:
        return {p: before.get(p, Skill()) for p in players}
    prior = [before.get(p, Skill()) for p in players]
    rated = rate([[s] for s in prior], list(range(1, len(players) + 1)))
    moves = [(r[0].mu - s.mu, r[0].sigma - s.sigma) for r, s in zip(rated, prior, strict=True)]
    out: dict[str, Skill] = {}
    start = 0
    while start < len(day):
        end = start
        while end + 1 < len(day) and day[end + 1][1] == day[start][1]:
            end += 1
        group = range(start, end + 1)
        mu = sum(moves[i][0] for i in group) / len(group)
        sigma = sum(moves[i][1] for i in group) / len(group)
        for i in group:
            out[players[i]] = Skill(prior[i].mu + mu, max(prior[i].sigma + sigma, 1e-6))
        start = end + 1
    return out


def day_lines(table: Scored) -> list[DayLine]:
    """The day's lines from its duplicate scoring, in the order of its standings."""
    return [(s.entrant, s.rank, s.total, s.boards) for s in table.standings]
