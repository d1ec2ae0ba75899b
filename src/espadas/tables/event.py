"""One entry of a table's log, and the kinds of entry after which a turn falls due.

>>> from datetime import UTC, datetime
>>> event = Event(1, "create", {"creator": "ana"}, datetime(2026, 1, 1, tzinfo=UTC))
>>> event.type in TURN_EVENTS, "deal" in TURN_EVENTS
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

TURN_EVENTS = frozenset({"deal", "bid", "play", "next_hand", "replace"})
"""Events after which another seat may be due to act (or the same seat, anew: a
robot put in an absent person's seat, :mod:`espadas.tables.absent`)."""


@dataclass(frozen=True)
class Event:
    """One entry of a table's log: ``seq`` counts from 1."""

    seq: int
    type: str
    data: dict[str, Any]
    at: datetime
