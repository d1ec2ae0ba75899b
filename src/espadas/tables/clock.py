"""Clocks: the time is injected, so turn limits are tested without waiting; and the
default turn limit.

>>> TURN_LIMIT
datetime.timedelta(days=2)
>>> clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
>>> clock.advance(hours=49)
>>> clock.now().isoformat()
'2026-01-03T01:00:00+00:00'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

TURN_LIMIT = timedelta(hours=48)
"""How long a person may keep a table waiting before the other side may claim the
game, unless the server is told otherwise (``espadas serve --turn-limit-hours``)."""


LIVE_TURN_LIMIT = timedelta(minutes=5)
"""The turn limit of a live table opened from the lobby (quick play, a live seek)."""


def limit(seconds: int | None, club: timedelta) -> timedelta:
    """A table's turn limit: its own (``seconds``, set when it was created) or else
    the club's.

    >>> limit(None, TURN_LIMIT) == TURN_LIMIT, limit(300, TURN_LIMIT)
    (True, datetime.timedelta(seconds=300))
    """
    return club if seconds is None else timedelta(seconds=seconds)


class Clock(Protocol):
    """Anything that tells the time (timezone-aware, UTC)."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that moves only when told to (for tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, **delta: float) -> None:
        """Moves the clock forward by ``timedelta(**delta)``."""
        self._now += timedelta(**delta)
