"""The robots at the seats of an arena match, play after play.

A :class:`Roster` makes a fresh robot for every seat of every play and closes it
after the play, except *lasting* robots (``lasting = True``: an external
``cmd:`` program, :class:`~espadas.robots.external.ExternalRobot`). Like a chess
GUI with its UCI engine, the roster keeps one lasting robot for each seat a role
holds in a play (the role's first seat, its second…) until :meth:`Roster.close`,
so that its program starts once and answers request after request:

- before each play it calls the robot's ``new_hand()`` (its restart allowance is
  full again, as a fresh robot's would be);
- after every decision in which the robot counted a fault of its own, or the
  arena found one, it calls ``restart()``: the next decision gets a fresh
  process, so a confused program never carries its trouble forward;
- after each play it reports the faults the robot counted during that play.

A lasting robot is made with the seed of the first play it serves.

>>> from espadas.robots.random_robot import RandomRobot
>>> import random
>>> made = []
>>> def make(role, seed):
...     made.append(role)
...     return RandomRobot(random.Random(seed))
>>> with Roster(make) as roster:
...     first = roster.robots(("A", "B", "A", "B"), [1, 2, 3, 4])
...     faults = roster.end_play()
...     second = roster.robots(("B", "A", "B", "A"), [5, 6, 7, 8])
>>> len(made), faults, first[0] is second[1]
(8, [0, 0, 0, 0], False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Protocol, cast

from espadas.engine import Action, PlayerView
from espadas.robots.base import Robot


class Lasting(Protocol):
    """A robot the roster keeps for a whole match (``lasting = True``)."""

    faults: int

    def act(self, view: PlayerView) -> Action: ...

    def new_hand(self) -> None: ...

    def restart(self) -> None: ...

    def close(self) -> None: ...


def lasting(robot: object) -> Lasting | None:
    """``robot`` as a lasting robot, or ``None`` when it is made for one play."""
    return cast(Lasting, robot) if getattr(robot, "lasting", False) is True else None


def own_faults(robot: object) -> int:
    """The faults ``robot`` counted itself (its ``faults`` attribute, 0 if none)."""
    own = getattr(robot, "faults", 0)
    return own if isinstance(own, int) and not isinstance(own, bool) else 0


class Roster:
    """The robots of one match, or of the run of deals one worker process plays.

    ``make(role, seed)`` makes a robot."""

    def __init__(self, make: Callable[[str, int], Robot]) -> None:
        self.make = make
        self.kept: dict[tuple[str, int], Robot] = {}
        self.seated: list[Robot] = []
        self.tallied: list[int] = []  # each seat's own faults when the play began
        self.seen: list[int] = []  # each seat's own faults after its last decision

    def __enter__(self) -> Roster:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def robots(self, roles: Sequence[str], seeds: Sequence[int]) -> list[Robot]:
        """One robot per seat for the next play: ``roles[seat]`` plays ``seat``, a
        fresh robot made with ``seeds[seat]`` unless a lasting one is kept for it."""
        robots: list[Robot] = []
        held: dict[str, int] = {}
        for role, seed in zip(roles, seeds, strict=True):
            key = (role, held.get(role, 0))
            held[role] = key[1] + 1
            robot = self.kept.get(key)
            if robot is None:
                robot = self.make(role, seed)
                if lasting(robot) is not None:
                    self.kept[key] = robot
            robots.append(robot)
        for robot in robots:
            kept = lasting(robot)
            if kept is not None:
                kept.new_hand()
        self.seated = robots
        self.tallied = [own_faults(r) for r in robots]
        self.seen = list(self.tallied)
        return robots

    def watch(self, decided: Callable[[int, float], None]) -> Callable[[int, float], None]:
        """``decided`` (called with each decision's seat and time), which also
        restarts a lasting robot that counted a fault in that decision."""

        def watched(seat: int, ms: float) -> None:
            decided(seat, ms)
            own = own_faults(self.seated[seat])
            if own > self.seen[seat]:
                self.seen[seat] = own
                self._restart(seat)

        return watched

    def watch_faults(self, fault: Callable[[int], None]) -> Callable[[int], None]:
        """``fault`` (called with the seat of each fault the arena finds), which
        also restarts a lasting robot."""

        def watched(seat: int) -> None:
            fault(seat)
            self._restart(seat)

        return watched

    def _restart(self, seat: int) -> None:
        kept = lasting(self.seated[seat])
        if kept is not None:
            kept.restart()

    def end_play(self) -> list[int]:
        """The faults each seat's robot counted itself during the play that ended;
        closes the robots that do not last."""
        faults: list[int] = []
        for robot, before in zip(self.seated, self.tallied, strict=True):
            own = own_faults(robot)
            if lasting(robot) is None:
                close = getattr(robot, "close", None)
                if callable(close):
                    close()
                faults.append(own)
            else:
                faults.append(own - before)
        self.seated, self.tallied, self.seen = [], [], []
        return faults

    def close(self) -> None:
        """Closes the lasting robots (a later play makes new ones)."""
        kept, self.kept = self.kept, {}
        for robot in kept.values():
            close = getattr(robot, "close", None)
            if callable(close):
                close()
