"""``espadas positions [FILE] ROBOT...``: scores, JSON, progress on stderr, exit 2 on
bad input, and a cmd: program scored exactly like the same level in process."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main

FILE = Path(__file__).parents[1] / "robots" / "positions" / "basics.json"


def small(tmp_path: Path, count: int = 12) -> Path:
    raw = json.loads(FILE.read_text(encoding="utf-8"))
    raw["positions"] = raw["positions"][:: max(1, len(raw["positions"]) // count)][:count]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(raw))
    return path


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    code = main(["positions", *args, "--json"])
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return code, json.loads(lines[0]), err


def test_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = small(tmp_path)
    code, doc, err = run_json(capsys, str(path), "normal", "aleatorio")
    assert code == 0
    assert [r["robot"] for r in doc["robots"]] == ["normal", "aleatorio"]
    for r in doc["robots"]:
        assert r["total"] == 12
        assert sum(c["total"] for c in r["categories"].values()) == 12
        assert sum(c["solved"] for c in r["categories"].values()) == r["solved"]
        assert len(r["failed"]) == r["total"] - r["solved"]
    assert "12/12" in err  # the progress bar went to stderr


def test_table_in_both_languages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = small(tmp_path)
    assert main(["positions", str(path), "normal", "--lang", "en", "--failed"]) == 0
    en = capsys.readouterr().out
    assert "covering a partner's Nil" in en and en.splitlines()[0].startswith("category")
    assert main(["positions", str(path), "normal", "--lang", "es"]) == 0
    es = capsys.readouterr().out
    assert "cubrir el Nil del compañero" in es and "todas" in es


def test_default_file_is_the_project_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FILE.parents[3])
    code, doc, _ = run_json(capsys, "aleatorio")
    assert code == 0 and doc["robots"][0]["total"] >= 60


def test_a_program_is_scored_like_the_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small(tmp_path, 6)
    _, inside, _ = run_json(capsys, str(path), "normal")
    program = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "espadas.cli.main"])
    _, outside, _ = run_json(capsys, str(path), f"cmd:{program} robot normal --seed 1")
    assert outside["robots"][0]["total"] == 6
    assert outside["robots"][0]["solved"] == inside["robots"][0]["solved"]


def test_a_program_that_answers_nonsense_solves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small(tmp_path, 3)
    script = tmp_path / "bad.py"
    script.write_text(
        'import sys\nfor line in sys.stdin:\n    print(\'{"card": "ZZ"}\', flush=True)\n'
    )
    code, doc, _ = run_json(capsys, str(path), f"cmd:{sys.executable} {script}")
    assert code == 0
    robot = doc["robots"][0]
    assert robot["solved"] == 0 and all(f["fault"] for f in robot["failed"])


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not JSON"),
        ('{"format": "other", "positions": []}', "espadas-positions/1"),
        ('{"format": "espadas-positions/1", "positions": [{"id": "x"}]}', "lacks"),
    ],
)
def test_malformed_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["positions", str(path), "normal", "--lang", "en"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "invalid position file" in err and message in err


@pytest.mark.parametrize(
    "args",
    [["omnisciente"], ["nobody"], ["x.json"], ["normal", "--budget-ms", "0"]],
)
def test_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    assert main(["positions", *args]) == 2
    assert "espadas positions:" in capsys.readouterr().err
