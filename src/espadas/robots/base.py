"""What a robot is: something that turns a seat's view into an action.

A robot receives only a :class:`~espadas.engine.PlayerView` (never the game
itself), so it cannot see what its seat may not know.
"""

from __future__ import annotations

from typing import Protocol

from espadas.engine import Action, Bid, Play, PlayerView


class Robot(Protocol):
    """A player program. ``act`` is called only when ``view.legal`` is not empty
    (the seat is to bid or play) and returns one of ``view.legal``."""

    def act(self, view: PlayerView) -> Action:
        """The action this robot takes in the situation ``view`` describes."""
        ...


def fallback(view: PlayerView) -> Action:
    """The one legal move made in place of a robot at fault (a program that crashed,
    stalled or answered badly; a robot at a table that failed): the lowest proper card, else
    the lowest legal bid of 1 or more, else the first legal bid (else the first
    legal action of any kind, such as ``NextHand``).

    >>> from espadas.engine import Game, Rules
    >>> fallback(Game.new(Rules.from_preset("pagat"), seed=7).view_for(3))
    Bid(value=1)
    """
    if view.phase == "playing" and view.proper_plays:
        return Play(next(iter(view.proper_plays)))
    bids = [a for a in view.legal if isinstance(a, Bid)]
    if bids:
        counted = [b for b in bids if isinstance(b.value, int) and b.value >= 1]
        return min(counted, key=lambda b: b.value) if counted else bids[0]
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
    return view.legal[0]
