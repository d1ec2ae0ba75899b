"""Replay of a finished game, trick by trick, with every hand visible.

Each step is the engine's own replay of the record cut after that trick, so
the rules are never re-implemented here. Only for games that are over: it
shows every hand.

>>> from espadas.engine import Game, Rules
>>> from espadas.robots.random_robot import RandomRobot
>>> import random
>>> game = Game.new(Rules.from_preset("pagat"), seed=2)
>>> robot = RandomRobot(random.Random(2))
>>> while game.phase != "hand_end":
...     game.apply(robot.act(game.view_for(game.to_act)), by=game.to_act)
>>> game.abandon(1)
>>> steps = replay_steps(game.record())
>>> len(steps), steps[0]["trick_number"], steps[-1]["trick_number"], steps[-1]["hands"][0]
(14, 0, 13, '...')
"""

from __future__ import annotations

import copy
from typing import Any

from espadas.engine import Card, CardSet
from espadas.engine.record import replay


def _cut(record: dict[str, Any], hand: int, plays: int) -> dict[str, Any]:
    cut = copy.deepcopy(record)
    cut["hands"] = cut["hands"][: hand + 1]
    last = cut["hands"][hand]
    last["plays"] = last.get("plays", [])[:plays]
    accusation = last.get("accusation")
    if accusation is not None and accusation["after_play"] > plays:
        del last["accusation"]
    cut.pop("end", None)
    return cut


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The state after bidding and after each trick of every hand: the cards each
    seat still holds, the last trick, tricks taken, scores and bags."""
    game = replay(record)
    rules = game.rules
    n = rules.players
    steps: list[dict[str, Any]] = []
    for h, entry in enumerate(record["hands"]):
        plays = len(entry.get("plays", []))
        cuts = list(range(0, plays + 1, n))
        if plays % n:
            cuts.append(plays)
        for k in cuts:
            state = replay(_cut(record, h, k))
            hand = state.hands[-1]
            done = hand.completed_tricks()
            last = done[-1] if done and k else None
            steps.append(
                {
                    "hand_number": h + 1,
                    "trick_number": len(done) if k else 0,
                    "dealer": hand.dealer,
                    "bids": list(entry.get("bids", [])),
                    "hands": [str(CardSet(m)) for m in hand.held],
                    "trick": None
                    if last is None
                    else {
                        "leader": last[0],
                        "cards": [str(Card(c)) for c in last[1]],
                        "winner": last[2],
                    },
                    "tricks_taken": list(hand.tricks),
                    "scores": list(state.scores),
                    "bags": list(state.bags),
                    "sides": rules.side_names(),
                    "players": n,
                }
            )
    return steps
