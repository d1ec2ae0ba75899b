"""``scripts/arena-matrix``: every rule set of the arena matrix played end to end with tiny
matches, one JSON per run and one Markdown row per rule set."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from espadas.cli.matrix import HEADER, RULE_SETS, main, table, table_row
from espadas.engine import Rules

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "arena-matrix"


def test_every_rule_set_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "matrix"
    done = subprocess.run(
        [str(SCRIPT), "normal", "aleatorio", "--deals", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == HEADER and len(lines) == 2 + len(RULE_SETS)
    columns = HEADER.count("|")
    for rule_set, line in zip(RULE_SETS, lines[2:], strict=True):
        assert line.startswith(f"| {rule_set.name} | 4 | ") and line.count("|") == columns
        data = json.loads((out / f"{rule_set.name}.json").read_text(encoding="utf-8"))
        assert data["deals"] == 4 and data["robots"] == {"A": "normal", "B": "aleatorio"}
        options = dict(o.split("=") for o in rule_set.sets)
        rules = Rules.from_dict(data["rules"])
        assert rules.preset == rule_set.preset
        for name, value in options.items():
            assert str(getattr(rules, name)).lower() == value, (rule_set.name, name)
        assert data["start"] == ("mixed" if rules.blind_nil else "zero")
        assert (data["blind_nil_offered"]["A"] > 0) == rules.blind_nil
        assert data["margin"] > 0  # normal beats aleatorio in every rule set
        assert f"arena-matrix: {rule_set.name} (" in done.stderr
    # the rule sets, as the rules read them
    by_name = {
        r.name: Rules.from_dict(json.loads((out / f"{r.name}.json").read_text())["rules"])
        for r in RULE_SETS
    }
    assert by_name["estandar"].renege == "prevented"
    cien = by_name["cien"]
    assert cien.blind_nil and cien.bags_reset and cien.spades_in_first_trick == "forbidden"
    assert by_name["sala"].players == 4 and by_name["sala"].partnerships and by_name["sala"].bonuses
    assert [by_name[f"sala-{n}"].players for n in (3, 5, 6)] == [3, 5, 6]
    assert not any(by_name[f"sala-{n}"].partnerships for n in (3, 5, 6))
    assert by_name["estandar-suicide"].suicide and by_name["estandar-no-hell"].no_hell
    assert by_name["sala-quicksand"].quicksand
    saved = (out / "table.md").read_text(encoding="utf-8")
    assert saved.startswith(done.stdout.strip())
    assert "--preset sala --set players=6" in saved and "--start mixed" in saved


def test_a_row_shows_dashes_for_what_was_not_there() -> None:
    summary = {
        "deals": 2,
        "margin": 1.5,
        "ci95": [None, None],
        "made_pct": {"A": 50.0, "B": None},
        "nil_bids": {"A": 0, "B": 1},
        "nil_pct": {"A": None, "B": 100.0},
        "blind_nil_offered": {"A": 0, "B": 0},
        "blind_nil_bid_pct": {"A": None, "B": None},
        "blind_nil_not_behind": {"A": {"bids": 0}, "B": {"bids": 0}},
        "blind_nil_pct": {"A": None, "B": None},
        "bags_per_hand": {"A": 1.25, "B": None},
        "nil_partner_fault_pct": {"A": None, "B": 12.5},
        "decision_ms": {
            "A": {"p50": 1.0, "p95": 40.4, "max": 312.6},
            "B": {"p50": None, "p95": None, "max": None},
        },
    }
    row = table_row("x", summary)
    assert row == (
        "| x | 2 | +1.5 | — | 50.0 % / — | 0 / 1 | — / 100.0 % | — / — | — / — | — / — "
        "| 1.25 / — | — / 12.5 % | 40 / 313 | — |"
    )
    assert table([("x", summary)]).splitlines()[1].count("---") == HEADER.count("|") - 1


@pytest.mark.parametrize(
    "args",
    [
        ["normal", "aleatorio", "--only", "bridge", "--out", "x"],
        ["normal", "aleatorio", "--deals", "0", "--out", "x"],
    ],
)
def test_bad_arguments_exit_2(args: list[str], tmp_path: Path) -> None:
    args[-1] = str(tmp_path / "x")
    assert main(args) == 2
    assert not (tmp_path / "x").exists()


def test_a_failed_match_exits_1(tmp_path: Path) -> None:
    assert (
        main(["normal", "nobody", "--deals", "1", "--only", "pagat", "--out", str(tmp_path)]) == 1
    )
