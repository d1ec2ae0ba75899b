"""`espadas replay --json` and `espadas export --pbn`, to the letter of FORMATS.md."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main
from espadas.engine import Bid, Game, Rules
from espadas.engine.record import game_record, rebuild, replay_summary

Record = dict[str, Any]


def played_game(preset: str = "pagat", seed: int = 1, hands: int = 2, **options: Any) -> Game:
    """A game of random legal actions, stopped after ``hands`` finished hands."""
    rules = Rules.from_preset(preset, **options)
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while not game.over and len(game.scored) < hands:
        actions = game.legal_actions()
        modest = [a for a in actions if isinstance(a, Bid) and a.value in (1, 2, 3)]
        choices = modest or actions
        game.apply(choices[int(rng.random() * len(choices))])
    return game


def run_replay(
    tmp_path: Path, record: object, capsys: pytest.CaptureFixture[str]
) -> tuple[int, Any]:
    path = tmp_path / "r.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    code = main(["replay", str(path), "--json"])
    out = capsys.readouterr().out
    lines = out.strip().splitlines()
    assert len(lines) == 1, f"exactly one line on stdout, got {out!r}"
    return code, json.loads(lines[0])


def test_replay_output_matches_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game(hands=3)
    code, out = run_replay(tmp_path, game_record(game, ["a", "b", "c", "d"]), capsys)
    assert code == 0
    assert set(out) == {"hands", "winner", "reason"}
    assert len(out["hands"]) == len(game.hands)
    running = {"ns": 0, "ew": 0}
    for entry, hand, fin in zip(out["hands"], game.hands, game.scored, strict=False):
        assert set(entry) == {"tricks", "trick_winners", "score", "total", "bags", "boston"}
        assert entry["tricks"] == hand.tricks
        assert sum(entry["tricks"]) == 13
        assert len(entry["trick_winners"]) == 13
        assert [entry["trick_winners"].count(s) for s in range(4)] == hand.tricks
        for side in ("ns", "ew"):
            running[side] += entry["score"][side]
        assert entry["total"] == running
        assert list(entry["bags"].values()) == fin.score.bags
    assert out["winner"] is None and out["reason"] is None


def test_unfinished_hand_has_null_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played_game(hands=1)
    rng = random.Random(3)
    game.next_hand()
    for _ in range(4 + 9):  # bids and nine plays
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    code, out = run_replay(tmp_path, game_record(game), capsys)
    assert code == 0
    last = out["hands"][-1]
    assert last["score"] is None and last["total"] is None and last["bags"] is None
    assert last["boston"] is None
    assert sum(last["tricks"]) == 2 and len(last["trick_winners"]) == 2


def test_empty_hands_is_a_game_not_started(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = {"format": "espadas-record/1", "rules": {}, "players": ["a", "b", "c", "d"], "hands": []}
    assert run_replay(tmp_path, rec, capsys) == (0, {"hands": [], "winner": None, "reason": None})


def test_whole_game_has_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game("sala", seed=4, hands=1000, target=200)
    assert game.over
    code, out = run_replay(tmp_path, game_record(game), capsys)
    assert code == 0
    assert out["winner"] == game.rules.side_name(game.result.winner)  # type: ignore[union-attr]
    assert out["reason"] in ("target", "mercy")


def test_individual_sides_are_seat_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played_game("sala", seed=2, hands=1, players=3)
    code, out = run_replay(tmp_path, game_record(game, ["a", "b", "c"]), capsys)
    assert code == 0
    assert set(out["hands"][0]["score"]) == {"0", "1", "2"}
    assert sum(out["hands"][0]["tricks"]) == 17


def base() -> Record:
    return game_record(played_game(hands=2), ["a", "b", "c", "d"])


def mutate(path: str, value: Any) -> Record:
    rec = base()
    target: Any = rec
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split("/")]
    for k in keys[:-1]:
        target = target[k]
    if value is KeyError:
        del target[keys[-1]]
    else:
        target[keys[-1]] = value
    return rec


MALFORMED: list[tuple[str, object]] = [
    ("not json", "{nope"),
    ("array", "[]"),
    ("wrong format", mutate("format", "espadas-record/2")),
    ("no rules", mutate("rules", KeyError)),
    ("unknown preset", mutate("rules", {"preset": "poker"})),
    ("unknown option", mutate("rules", {"preset": "pagat", "jokers": True})),
    ("bad option value", mutate("rules", {"preset": "pagat", "renege": "sometimes"})),
    ("refused combination", mutate("rules", {"preset": "pagat", "suicide": True, "no_hell": True})),
    ("players length", mutate("players", ["a", "b", "c"])),
    ("deal hands", mutate("hands/0/deal", ["AKQJT98765432..."] * 3)),
    ("deal cards", mutate("hands/0/deal/0", "AKQ...")),
    ("deal syntax", mutate("hands/0/deal/0", "XYZ")),
    ("dealer order", mutate("hands/1/dealer", 3)),
    ("dealer range", mutate("hands/0/dealer", 9)),
    ("accusation seat", mutate("hands/0/accusation", {"by": 7, "against": 1, "after_play": 0})),
    ("accusation count", mutate("hands/0/accusation", {"by": 0, "against": 1, "after_play": 99})),
    ("accusation type", mutate("hands/0/accusation", {"by": "N", "against": 1, "after_play": 0})),
    ("end reason", mutate("end", {"reason": "boredom", "side": "ns"})),
    ("end side", mutate("end", {"reason": "abandon", "side": "xx"})),
]


@pytest.mark.parametrize(("name", "record"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed(
    name: str, record: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_replay(tmp_path, record, capsys)
    assert code == 2
    assert set(out) == {"error"}
    assert set(out["error"]) == {"message"}
    assert len(out["error"]["message"]) > 10


def test_duplicate_card_is_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    deal = rec["hands"][0]["deal"]
    deal[1] = deal[0]
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 2 and "twice" in out["error"]["message"]


def test_removed_card_is_malformed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game("sala", seed=2, hands=1, players=3)
    rec = game_record(game, ["a", "b", "c"])
    # Swap the 3C for the removed 2C in whoever holds it.
    for i, text in enumerate(rec["hands"][0]["deal"]):
        suits = text.split(".")
        if "3" in suits[3]:
            suits[3] = suits[3].replace("3", "2")
            rec["hands"][0]["deal"][i] = ".".join(suits)
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 2 and "removed" in out["error"]["message"]


def test_end_after_game_over_is_malformed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played_game("sala", seed=4, hands=1000, target=200)
    rec = game_record(game)
    rec["end"] = {"reason": "abandon", "side": "ns"}
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 2 and set(out["error"]) == {"message"}


def illegal(rec: Record, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, int]:
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 2
    assert set(out) == {"error"}
    err = out["error"]
    assert set(err) == {"hand", "action", "message"}
    assert isinstance(err["message"], str) and len(err["message"]) > 10
    return err["hand"], err["action"]


@pytest.mark.parametrize("bad", ["3", "XX", None, True, 2.5, [1], 14, -1, "blind_nil"])
def test_bad_bid(bad: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][1]["bids"][2] = bad
    assert illegal(rec, tmp_path, capsys) == (1, 2)


def test_nil_string_reads_as_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    zero = base()
    zero["hands"][1]["bids"][3] = 0
    nil = copy.deepcopy(zero)
    nil["hands"][1]["bids"][3] = "nil"
    code_zero, out_zero = run_replay(tmp_path, zero, capsys)
    code_nil, out_nil = run_replay(tmp_path, nil, capsys)
    assert code_zero == code_nil == 0
    assert out_zero == out_nil


@pytest.mark.parametrize("bad", ["XX", 5, None, "1S"])
def test_bad_card(bad: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][0]["plays"][5] = bad
    assert illegal(rec, tmp_path, capsys) == (0, 4 + 5)


def test_card_not_in_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    plays = rec["hands"][0]["plays"]
    plays[0], plays[1] = plays[1], plays[0]  # the leader plays the second seat's card
    assert illegal(rec, tmp_path, capsys) == (0, 4)


def test_card_while_bids_due(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][1]["bids"] = rec["hands"][1]["bids"][:3]
    assert illegal(rec, tmp_path, capsys) == (1, 3)


def test_bid_too_many(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][0]["bids"].append(3)
    assert illegal(rec, tmp_path, capsys) == (0, 4)


def test_hand_after_unfinished_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][0]["plays"] = rec["hands"][0]["plays"][:20]
    assert illegal(rec, tmp_path, capsys) == (1, 0)


def test_hand_after_game_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game("sala", seed=4, hands=1000, target=200)
    rec = game_record(game)
    extra = copy.deepcopy(rec["hands"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 4
    rec["hands"].append(extra)
    assert illegal(rec, tmp_path, capsys) == (len(rec["hands"]) - 1, 0)


def estandar_record() -> Record:
    return game_record(played_game("estandar", seed=5, hands=1))


def test_accusation_against_partner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = estandar_record()
    rec["hands"][0]["accusation"] = {"by": 0, "against": 2, "after_play": 7}
    assert illegal(rec, tmp_path, capsys) == (0, 4 + 7)


def test_accusation_in_prevented_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["hands"][0]["accusation"] = {"by": 0, "against": 1, "after_play": 3}
    assert illegal(rec, tmp_path, capsys) == (0, 4 + 3)


def test_plays_after_accusation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = estandar_record()
    rec["hands"][0]["accusation"] = {"by": 0, "against": 1, "after_play": 10}
    assert illegal(rec, tmp_path, capsys) == (0, 4 + 10)


def test_accusation_decides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = estandar_record()
    rec["hands"][0]["plays"] = rec["hands"][0]["plays"][:10]
    rec["hands"][0]["accusation"] = {"by": 0, "against": 1, "after_play": 10}
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 0
    game = rebuild(rec)
    reneged = game.hands[0].reneged(1)
    assert out["reason"] == ("renege" if reneged else "false_accusation")
    assert out["winner"] == ("ns" if reneged else "ew")


def test_end_abandon(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = base()
    rec["end"] = {"reason": "abandon", "side": "ew"}
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 0 and out["winner"] == "ns" and out["reason"] == "abandon"


def test_end_timeout_individual(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game("sala", seed=2, hands=1, players=3)
    rec = game_record(game)
    rec["end"] = {"reason": "timeout", "side": "1"}
    code, out = run_replay(tmp_path, rec, capsys)
    assert code == 0 and out["reason"] == "timeout"
    others = [s for s in (0, 2)]
    best = max(others, key=lambda s: (game.scores[s], -s))
    assert out["winner"] == str(best)


def test_summary_equals_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game(hands=2)
    _, out = run_replay(tmp_path, game_record(game), capsys)
    assert out == json.loads(json.dumps(replay_summary(game)))


def test_command_line_process(tmp_path: Path) -> None:
    """The installed console script, as other programs run it."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(base()))
    ok = subprocess.run(
        [sys.executable, "-m", "espadas.cli.main", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and json.loads(ok.stdout)["hands"]
    path.write_text("not json")
    bad = subprocess.run(
        [sys.executable, "-m", "espadas.cli.main", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and list(json.loads(bad.stdout)) == ["error"]


def test_export_pbn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_game(hands=2)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(game_record(game, ["Ana", "Bea", 'Carla "C"', "Dani"])))
    assert main(["export", str(path), "--pbn"]) == 0
    text = capsys.readouterr().out
    assert text.count("[Board ") == 2
    assert '[South "Carla \\"C\\""]' in text
    first = game.hands[0]
    dealer = "NESW"[first.dealer]
    assert f'[Dealer "{dealer}"]' in text
    assert f'[Deal "{dealer}:' in text
    score = game.scored[0].score.points
    assert f'[EspadasScore "ns {score[0]}; ew {score[1]}"]' in text
    # The play section has 13 rows of 4 cards, each card once.
    section = text.split('[Play "')[1].splitlines()[1:14]
    cards = [c for row in section for c in row.split()]
    assert len(cards) == 52 and len(set(cards)) == 52


def test_export_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.json"
    path.write_text("{}")
    assert main(["export", str(path), "--pbn"]) == 2
    assert "format" in capsys.readouterr().err
