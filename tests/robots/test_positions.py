"""The project's set of positions (tests/robots/positions/basics.json) and the scoring
of robots on it (espadas.robots.positions)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from espadas.engine import Action, Bid, CardSet, Game, Play, PlayerView, Rules
from espadas.engine.codec import bid_from_json, card_from_json
from espadas.robots.expert import ExpertRobot
from espadas.robots.normal import NormalRobot
from espadas.robots.positions import (
    CATEGORIES,
    FORMAT,
    Position,
    PositionsError,
    answer,
    load_positions,
    parse_positions,
    score,
)
from espadas.robots.protocol import request_for

FILE = Path(__file__).parent / "positions" / "basics.json"
POSITIONS = load_positions(FILE)


def replay(p: Position) -> Game:
    """The position's hand played again through the engine from its deal."""
    req = p.request
    rules = Rules.from_dict(req["rules"])
    game = Game(rules, first_dealer=req["dealer"])
    sides = rules.side_names()
    game.scores = [req["scores"][s] for s in sides]
    game.bags = [req["bags"][s] for s in sides]
    assert p.deal is not None
    game.deal([int(CardSet(card_from_json(c) for c in hand)) for hand in p.deal])
    n = rules.players
    for k in range(n):
        seat = (req["dealer"] + 1 + k) % n
        if req["bids"][seat] is None:
            break
        game.apply(Bid(bid_from_json(req["bids"][seat], nil_word=False)), by=seat)
    tricks = [*req["tricks"], *([req["trick"]] if req["trick"] else [])]
    for t in tricks:
        for k, card in enumerate(t["cards"]):
            game.apply(Play(card_from_json(card)), by=(t["leader"] + k) % n)
    return game


def test_the_set_is_large_and_varied() -> None:
    assert len(POSITIONS) >= 60
    per = Counter(p.category for p in POSITIONS)
    assert set(per) == set(CATEGORIES)
    assert min(per.values()) >= 10
    assert {p.stage for p in POSITIONS} == {"early", "middle", "late"}
    assert {p.place for p in POSITIONS} == {"leading", "second", "third", "fourth"}
    assert len({p.request["seat"] for p in POSITIONS}) == 4
    assert len({p.request["rules"]["preset"] for p in POSITIONS}) >= 2


@pytest.mark.parametrize("p", POSITIONS, ids=[p.id for p in POSITIONS])
def test_every_position_replays_legally(p: Position) -> None:
    game = replay(p)  # the engine refuses any bid or card out of turn or illegal
    seat = p.request["seat"]
    assert game.to_act == seat
    view = game.view_for(seat)
    assert request_for(view) == p.request
    assert all(r in p.request["legal"] for r in p.right)
    assert len(set(p.right)) < len(p.request["legal"])
    held = CardSet(card_from_json(c) for c in p.request["hand"])
    assert view.held == held
    assert p.reason["es"] and p.reason["en"] and p.reason["es"] != p.reason["en"]


class Picks:
    """A robot that plays a right card (``right``) or a wrong one of a position."""

    def __init__(self, position: Position, right: bool) -> None:
        self.position = position
        self.right = right

    def act(self, view: PlayerView) -> Action:
        legal = [str(c) for c in view.proper_plays]
        wanted = [c for c in legal if (c in self.position.right) == self.right]
        return Play(card_from_json(wanted[0]))


def test_scores_count_right_and_wrong_cards() -> None:
    chosen = POSITIONS[::7]
    by_id = {p.id: p for p in chosen}
    it = iter(chosen)
    good = score("good", chosen, lambda s: Picks(next(it), True))
    assert good.solved == good.total == len(chosen)
    it = iter(chosen)
    bad = score("bad", chosen, lambda s: Picks(next(it), False))
    assert bad.solved == 0
    assert {f["id"] for f in bad.to_json()["failed"]} == set(by_id)
    cats = good.to_json()["categories"]
    assert sum(c["total"] for c in cats.values()) == len(chosen)
    assert all(c["pct"] == 100.0 for c in cats.values())


def test_normal_answers_legally_and_deterministically() -> None:
    first = score("normal", POSITIONS, lambda s: NormalRobot(random.Random(s)), seed=3)
    again = score("normal", POSITIONS, lambda s: NormalRobot(random.Random(s)), seed=3)
    assert [a.given for a in first.answers] == [a.given for a in again.answers]
    for a in first.answers:
        assert a.fault is None and a.given in a.position.request["legal"]


class Raises:
    def act(self, view: PlayerView) -> Action:
        raise ValueError("no idea")


class Bids:
    def act(self, view: PlayerView) -> Action:
        return Bid(3)


def test_a_robot_that_fails_or_answers_wrongly_is_not_solved() -> None:
    p = POSITIONS[0]
    a = answer(Raises(), p)
    assert not a.solved and a.fault == "no idea"
    b = answer(Bids(), p)
    assert not b.solved and b.fault is not None and "card" in b.fault


def doc() -> dict[str, Any]:
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    return {"format": FORMAT, "positions": raw["positions"][:3]}


def broken(change: str) -> dict[str, Any]:
    d = copy.deepcopy(doc())
    p = d["positions"][0]
    if change == "format":
        d["format"] = "espadas-positions/0"
    elif change == "empty":
        d["positions"] = []
    elif change == "missing":
        del p["right"]
    elif change == "illegal":
        p["right"] = ["XX"]
    elif change == "all-right":
        p["right"] = list(p["request"]["legal"])
    elif change == "request":
        p["request"]["seat"] = 9
    elif change == "reason":
        p["reason"] = {"en": "only English"}
    elif change == "twice":
        d["positions"][1]["id"] = p["id"]
    elif change == "stage":
        p["stage"] = "sometime"
    return d


@pytest.mark.parametrize(
    "change",
    ["format", "empty", "missing", "illegal", "all-right", "request", "reason", "twice", "stage"],
)
def test_malformed_files_are_refused(change: str) -> None:
    with pytest.raises(PositionsError):
        parse_positions(broken(change))


def test_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_text("{not json")
    with pytest.raises(PositionsError, match="not JSON"):
        load_positions(path)
    with pytest.raises(PositionsError, match="cannot read"):
        load_positions(tmp_path / "missing.json")


def test_a_good_small_file_reads() -> None:
    got = parse_positions(doc())
    assert [p.id for p in got] == [p.id for p in POSITIONS[:3]]


def test_normal_and_experto_solve_the_set() -> None:
    normal = score("normal", POSITIONS, lambda s: NormalRobot(random.Random(s)))
    assert normal.solved == normal.total, normal.to_json()["failed"]
    experto = score("experto", POSITIONS, lambda s: ExpertRobot(s, budget_ms=40))
    assert experto.solved >= 0.95 * experto.total, experto.to_json()["failed"]
