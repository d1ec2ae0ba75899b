"""What a robot is: something that turns a seat's view into an action.

A robot receives only a :class:`~espadas.engine.PlayerView` (never the game
itself), so it cannot see what its seat may not know.
"""

from __future__ import annotations

from typing import Protocol

from espadas.engine import Action, PlayerView


class Robot(Protocol):
    """A player program. ``act`` is called only when ``view.legal`` is not empty
    (the seat is to bid or play) and returns one of ``view.legal``."""

    def act(self, view: PlayerView) -> Action:
        """The action this robot takes in the situation ``view`` describes."""
        ...
