"""The robot protocol ``espadas-robot/1``: requests from views, answers, views
from requests, ``espadas robot`` as a program, and external robots that fault."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from espadas.engine import (
    BLIND_NIL,
    Action,
    Bid,
    Card,
    Game,
    Look,
    NextHand,
    Play,
    PlayerView,
    Rules,
)
from espadas.engine.record import game_record
from espadas.robots import RandomRobot, Robot
from espadas.robots.base import fallback
from espadas.robots.external import MAX_RESTARTS, ExternalRobot
from espadas.robots.protocol import (
    PROTOCOL,
    REQUEST_KEYS,
    ProtocolFault,
    actions_for,
    parse_line,
    parse_response,
    request_for,
    response_for,
    view_from_request,
)
from robot_helpers import play_robots

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = str(Path(__file__).resolve().parents[1] / "fixtures" / "robot_fixture.py")
ROBOT_CMD = [sys.executable, "-m", "espadas.cli.main", "robot"]


def fixture(*args: str) -> list[str]:
    return [sys.executable, FIXTURE, *args]


# --------------------------------------------------------------------------
# driving games


def views_of(
    rules: Rules, seed: int, *, hands: int = 1, choose: Callable[[PlayerView], Action] | None = None
) -> Iterator[tuple[Game, PlayerView]]:
    """Every decision of a game played by random robots (``hands`` hands at most)."""
    game = Game.new(rules, seed=seed)
    robots = [RandomRobot(random.Random(seed * 10 + s)) for s in range(rules.players)]
    while not game.over:
        if game.phase == "hand_end":
            if len(game.scored) >= hands:
                return
            game.apply(NextHand())
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        yield game, view
        game.apply(choose(view) if choose else robots[seat].act(view))


def play_game(
    game: Game, robots: Mapping[int, Robot], *, max_hands: int = 12, max_seconds: float = 60
) -> Game:
    """Plays until the game is over; checks each action is legal and no renege."""
    play_robots(game, robots, max_hands=max_hands, max_seconds=max_seconds)
    return game


def quick_rules() -> Rules:
    """A game that ends after a hand or two of random play."""
    return Rules.from_preset("pagat", target=100, mercy=-50)


# --------------------------------------------------------------------------
# request_for


def test_request_while_bidding() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    view = game.view_for(3)
    req = request_for(view)
    assert list(req) == list(REQUEST_KEYS)
    assert req["protocol"] == PROTOCOL == "espadas-robot/1"
    assert req["phase"] == "bid"
    assert req["rules"] == {"preset": "pagat"}
    assert req["players"] == 4
    assert req["seat"] == 3 and req["dealer"] == game.dealer == 2
    assert view.held is not None
    assert req["hand"] == [str(c) for c in sorted(view.held, reverse=True)]
    assert len(req["hand"]) == 13
    assert req["bids"] == [None, None, None, None]
    assert req["tricks"] == [] and req["trick"] is None
    assert req["scores"] == {"ns": 0, "ew": 0} and req["bags"] == {"ns": 0, "ew": 0}
    assert req["legal"] == list(range(14))
    game.apply(Bid(4))
    req = request_for(game.view_for(0))
    assert req["seat"] == 0 and req["bids"] == [None, None, None, 4]
    json.dumps(req)  # plain JSON


def test_request_mid_trick_and_later_hand() -> None:
    rules = Rules.from_preset("pagat")
    seen_mid = seen_scores = False
    for game, view in views_of(rules, 11, hands=2):
        if view.phase != "playing":
            continue
        req = request_for(view)
        hand = game.hand
        assert req["phase"] == "play"
        assert req["seat"] == game.to_act
        assert req["bids"] == list(hand.bids)
        assert [t["leader"] for t in req["tricks"]] == [
            lead for lead, _, _ in hand.completed_tricks()
        ]
        assert [t["cards"] for t in req["tricks"]] == [
            [str(Card(c)) for c in cards] for _, cards, _ in hand.completed_tricks()
        ]
        current = hand.current_trick()
        assert current is not None
        assert req["trick"] == {"leader": current[0], "cards": [str(Card(c)) for c in current[1]]}
        assert sorted(req["legal"]) == sorted(str(c) for c in game.legal_plays())
        assert req["scores"] == {"ns": game.scores[0], "ew": game.scores[1]}
        assert req["bags"] == {"ns": game.bags[0], "ew": game.bags[1]}
        assert len(req["hand"]) == view.cards_left[view.seat] == hand.held[view.seat].bit_count()
        if req["tricks"] and req["trick"]["cards"]:
            seen_mid = True
        if len(game.hands) == 2:
            seen_scores = seen_scores or req["scores"] != {"ns": 0, "ew": 0}
    assert seen_mid and seen_scores


def test_request_trick_due_but_empty() -> None:
    for _game, view in views_of(Rules.from_preset("pagat"), 5):
        if view.phase == "playing" and view.trick is not None and not view.trick.cards:
            req = request_for(view)
            assert req["trick"] == {"leader": view.seat, "cards": []}
            return
    raise AssertionError("no lead found")


def test_request_blind_nil_face_down() -> None:
    game = Game.new(Rules.from_preset("cien"), seed=3)
    view = game.view_for(2)
    assert Look(2) in view.legal and view.held is None
    req = request_for(view)
    assert req["phase"] == "bid"
    assert req["rules"] == {"preset": "cien"}
    assert req["hand"] == []
    assert req["legal"] == [*range(14), BLIND_NIL]
    # once it has looked: its cards, and no blind nil any more
    game.apply(Look(2))
    req = request_for(game.view_for(2))
    assert len(req["hand"]) == 13 and BLIND_NIL not in req["legal"]
    game.apply(Bid(3))
    game.apply(Bid(BLIND_NIL))  # seat 3, face down: shown in the next seat's request
    assert request_for(game.view_for(0))["bids"] == [None, None, 3, BLIND_NIL]


def test_request_individual_five_players() -> None:
    rules = Rules.from_preset("sala", players=5)
    game = Game.new(rules, seed=4)
    seat = game.to_act
    assert seat is not None
    req = request_for(game.view_for(seat))
    assert req["rules"] == {"preset": "sala", "players": 5, "partnerships": False}
    assert req["players"] == 5
    assert len(req["hand"]) == 10 and "2C" not in req["hand"] and "2D" not in req["hand"]
    assert req["bids"] == [None] * 5
    assert req["scores"] == {str(s): 0 for s in range(5)} == req["bags"]
    assert req["legal"] == list(range(11))
    for _game, view in views_of(rules, 4):
        if view.phase == "playing" and view.tricks:
            req = request_for(view)
            assert all(len(t["cards"]) == 5 for t in req["tricks"])
            break


def test_request_renege_allowed_offers_proper_plays_only() -> None:
    rules = Rules.from_preset("estandar")
    assert rules.renege == "allowed"
    found = 0
    for _game, view in views_of(rules, 2):
        if view.phase != "playing":
            continue
        req = request_for(view)
        accepted = {str(a.card) for a in view.legal if isinstance(a, Play)}
        assert set(req["legal"]) == {str(c) for c in view.proper_plays}
        assert set(req["legal"]) <= accepted
        if set(req["legal"]) < accepted:
            found += 1
    assert found > 3  # moments where a renege was possible and left out


def test_request_refused_when_nothing_is_due() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    with pytest.raises(ValueError, match="no bid or card"):
        request_for(game.view_for(0))  # seat 3 is to bid


# --------------------------------------------------------------------------
# parse_response


def test_parse_response() -> None:
    bid_req = {"phase": "bid", "legal": [0, 1, 2, 3, BLIND_NIL]}
    play_req = {"phase": "play", "legal": ["QH", "2H"]}
    assert parse_response({"bid": 3}, bid_req) == Bid(3)
    assert parse_response({"bid": "blind_nil"}, bid_req) == Bid(BLIND_NIL)
    assert parse_response({"card": "QH"}, play_req) == Play(Card("QH"))
    assert parse_response({"card": "2h", "note": "extra keys are fine"}, play_req) == Play(
        Card("2H")
    )
    assert parse_line('{"bid": 0}\n', bid_req) == Bid(0)
    cases: list[tuple[Any, Mapping[str, Any], str, str]] = [
        ([3], bid_req, "shape", "JSON object"),
        ("QH", play_req, "shape", "JSON object"),
        ({"card": "QH"}, bid_req, "shape", 'expected {"bid": ...}'),
        ({"bid": 2}, play_req, "shape", 'expected {"card": ...}'),
        ({"move": 2}, bid_req, "shape", "keys: move"),
        ({"bid": 2, "card": "QH"}, bid_req, "shape", "both"),
        ({"bid": "3"}, bid_req, "type", "integer"),
        ({"bid": True}, bid_req, "type", "integer"),
        ({"bid": 2.0}, bid_req, "type", "integer"),
        ({"bid": None}, bid_req, "type", "integer"),
        ({"card": 12}, play_req, "type", "string"),
        ({"card": "XX"}, play_req, "type", "not a card"),
        ({"bid": 7}, bid_req, "illegal", "not a legal bid"),
        ({"card": "AS"}, play_req, "illegal", "not a legal card"),
        ({"error": "lost"}, bid_req, "error", "lost"),
    ]
    for obj, req, kind, text in cases:
        with pytest.raises(ProtocolFault, match=None) as info:
            parse_response(obj, req)
        assert info.value.kind == kind, obj
        assert text in str(info.value), (obj, str(info.value))
        assert isinstance(info.value, ValueError)
    with pytest.raises(ProtocolFault) as info:
        parse_line("nonsense", bid_req)
    assert info.value.kind == "json"


def test_actions_and_responses() -> None:
    game = Game.new(Rules.from_preset("cien"), seed=3)
    view = game.view_for(2)
    assert actions_for(view, Bid(4)) == (Look(2), Bid(4))
    assert actions_for(view, Bid(0)) == (Look(2), Bid(0))
    assert actions_for(view, Bid(BLIND_NIL)) == (Bid(BLIND_NIL),)
    assert response_for(Bid(BLIND_NIL)) == {"bid": "blind_nil"}
    assert response_for(Play(Card("TH"))) == {"card": "TH"}
    with pytest.raises(ValueError):
        response_for(Look(2))


# --------------------------------------------------------------------------
# view_from_request


def check_round_trip(view: PlayerView) -> None:
    back = view_from_request(json.loads(json.dumps(request_for(view))))
    assert back.seat == view.seat and back.to_act == view.to_act
    assert back.phase == view.phase and back.dealer == view.dealer
    assert back.rules == view.rules
    assert back.held == view.held
    assert back.bids == view.bids
    assert back.tricks == view.tricks
    assert back.trick == view.trick
    assert back.scores == view.scores and back.bags == view.bags
    assert back.tricks_taken == view.tricks_taken
    assert back.cards_left == view.cards_left
    assert back.spades_broken == view.spades_broken
    assert back.proper_plays == view.proper_plays
    expected = tuple(
        a
        for a in view.legal
        if isinstance(a, Bid) or (isinstance(a, Play) and a.card in view.proper_plays)
    )
    assert back.legal == expected
    assert back.looked[view.seat] == view.looked[view.seat]


@pytest.mark.parametrize(
    ("preset", "options", "seed"),
    [
        ("pagat", {}, 1),
        ("estandar", {}, 2),
        ("cien", {}, 3),
        ("sala", {"players": 5}, 4),
        ("sala", {"players": 3, "no_hell": True}, 5),
        ("sala", {"players": 6}, 6),
        ("estandar", {"suicide": True, "first_lead": "two_of_clubs"}, 7),
    ],
)
def test_view_round_trip(preset: str, options: dict[str, Any], seed: int) -> None:
    rules = Rules.from_preset(preset, **options)
    count = 0
    for _game, view in views_of(rules, seed, hands=2):
        check_round_trip(view)
        count += 1
    assert count >= rules.players * (rules.hand_size + 1)


def test_view_from_request_refuses_malformed() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    good = request_for(game.view_for(3))
    play_req = next(request_for(v) for _g, v in views_of(Rules.from_preset("pagat"), 1) if v.tricks)

    def bad(**changes: Any) -> dict[str, Any]:
        base = play_req if changes.pop("play", False) else good
        return {**json.loads(json.dumps(base)), **changes}

    missing = dict(good)
    del missing["legal"]
    cases: list[tuple[Any, str]] = [
        ([1, 2], "JSON object"),
        (missing, "lacks legal"),
        (bad(protocol="espadas-robot/2"), "protocol"),
        (bad(phase="pass"), "phase"),
        (bad(rules={"preset": "poker"}), "rules"),
        (bad(rules={"preset": "pagat", "players": 7}), "rules"),
        (bad(players=5), "players"),
        (bad(seat=4), "seat"),
        (bad(seat="3"), "seat"),
        (bad(dealer=-1), "dealer"),
        (bad(hand=["AS", "XX"]), "not a card"),
        (bad(hand=good["hand"][:12]), "holds 13"),
        (bad(hand=[good["hand"][0]] * 13), "twice"),
        (bad(bids=[None, None, None]), "bids"),
        (bad(bids=[None, 99, None, None]), "bid"),
        (bad(bids=[None, None, None, 3]), "already bid"),
        (bad(legal=[]), "legal"),
        (bad(legal=[14]), "legal"),
        (bad(scores={"ns": 0}), "scores"),
        (bad(bags={"ns": 0, "ew": "1"}), "bags"),
        (bad(tricks=[{"leader": 0, "cards": ["AS"]}]), "tricks"),
        (bad(trick={"leader": 0, "cards": []}), "no card"),
        (bad(play=True, trick=None), "trick"),
        (bad(play=True, legal=["ZZ"]), "legal"),
        (bad(play=True, seat=(play_req["seat"] + 1) % 4), "seat"),
        (bad(play=True, bids=[None, 1, 2, 3]), "every seat bids"),
        (bad(play=True, tricks=[{"leader": 0, "cards": ["AS", "KS", "QS"]}]), "tricks[0]"),
        (bad(play=True, trick={"leader": 9, "cards": []}), "leader"),
    ]
    for req, text in cases:
        with pytest.raises(ProtocolFault) as info:
            view_from_request(req)
        assert info.value.kind == "request"
        assert text in str(info.value), (text, str(info.value))


# --------------------------------------------------------------------------
# espadas robot (the program)


def run_robot_program(lines: list[str], level: str = "aleatorio") -> tuple[list[Any], int]:
    proc = subprocess.run(
        [*ROBOT_CMD, level, "--seed", "1"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    return [json.loads(x) for x in proc.stdout.splitlines()], proc.returncode


def test_robot_program_answers_errors_and_goes_on() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    req = request_for(game.view_for(3))
    broken = dict(req, seat=9)
    answers, code = run_robot_program(
        ["this is not json", "[1]", "{}", json.dumps(broken), "", json.dumps(req)]
    )
    assert code == 0
    assert len(answers) == 5
    assert all(set(a) == {"error"} and isinstance(a["error"], str) for a in answers[:4])
    assert "seat" in answers[3]["error"]
    assert set(answers[4]) == {"bid"} and answers[4]["bid"] in req["legal"]


@pytest.mark.parametrize("level", ["normal", "experto"])
def test_robot_program_levels_face_down_and_quit(level: str) -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    req = request_for(game.view_for(3))
    blind = Game.new(Rules.from_preset("cien"), seed=3)
    face_down = request_for(blind.view_for(2))  # these robots would look first
    lines = [json.dumps(req), json.dumps(face_down), '{"quit": true}', json.dumps(req)]
    proc = subprocess.run(
        [*ROBOT_CMD, level, "--seed", "1", "--budget-ms", "20"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(answers) == 2
    assert answers[0]["bid"] in req["legal"] and answers[1]["bid"] in face_down["legal"]


def test_robot_program_refuses_unknown_level() -> None:
    proc = subprocess.run(
        [*ROBOT_CMD, "omnisciente"], capture_output=True, text=True, timeout=30, input=""
    )
    assert proc.returncode == 2 and proc.stdout == ""


# --------------------------------------------------------------------------
# external robots: whole games through the protocol


def external_game(rules: Rules, seed: int, level: str = "aleatorio") -> tuple[Game, int]:
    robots = {s: ExternalRobot([*ROBOT_CMD, level, "--seed", "3"], timeout=10) for s in range(4)}
    try:
        game = play_game(Game.new(rules, seed=seed), robots)
    finally:
        for robot in robots.values():
            robot.close()
    for robot in robots.values():
        assert robot.faults == 0, robot.fault_log
    return game, sum(r.answers for r in robots.values())


def test_external_random_robots_play_whole_games() -> None:
    rules = Rules.from_preset("cien", mercy=-200)  # blind nil, Look then the bid
    first, answers = external_game(rules, 21)
    assert first.over and answers > 50
    again, _ = external_game(rules, 21)
    assert game_record(again) == game_record(first)
    other, _ = external_game(Rules.from_preset("estandar", target=100, mercy=-100), 22)
    assert other.over


def test_external_robot_looks_then_bids() -> None:
    game = Game.new(Rules.from_preset("cien"), seed=3)
    with ExternalRobot(fixture("honest"), timeout=10) as robot:
        view = game.view_for(2)
        first = robot.act(view)
        assert first == Look(2)
        game.apply(first)
        second = robot.act(game.view_for(2))
        assert second == Bid(13) and robot.answers == 1
        game.apply(second)
    with ExternalRobot(fixture("blind"), timeout=10) as robot:
        assert robot.act(game.view_for(3)) == Bid(BLIND_NIL)
        assert robot.faults == 0


# --------------------------------------------------------------------------
# external robots that fault


def faulty_game(argv: list[str], timeout: float = 5.0, **kw: Any) -> ExternalRobot:
    """A game with the faulty program at seat 0 and random robots elsewhere."""
    rules = quick_rules()
    bad = ExternalRobot(argv, timeout=timeout, **kw)
    robots: dict[int, Robot] = {s: RandomRobot(random.Random(s)) for s in (1, 2, 3)}
    robots[0] = bad
    try:
        game = play_game(Game.new(rules, seed=8), robots)
    finally:
        bad.close()
    assert game.over
    assert bad.faults == len(bad.fault_log) > 0
    assert all(len(entry) <= 160 for entry in bad.fault_log)
    return bad


def kinds(robot: ExternalRobot) -> set[str]:
    return {entry.split(":", 1)[0] for entry in robot.fault_log}


def test_program_that_crashes_at_once() -> None:
    bad = faulty_game(fixture("crash"))
    assert bad.starts == MAX_RESTARTS + 1 and bad.answers == 0
    assert kinds(bad) <= {"crash", "pipe", "gave up"}
    assert "gave up" in kinds(bad) and kinds(bad) & {"crash", "pipe"}
    assert any("status 3" in e for e in bad.fault_log)


def test_program_that_cannot_start() -> None:
    bad = faulty_game([str(ROOT / "no-such-robot")])
    assert kinds(bad) == {"start", "gave up"}


def test_program_that_answers_garbage() -> None:
    bad = faulty_game(fixture("garbage"))
    assert {"json", "shape", "type", "error"} <= kinds(bad)
    assert bad.answers == 0 and bad.starts == 1


def test_program_that_answers_illegal_cards() -> None:
    bad = faulty_game(fixture("illegal"))
    assert kinds(bad) == {"illegal"}
    assert bad.answers > 0  # its bids were legal


def test_program_that_answers_late() -> None:
    # Every 4th answer comes 0.4 s after its request, 0.1 s past the limit; the
    # next request's answer follows at once, 0.2 s before its own limit.
    bad = faulty_game(fixture("sleepy", "0.4", "4"), timeout=0.3)
    assert kinds(bad) == {"late"}  # a late answer is never taken for a later one
    assert bad.answers >= bad.faults and bad.starts == 1


def test_program_that_never_answers_is_restarted() -> None:
    game = Game.new(quick_rules(), seed=8)
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    with ExternalRobot(fixture("sleepy", "60", "1"), timeout=0.1, start_grace=0.2) as bad:
        for _ in range(20):
            assert bad.act(view) == fallback(view) == Bid(1)
        assert bad.starts == MAX_RESTARTS + 1 and bad.answers == 0
        assert kinds(bad) == {"late", "gave up"}


def test_program_that_does_not_read_its_input() -> None:
    view = next(v for _g, v in views_of(quick_rules(), 8) if v.phase == "playing" and v.tricks)
    with ExternalRobot(fixture("deaf"), timeout=0.2, start_grace=0.2) as bad:
        for _ in range(200):
            assert bad.act(view) in view.legal
            if bad.starts > 1:
                break
        assert any("took no request" in e for e in bad.fault_log), bad.fault_log[-3:]


def test_program_that_exits_after_five_answers() -> None:
    bad = faulty_game(fixture("quitter", "5"))
    assert "crash" in kinds(bad) or "pipe" in kinds(bad)
    assert any("status 0" in e for e in bad.fault_log)
    assert bad.answers >= 10 and bad.starts >= 3


def test_fallback_actions() -> None:
    game = Game.new(Rules.from_preset("sala", no_hell=True), seed=1)
    while game.phase == "bidding":
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        action = fallback(view)
        assert isinstance(action, Bid) and action in view.legal
        assert action.value == min(
            b.value
            for b in view.legal
            if isinstance(b, Bid) and isinstance(b.value, int) and b.value
        )
        game.apply(action)
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    assert fallback(view) == Play(min(view.proper_plays))
