"""Par of a daily challenge: the robots' own play of its boards, the robot of the
partner's level in the player's seat, with the same partner and opponents.

The boards are played as one game, board ``i`` as hand ``i``, as a player's table
plays them. Every decision is made where the tables' robots think (the robot
pool's processes, or the queue's workers: :class:`~espadas.server.robot_pool.Robots`),
never on the event loop; the engine only applies them.
"""

from __future__ import annotations

import hashlib

from espadas.engine import Action, Deal, Game, NextHand, deal_scores
from espadas.robots.base import fallback
from espadas.server.robot_pool import Robots
from espadas.tables.boards import Boards
from espadas.tables.challenge import SEAT


def seat_levels(players: int, partner: str, opponents: str, partnerships: bool) -> list[str]:
    """The robot level of each seat: the player's seat and their partner's play at
    ``partner``'s level, the others at ``opponents``'.

    >>> seat_levels(4, "normal", "experto", True)
    ['normal', 'experto', 'normal', 'experto']
    """
    return [
        partner if seat == SEAT or (partnerships and seat % 2 == SEAT % 2) else opponents
        for seat in range(players)
    ]


def _seed(day: str, board: int, step: int) -> int:
    digest = hashlib.sha256(f"espadas-par:{day}:{board}:{step}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


async def play_par(
    robots: Robots, day: str, boards: Boards, levels: list[str], budget_ms: float
) -> list[int]:
    """The deal score of the player's side on each board, played by robots."""
    rules = boards.rules
    game = Game(rules, first_dealer=boards.boards[0].dealer)
    side = rules.side_of(SEAT)
    par: list[int] = []
    for i, board in enumerate(boards.boards):
        if i:
            game.apply(NextHand())
        game.apply(Deal(board.deal))
        step = 0
        while game.phase in ("bidding", "playing"):
            seat = game.to_act
            assert seat is not None
            view = game.view_for(seat)
            action: Action
            try:
                action, _faults = await robots.decide(
                    levels[seat], None, _seed(day, board.number, step), budget_ms, view
                )
            except Exception:  # a robot's failure must not stop par: a legal move
                action = fallback(view)
            if action not in game.legal_actions():
                action = fallback(view)
            game.apply(action, by=seat)
            step += 1
        hand = game.hands[-1]
        bids = [0 if b is None else b for b in hand.bids]
        points, _ = deal_scores(rules, bids, hand.blind, hand.tricks)
        par.append(points[side])
    return par
