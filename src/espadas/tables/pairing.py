"""Quick pairing: the people waiting for one rule set seated at tables of its size.

A pure function of who waits (their rating, since when, whom they block) and the
time now. Nearest ratings are seated together first; the rating range a person
accepts widens with their wait, as Lichess's pools do (:func:`rating_range`); two
people are never seated together where one blocked the other, and nobody is at two
tables; a person who asked for a least completion rate is seated only with people
at or above it (a person with no rated game yet has none, and passes). Once a
person has waited as long as they chose, :func:`fill` seats them with whoever is
compatible and leaves the free seats to robots.

>>> people = [Waiting("ana", 1500, 0.0), Waiting("luis", 1520, 1.0),
...           Waiting("marta", 1490, 2.0), Waiting("pedro", 1510, 3.0),
...           Waiting("rosa", 2400, 0.0)]
>>> [sorted(p.id for p in table) for table in pair(people, 4, now=5.0)]
[['ana', 'luis', 'marta', 'pedro']]
>>> rating_range(0), rating_range(10), rating_range(3600)
(150, 400, 1000)
>>> blocked = [Waiting("ana", 1500, 0.0, frozenset({"luis"})), Waiting("luis", 1500, 0.0)]
>>> pair(blocked, 2, now=0.0)
[]
>>> ana = Waiting("ana", 1500, 0.0, min_completion=0.9)
>>> picky = [ana, Waiting("luis", 1500, 0.0, completion=0.5)]
>>> pair(picky, 2, now=0.0), fill(picky, 2, now=30.0)
([], [(Waiting(id='ana', ...),), (Waiting(id='luis', ...),)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

RANGE_START = 150
"""The rating difference a person accepts at once."""
RANGE_GROWTH = 25
"""How much wider the range grows each second of waiting."""
RANGE_MAX = 1000
"""The widest range (reached after 34 s)."""


@dataclass(frozen=True)
class Waiting:
    """One person in the queue: id, rating, when they started waiting (seconds,
    on the same clock as ``now``), the people they block and the wait they chose
    before robots fill the free seats (seconds)."""

    id: str
    rating: int
    since: float
    blocks: frozenset[str] = field(default_factory=frozenset)
    wait: float = 20.0
    completion: float | None = None
    """The share of their rated games this person finished (``None``: none yet)."""
    min_completion: float = 0.0
    """The least completion rate this person accepts in the people seated with them."""


def rating_range(waited: float) -> int:
    """The rating difference accepted after waiting ``waited`` seconds."""
    return int(min(RANGE_MAX, RANGE_START + RANGE_GROWTH * max(0.0, waited)))


def blocked(a: Waiting, b: Waiting) -> bool:
    """Whether either of the two blocked the other, or either finishes fewer of
    their games than the other asks for."""
    return b.id in a.blocks or a.id in b.blocks or not (_accepts(a, b) and _accepts(b, a))


def _accepts(a: Waiting, b: Waiting) -> bool:
    """Whether ``b``'s completion rate is one ``a`` accepts."""
    return b.completion is None or b.completion >= a.min_completion


def compatible(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` may sit together now: neither blocked the other,
    and their ratings are within both of their ranges."""
    if a.id == b.id or blocked(a, b):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= rating_range(now - a.since) and gap <= rating_range(now - b.since)


def _group(
    anchor: Waiting, free: Sequence[Waiting], size: int, now: float, ranges: bool
) -> list[Waiting]:
    """``anchor`` and the nearest ratings among ``free`` that suit everyone chosen,
    up to ``size`` people (fewer if no more fit)."""
    chosen = [anchor]
    for other in sorted(free, key=lambda p: (abs(p.rating - anchor.rating), p.since, p.id)):
        if len(chosen) == size:
            break
        if other.id == anchor.id:
            continue
        if all(
            (compatible(c, other, now) if ranges else c.id != other.id and not blocked(c, other))
            for c in chosen
        ):
            chosen.append(other)
    return chosen


def _unique(waiting: Sequence[Waiting]) -> list[Waiting]:
    """Each person once (their earliest entry), longest wait first."""
    seen: dict[str, Waiting] = {}
    for person in sorted(waiting, key=lambda p: (p.since, p.id)):
        seen.setdefault(person.id, person)
    return list(seen.values())


def pair(waiting: Sequence[Waiting], size: int, now: float) -> list[tuple[Waiting, ...]]:
    """Tables of exactly ``size`` people from ``waiting``: the longest waiting
    person first, with the nearest ratings that every one of them accepts."""
    if size < 2:
        raise ValueError("a table has at least two seats")
    free = _unique(waiting)
    tables: list[tuple[Waiting, ...]] = []
    for anchor in list(free):
        if anchor not in free:
            continue
        group = _group(anchor, free, size, now, ranges=True)
        if len(group) == size:
            tables.append(tuple(group))
            for person in group:
                free.remove(person)
    return tables


def fill(waiting: Sequence[Waiting], size: int, now: float) -> list[tuple[Waiting, ...]]:
    """After :func:`pair`: each person who has waited their chosen wait, seated with
    the nearest ratings among those left (any range, never someone blocked), up to
    ``size`` people; the table's seats left free are for robots."""
    free = _unique(waiting)
    tables: list[tuple[Waiting, ...]] = []
    for anchor in list(free):
        if anchor not in free or now - anchor.since < anchor.wait:
            continue
        group = _group(anchor, free, size, now, ranges=False)
        tables.append(tuple(group))
        for person in group:
            free.remove(person)
    return tables
