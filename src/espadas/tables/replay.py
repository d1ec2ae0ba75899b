"""Replay of a finished game, trick by trick, with every hand visible.

One game is driven forward through the record by the engine, so the rules are
never re-implemented here, and a snapshot is taken after the bids and after
each trick: linear in the length of the game. Each snapshot is what the engine's
replay of the record cut at that point would show (``tests/tables`` checks it).
Only for games that are over: it shows every hand.

>>> from espadas.engine import Game, Rules
>>> from espadas.robots.random_robot import RandomRobot
>>> import random
>>> game = Game.new(Rules.from_preset("pagat"), seed=2)
>>> robot = RandomRobot(random.Random(2))
>>> while game.phase != "hand_end":
...     game.apply(robot.act(game.view_for(game.to_act)), by=game.to_act)
>>> game.abandon(1)
>>> from espadas.engine.record import game_record
>>> steps = replay_steps(game_record(game))
>>> len(steps), steps[0]["trick_number"], steps[-1]["trick_number"], steps[-1]["hands"][0]
(14, 0, 13, '...')
"""

from __future__ import annotations

from typing import Any

from espadas.engine import Card, CardSet, Game
from espadas.engine.codec import bid_from_json, card_from_json
from espadas.engine.errors import EspadasError, ReplayError
from espadas.engine.record import check_record


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The state after bidding and after each trick of every hand: the cards each
    seat still holds, the last trick, tricks taken, scores and bags. Raises
    :class:`RecordError` for a malformed record and :class:`ReplayError` at the
    first illegal action, as the engine's replay does."""
    rules = check_record(record)
    hands = record["hands"]
    game = Game(rules, first_dealer=hands[0]["dealer"] if hands else 0)
    steps: list[dict[str, Any]] = []
    for h, entry in enumerate(hands):
        if h > 0:
            try:
                game.next_hand()
            except EspadasError as exc:
                raise ReplayError(h, 0, f"hand {h} cannot follow hand {h - 1}: {exc}") from None
        game.deal([int(CardSet.parse(t)) for t in entry["deal"]])
        _drive_hand(game, h, entry, steps)
    return steps


def _drive_hand(game: Game, h: int, entry: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    """Plays hand ``h`` of the record, appending a snapshot after the bids, after
    every ``players`` plays and after the last play."""
    n = game.rules.players
    plays = entry.get("plays", [])
    accusation = entry.get("accusation")
    k = 0
    try:
        for raw in entry.get("bids", []):
            game.bid(bid_from_json(raw))
            k += 1
        for i in range(len(plays) + 1):
            if accusation is not None and accusation["after_play"] == i:
                game.accuse(accusation["by"], accusation["against"])
            if i % n == 0 or i == len(plays):
                steps.append(_snapshot(game, h, entry, i))
            if i < len(plays):
                game.play(card_from_json(plays[i]))
                k += 1
    except EspadasError as exc:
        raise ReplayError(h, k, f"hand {h}, action {k}: {exc}") from None


def _snapshot(game: Game, h: int, entry: dict[str, Any], plays: int) -> dict[str, Any]:
    """What the replay page shows of hand ``h`` after ``plays`` cards."""
    rules = game.rules
    hand = game.hands[-1]
    done = hand.completed_tricks()
    last = done[-1] if done and plays else None
    return {
        "hand_number": h + 1,
        "trick_number": len(done) if plays else 0,
        "dealer": hand.dealer,
        "bids": _bids_by_seat(hand),
        "hands": [str(CardSet(m)) for m in hand.held],
        "trick": None
        if last is None
        else {
            "leader": last[0],
            "cards": [str(Card(c)) for c in last[1]],
            "winner": last[2],
        },
        "tricks_taken": list(hand.tricks),
        "scores": list(game.scores),
        "bags": list(game.bags),
        "sides": rules.side_names(),
        "players": rules.players,
    }


def _bids_by_seat(hand: Any) -> list[Any]:
    """The bids by seat (``"blind_nil"`` for a blind nil, ``None`` if not made), as
    the page shows them beside each seat; the record lists them in bidding order."""
    return [
        None if b is None else ("blind_nil" if hand.blind[s] else b)
        for s, b in enumerate(hand.bids)
    ]
