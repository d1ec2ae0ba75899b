"""The replay page's steps, taken in one pass, are the step-by-step definition:
cut the record after the bids and after each trick, rebuild it with the engine's
replay, read the state."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import play_random, rule_sets
from espadas.engine import Card, CardSet, Game, Rules
from espadas.engine.record import game_record, rebuild
from espadas.tables.replay import replay_steps

Record = dict[str, Any]


def _cut(record: Record, hand: int, plays: int) -> Record:
    cut = copy.deepcopy(record)
    cut["hands"] = cut["hands"][: hand + 1]
    last = cut["hands"][hand]
    last["plays"] = last.get("plays", [])[:plays]
    accusation = last.get("accusation")
    if accusation is not None and accusation["after_play"] > plays:
        del last["accusation"]
    cut.pop("end", None)
    return cut


def steps_by_definition(record: Record) -> list[dict[str, Any]]:
    """The replay steps as first written: one replay of the cut record per step."""
    game = rebuild(record)
    rules = game.rules
    n = rules.players
    steps: list[dict[str, Any]] = []
    for h, entry in enumerate(record["hands"]):
        plays = len(entry.get("plays", []))
        cuts = list(range(0, plays + 1, n))
        if plays % n:
            cuts.append(plays)
        for k in cuts:
            state = rebuild(_cut(record, h, k))
            hand = state.hands[-1]
            done = hand.completed_tricks()
            last = done[-1] if done and k else None
            steps.append(
                {
                    "hand_number": h + 1,
                    "trick_number": len(done) if k else 0,
                    "dealer": hand.dealer,
                    "bids": [
                        None if b is None else ("blind_nil" if hand.blind[s] else b)
                        for s, b in enumerate(hand.bids)
                    ],
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


FORCED: list[dict[str, Any]] = [
    {"players": 4, "partnerships": True},
    {"players": 4, "renege": "allowed", "partnerships": True},
    {"players": 5, "partnerships": False},
    {"blind_nil": True},
    {"players": 5, "partnerships": False, "blind_nil": True},
]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 3))
def test_one_pass_equals_the_step_by_step_definition(
    data: st.DataObject, seed: int, hands: int
) -> None:
    force = data.draw(st.sampled_from(FORCED))
    rules = data.draw(rule_sets(force=force, repair=True))
    record = game_record(play_random(rules, seed, max_hands=hands).game)
    assert replay_steps(record) == steps_by_definition(record)


def test_an_accusation_and_an_unfinished_trick() -> None:
    game = Game.new(Rules.from_preset("estandar"), seed=3)
    while game.phase == "bidding":
        game.bid(3)
    for _ in range(6):
        game.play(next(iter(game.legal_plays())))
    game.accuse(1, 0)
    record = game_record(game)
    assert record["hands"][0]["accusation"]["after_play"] == 6
    steps = replay_steps(record)
    assert steps == steps_by_definition(record)
    assert [s["trick_number"] for s in steps] == [0, 1, 1]
    assert steps[-1]["trick"] == steps[-2]["trick"]


def test_five_players_with_blind_nil() -> None:
    rules = Rules.from_preset("sala", players=5, partnerships=False, blind_nil=True)
    for seed in (1, 2, 3):
        record = game_record(play_random(rules, seed, max_hands=2).game)
        steps = replay_steps(record)
        assert steps == steps_by_definition(record)
        assert {s["players"] for s in steps} == {5}


def test_the_bids_are_by_seat_as_the_page_shows_them() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=4)
    dealer = game.hands[-1].dealer
    assert dealer != 3  # else bidding order would be seat order
    wanted = {(dealer + 1 + i) % 4: value for i, value in enumerate((1, 2, 13, 4))}
    while game.phase == "bidding":
        seat = game.to_act
        assert seat is not None
        game.bid(wanted[seat])
    record = game_record(game)
    assert record["hands"][0]["bids"] == [1, 2, 13, 4]  # the record: in bidding order
    steps = replay_steps(record)
    assert steps[0]["bids"] == [wanted[s] for s in range(4)]  # the steps: by seat
