"""``espadas analyze RECORD.json``: the ``espadas-analysis/1`` object on stdout, the
report in both languages, the same output for the same seed, and exit status 2 with
the error object of ``espadas replay --json`` for a malformed or illegal record."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
POSITIONS: list[dict[str, Any]] = json.loads(
    (ROOT / "tests" / "fixtures" / "analysis_positions.json").read_text()
)


def short_record(kind: str = "nil", which: str = "mistake") -> tuple[dict[str, Any], int]:
    """The record of a fixture position (tests/robots/test_analysis.py) and its seat."""
    position = next(p for p in POSITIONS if p["kind"] == kind)
    return position[which], position["seat"]


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "espadas.cli.main", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        check=False,
    )


def last_hand_only(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the last hand alone (a legal game that starts at that deal)."""
    out = copy.deepcopy(record)
    out["hands"] = out["hands"][-1:]
    return out


def test_json_object_once_and_the_same_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, seat = short_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(last_hand_only(record)))
    outs = []
    for _ in range(2):
        assert main(["analyze", str(path), "--seat", str(seat), "--json", "--seed", "3"]) == 0
        captured = capsys.readouterr()
        lines = captured.out.strip().splitlines()
        assert len(lines) == 1
        outs.append(json.loads(lines[0]))
    assert outs[0] == outs[1]
    out = outs[0]
    assert out["format"] == "espadas-analysis/1"
    assert {d["seat"] for d in out["decisions"]} == {seat}
    assert list(out["summary"]) == [str(seat)]
    assert out["summary"][str(seat)]["decisions"] == len(out["decisions"])
    last = out["decisions"][-1]
    assert last["hand"] == 0 and last["taken"] == record["hands"][-1]["plays"][-1]
    assert last["mark"] == "blunder"


def test_the_report_in_both_languages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, seat = short_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(last_hand_only(record)))
    trick = (len(record["hands"][-1]["plays"]) - 1) // 4 + 1
    taken = record["hands"][-1]["plays"][-1]
    assert main(["analyze", str(path), "--seat", str(seat), "--lang", "es"]) == 0
    es = capsys.readouterr().out
    assert main(["analyze", str(path), "--seat", str(seat), "--lang", "en"]) == 0
    en = capsys.readouterr().out
    symbol = taken[0].replace("T", "10") + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[taken[1]]
    assert f"Mano 1, baza {trick}" in es and f"jugaste {symbol}; mejor" in es
    assert "puntos): error grave" in es and "decisiones, pérdida media" in es
    assert f"Hand 1, trick {trick}" in en and f"you played {symbol}; better" in en
    assert "points): blunder" in en and "average loss" in en


def test_jobs_give_the_same_output(tmp_path: Path) -> None:
    record, _ = short_record("overtake", "good")
    path = tmp_path / "game.json"
    hand = last_hand_only(record)["hands"][0]
    hand["plays"] = hand["plays"][:8]
    path.write_text(json.dumps({**record, "hands": [hand]}))
    one = cli("analyze", str(path), "--json", "--seed", "2")
    two = cli("analyze", str(path), "--json", "--seed", "2", "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert len(json.loads(one.stdout)["decisions"]) == 4 + 8
    assert "decisiones" in one.stderr  # the progress bar


@pytest.mark.parametrize(
    "change",
    ["not json", "wrong format", "bad card", "bid too many", "seat"],
)
def test_a_bad_record_exits_2_as_replay_does(tmp_path: Path, change: str) -> None:
    record, _ = short_record()
    data = last_hand_only(record)
    hand = data["hands"][0]
    if change == "wrong format":
        data["format"] = "espadas-record/0"
    elif change == "bad card":
        hand["plays"][2] = "XX"
    elif change == "bid too many":
        hand["bids"].append(3)
    path = tmp_path / "bad.json"
    path.write_text("{not json" if change == "not json" else json.dumps(data))
    if change == "seat":
        bad = cli("analyze", str(path), "--json", "--seat", "4")
        assert bad.returncode == 2 and json.loads(bad.stdout)["error"]["message"].startswith(
            "--seat"
        )
        return
    bad = cli("analyze", str(path), "--json")
    replay = cli("replay", str(path), "--json")
    assert bad.returncode == replay.returncode == 2
    assert bad.stdout == replay.stdout and len(bad.stdout.splitlines()) == 1
    error = json.loads(bad.stdout)["error"]
    assert ("hand" in error) == (change in ("bad card", "bid too many"))
    plain = cli("analyze", str(path))
    assert plain.returncode == 2 and plain.stdout == ""
    assert plain.stderr.startswith("espadas analyze: ")
