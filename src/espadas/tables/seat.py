"""Who sits in a seat of a table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Seat:
    """Who sits in a seat: a person (``player`` id) or a robot (``robot`` level)."""

    name: str
    player: str | None = None
    robot: str | None = None
