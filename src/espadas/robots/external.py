"""External robots: programs that speak ``espadas-robot/1`` (placeholder)."""

from __future__ import annotations

from espadas.engine import Action, PlayerView


class ExternalRobot:
    def __init__(self, argv: list[str], timeout: float) -> None:
        self.argv = argv
        self.timeout = timeout
        self.faults = 0

    def act(self, view: PlayerView) -> Action:
        raise NotImplementedError

    def close(self) -> None:
        pass
