"""`espadas duplicate SCORES.json`: standings recomputed from the entrants' records
alone equal duplicate scoring of the deal scores the engine gives; boards that
differ between records, bad files and bad records exit 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.duplicate import standings_of, table_json
from espadas.engine import Game, Rules, deal_cards, deal_scores
from espadas.engine.record import game_record, rebuild
from espadas.tables.duplicate import Result, record_results, score

RULES = Rules.from_preset("estandar").replace(target=5000, mercy=-5000, renege="prevented")


def boards(count: int, seed: int = 1) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [deal_cards(RULES, rng, i % 4) for i in range(count)]


def played(deals: list[tuple[int, ...]], seed: int) -> dict[str, Any]:
    """A record of these deals, bid and played at random (proper plays only)."""
    rng = random.Random(seed)
    game = Game(RULES, first_dealer=0)
    for i, deal in enumerate(deals):
        if i:
            game.next_hand()
        game.deal(deal)
        while game.phase == "bidding":
            bids = game.legal_bids()
            game.bid(bids[int(rng.random() * len(bids))])
        while not game.play(game.proper_plays().pick(rng)):
            pass
    return game_record(game)


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "espadas.cli.main", "duplicate", *args],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_record_results_are_the_engines_deal_scores() -> None:
    record = played(boards(3), seed=4)
    got = record_results(record, seat=1)
    assert [p.board for p in got] == [1, 2, 3]
    assert [p.dealer for p in got] == [h["dealer"] for h in record["hands"]] == [0, 1, 2]
    hands = hands_of(record)
    assert [p.points for p in got] == [deal_scores(RULES, *h)[0][1] for h in hands]
    assert [p.points for p in record_results(record, seat=3)] == [p.points for p in got]
    assert [p.points for p in record_results(record, seat=0)] == [
        deal_scores(RULES, *h)[0][0] for h in hands
    ]


def test_the_command_equals_scoring_the_records(tmp_path: Path) -> None:
    deals = boards(4)
    names = ["ana", "bea", "cai"]
    for i, name in enumerate(names):
        (tmp_path / f"{name}.json").write_text(json.dumps(played(deals, seed=10 + i)))
    (tmp_path / "par.json").write_text(json.dumps(played(deals, seed=99)))
    # cai left after board 2: boards 3 and 4 were played by the robot in her seat
    scores = {
        "format": "espadas-duplicate/1",
        "method": "total",
        "entries": [
            {"entrant": "ana", "seat": 0, "record": "ana.json"},
            {"entrant": "bea", "seat": 0, "record": "bea.json"},
            {"entrant": "cai", "seat": 0, "record": "cai.json", "robot_from": 3},
        ],
        "par": [{"seat": 0, "record": "par.json"}],
    }
    path = tmp_path / "scores.json"
    path.write_text(json.dumps(scores))
    done = run([str(path), "--json"])
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)

    expected_results = []
    for name in names:
        record = json.loads((tmp_path / f"{name}.json").read_text())
        for b, hand in enumerate(hands_of(record), start=1):
            points = deal_scores(RULES, *hand)[0][0]
            expected_results.append(Result(name, b, 0, points, name == "cai" and b >= 3))
    par_hands = hands_of(json.loads((tmp_path / "par.json").read_text()))
    par = {(b, 0): deal_scores(RULES, *h)[0][0] for b, h in enumerate(par_hands, start=1)}
    expected = table_json(score(expected_results, par, "total"))
    assert got == expected
    assert [row["par"] for row in got["boards"]] == [par[(b, 0)] for b in (1, 2, 3, 4)]
    assert sum(r["robot"] for row in got["boards"] for r in row["results"]) == 2

    text = run([str(path), "--lang", "en", "--method", "matchpoints"])
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("Duplicate standings by matchpoints (3 entrants)")
    assert len(lines) == 4 and "(2 played by the robot after they left)" in text.stdout


def hands_of(record: dict[str, Any]) -> list[tuple[list[int], list[bool], list[int]]]:
    """Each hand's bids, blind flags and tricks by seat, rebuilt by the engine."""
    game = rebuild(record)
    return [([b or 0 for b in h.bids], list(h.blind), list(h.tricks)) for h in game.hands]


def test_a_board_that_differs_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(played(boards(2, seed=1), seed=1)))
    (tmp_path / "b.json").write_text(json.dumps(played(boards(2, seed=2), seed=1)))
    scores = {
        "format": "espadas-duplicate/1",
        "entries": [
            {"entrant": "ana", "seat": 0, "record": "a.json"},
            {"entrant": "bea", "seat": 0, "record": "b.json"},
        ],
    }
    (tmp_path / "s.json").write_text(json.dumps(scores))
    done = run([str(tmp_path / "s.json"), "--json"])
    assert done.returncode == 2
    message = json.loads(done.stdout)["error"]["message"]
    assert "board 1 of bea is not the board ana played" in message


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ({"format": "other"}, 'format must be "espadas-duplicate/1"'),
        ({"format": "espadas-duplicate/1", "entries": []}, "entries must be a non-empty list"),
        ({"format": "espadas-duplicate/1", "method": "imps", "entries": [{}]}, "method is one of"),
        ({"format": "espadas-duplicate/1", "entries": [{"entrant": "a", "seat": 0}]},
         "entries[0].record must be a path or a record object"),
        ({"format": "espadas-duplicate/1",
          "entries": [{"entrant": "a", "seat": 9, "record": "r.json"}]}, "seat is 0..3, not 9"),
        ({"format": "espadas-duplicate/1",
          "entries": [{"entrant": "a", "seat": 0, "record": {"format": "x"}}]}, "entries[0] (a)"),
        ({"format": "espadas-duplicate/1",
          "entries": [{"entrant": "a", "seat": 0, "record": "missing.json"}]}, "cannot read"),
    ],
)  # fmt: skip
def test_bad_files_exit_2(tmp_path: Path, scores: dict[str, Any], message: str) -> None:
    (tmp_path / "r.json").write_text(json.dumps(played(boards(1), seed=3)))
    (tmp_path / "s.json").write_text(json.dumps(scores))
    done = run([str(tmp_path / "s.json")])
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.startswith("espadas duplicate: ")
    with pytest.raises(Exception, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):  # fmt: skip
        standings_of(scores, str(tmp_path))
