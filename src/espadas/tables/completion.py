"""A person's completion rate: of the rated games they sat down to, how many they
played to the end and how many they left.

A game counts when its table was opened rated (``create``'s ``rated``, the
default) and is over, and the person held a seat when it started (a daily
challenge's table, ``boards``, is not a club game and does not count). It was
**left** by the person when they abandoned it (``abandon`` from their seat),
when the other side closed it because they kept the table waiting (``claim``
against their seat), or when a robot took their seat (``replace`` naming them:
past the turn limit, or a dropped connection not back in time,
:mod:`espadas.tables.presence`); else it was **finished**, whatever the score.

>>> from datetime import UTC, datetime
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> log = [
...     Event(1, "create", {"creator": "ana", "name": "Ana", "rules": {}}, at),
...     Event(2, "sit", {"seat": 1, "player": "luis", "name": "Luis"}, at),
...     Event(3, "start", {"first_dealer": 0}, at),
...     Event(4, "abandon", {"seat": 1}, at),
... ]
>>> completion_of("luis", [log]), completion_of("ana", [log]), completion_of("eva", [log])
(Completion(finished=0, left=1), Completion(finished=1, left=0), Completion(finished=0, left=0))
>>> Completion(3, 1).rate, Completion(0, 0).rate
(0.75, None)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from espadas.tables.event import Event

KINDS = ("create", "sit", "free", "partner", "start", "abandon", "claim", "replace")
"""The entries of a log that decide a game's completion (the store reads only these)."""


@dataclass(frozen=True)
class Completion:
    """Rated games a person finished and left."""

    finished: int
    left: int

    @property
    def games(self) -> int:
        return self.finished + self.left

    @property
    def rate(self) -> float | None:
        """The share of games finished (None before any game)."""
        return None if self.games == 0 else self.finished / self.games

    def to_json(self) -> dict[str, object]:
        return {"finished": self.finished, "left": self.left, "rate": self.rate}


def outcome(player: str, log: Iterable[Event]) -> str | None:
    """``"finished"``, ``"left"`` or ``None`` (the game does not count for
    ``player``) for one finished table's log, in order (only :data:`KINDS` matter)."""
    seats: dict[int, str | None] = {}
    mine: int | None = None
    started = False
    for event in log:
        data = event.data
        if event.type == "create":
            if not data.get("rated", True) or data.get("boards"):
                return None
            seats[0] = data.get("creator")
        elif event.type == "sit" and not started:
            seats[int(data["seat"])] = data.get("player")
        elif event.type == "free" and not started:
            seats[int(data["seat"])] = None
        elif event.type == "partner" and not started:
            seat = int(data["seat"])
            seats[seat], seats[2] = seats.get(2), seats.get(seat)
        elif event.type == "start":
            started = True
            mine = next((s for s, p in seats.items() if p == player), None)
            if mine is None:
                return None
        elif started and _left(event, mine, player):
            return "left"
    return "finished" if started else None


def _left(event: Event, seat: int | None, player: str) -> bool:
    """Whether ``event`` (in a game under way) is ``player`` leaving it from ``seat``."""
    if event.type in ("abandon", "claim"):
        return bool(event.data.get("seat") == seat)
    return event.type == "replace" and event.data.get("player") == player


def completion_of(player: str, logs: Iterable[Iterable[Event]]) -> Completion:
    """``player``'s :class:`Completion` over the logs of finished tables."""
    counts = {"finished": 0, "left": 0}
    for log in logs:
        found = outcome(player, log)
        if found is not None:
            counts[found] += 1
    return Completion(counts["finished"], counts["left"])
