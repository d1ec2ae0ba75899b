"""`espadas verify RECORD.json`: one line per hand, exit 0/1/2, and its JSON object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main
from espadas.engine import Game, Rules
from espadas.engine.record import game_record
from table_helpers import Record, swap_one_card, table_game


def run_verify(
    tmp_path: Path, record: object, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    path = tmp_path / "r.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    code = main(["verify", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_json(tmp_path: Path, record: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code, out, err = run_verify(tmp_path, record, capsys, "--json")
    lines = out.strip().splitlines()
    assert len(lines) == 1, f"exactly one line on stdout, got {out!r}"
    assert err == ""
    return code, json.loads(lines[0])


def test_a_good_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game(hands=3)
    code, out, err = run_verify(tmp_path, rec, capsys)
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "Mano 1: correcta",
        "Mano 2: correcta",
        "Mano 3: correcta",
        "Todas las manos (3) coinciden con su compromiso.",
    ]


def test_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game(hands=2)
    code, out, _ = run_verify(tmp_path, rec, capsys, "--lang", "en")
    assert code == 0
    assert out.splitlines() == [
        "Hand 1: correct",
        "Hand 2: correct",
        "Every hand (2) matches its commitment.",
    ]


def test_a_swapped_card_names_the_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game(hands=3)
    swap_one_card(rec["hands"][1]["deal"], 1, 3)
    code, out, _ = run_verify(tmp_path, rec, capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "Mano 1: correcta" and lines[2] == "Mano 3: correcta"
    assert lines[1].startswith("Mano 2: NO coincide (compromiso ")
    assert rec["hands"][1]["commitment"] in lines[1]
    assert lines[-1] == "Fallan 1 de 3 manos: 2."


def test_missing_commitments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game(hands=3)
    del rec["hands"][1]["commitment"]
    del rec["hands"][2]["salt"]
    code, out, _ = run_verify(tmp_path, rec, capsys, "--lang", "en")
    assert code == 1
    lines = out.splitlines()
    assert lines[1] == "Hand 2: no commitment"
    assert lines[2] == f"Hand 3: no salt (commitment {rec['hands'][2]['commitment']})"
    assert lines[3] == "2 of 3 hands fail: 2, 3."


def test_json_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game(hands=3)
    salt = rec["hands"][2]["salt"]
    rec["hands"][2]["salt"] = salt[::-1]
    del rec["hands"][0]["commitment"]
    code, out = run_json(tmp_path, rec, capsys)
    assert code == 1
    assert set(out) == {"hands", "ok"} and out["ok"] is False
    assert [set(h) for h in out["hands"]] == [{"hand", "status", "commitment", "computed"}] * 3
    assert [h["hand"] for h in out["hands"]] == [1, 2, 3]
    assert [h["status"] for h in out["hands"]] == ["missing", "ok", "mismatch"]
    assert out["hands"][0]["commitment"] is None
    assert out["hands"][1]["commitment"] == out["hands"][1]["computed"]
    assert out["hands"][1]["commitment"] == rec["hands"][1]["commitment"]
    assert out["hands"][2]["commitment"] != out["hands"][2]["computed"]


def test_json_all_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = table_game("sala", hands=2, players=3)
    code, out = run_json(tmp_path, rec, capsys)
    assert code == 0 and out["ok"] is True
    assert [h["status"] for h in out["hands"]] == ["ok", "ok"]


def test_a_record_without_commitments_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = game_record(Game.new(Rules(), seed=2))
    code, out = run_json(tmp_path, rec, capsys)
    assert code == 1
    assert out == {
        "hands": [{"hand": 1, "status": "missing", "commitment": None, "computed": None}],
        "ok": False,
    }


def test_no_hands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = game_record(Game.new(Rules(), seed=2))
    rec["hands"] = []
    code, out, _ = run_verify(tmp_path, rec, capsys)
    assert code == 0 and out.strip() == "El registro no tiene manos: nada que verificar."


def bad_salt() -> Record:
    rec = table_game(hands=2)
    rec["hands"][1]["salt"] = "XYZ"
    return rec


MALFORMED: list[tuple[str, object]] = [
    ("not json", "{nope"),
    ("not a record", json.dumps({"format": "espadas-record/2"})),
    ("bad salt", bad_salt()),
]


@pytest.mark.parametrize(("name", "record"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed(
    name: str, record: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_json(tmp_path, record, capsys)
    assert code == 2
    assert set(out) == {"error"} and set(out["error"]) == {"message"}
    code, text, err = run_verify(tmp_path, record, capsys)
    assert code == 2 and text == ""
    assert err.startswith("espadas verify: Registro no válido: ")
    assert "Traceback" not in err


def test_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(tmp_path / "nowhere.json"), "--lang", "en"])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("espadas verify: Invalid record: cannot read ")


def test_command_line_process(tmp_path: Path) -> None:
    """The installed console script, as other programs run it."""
    script = Path(sys.executable).with_name("espadas")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "espadas.cli.main"]
    path = tmp_path / "r.json"
    rec = table_game(hands=2)
    path.write_text(json.dumps(rec))
    ok = subprocess.run([*command, "verify", str(path)], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("Mano 1: correcta")
    swap_one_card(rec["hands"][0]["deal"], 0, 1)
    path.write_text(json.dumps(rec))
    bad = subprocess.run([*command, "verify", str(path), "--json"], capture_output=True, text=True)
    assert bad.returncode == 1 and json.loads(bad.stdout)["ok"] is False
    path.write_text("not json")
    broken = subprocess.run([*command, "verify", str(path)], capture_output=True, text=True)
    assert broken.returncode == 2 and broken.stdout == "" and "Traceback" not in broken.stderr


def test_a_boards_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from espadas.tables.boards import boards_json, fresh_boards

    boards = fresh_boards(Rules.from_preset("estandar"), 2)
    code, out, err = run_verify(tmp_path, boards_json(boards, reveal=True), capsys)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "Reparto 1: correcto",
        "Reparto 2: correcto",
        "El compromiso del conjunto (2 repartos) coincide.",
    ]
    hidden = boards_json(boards, reveal=False)
    code, out, _ = run_verify(tmp_path, hidden, capsys, "--lang", "en")
    assert code == 1 and out.splitlines()[0] == "Board 1: not revealed yet"
    bad = boards_json(boards, reveal=True)
    bad["boards"][1]["salt"] = "ab" * 16
    code, obj = run_json(tmp_path, bad, capsys)
    assert code == 1 and obj["set"] == "ok" and not obj["ok"]
    assert [b["status"] for b in obj["boards"]] == ["ok", "mismatch"]
    bad["commitment"] = "0" * 64
    code, obj = run_json(tmp_path, bad, capsys)
    assert code == 1 and obj["set"] == "mismatch"
    bad["boards"] = []
    code, out, err = run_verify(tmp_path, bad, capsys)
    assert code == 2 and err.startswith("espadas verify: Archivo de repartos no válido")
