"""``espadas loadtest --lobby`` against real servers: people arrive, press quick play
and are seated; the report's checks hold and its JSON has its shape. The checks
themselves are tried on made-up outcomes: each finds what it looks for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from espadas.cli import lobby_load
from espadas.cli.lobby_report import GONE, Person, checks
from espadas.cli.main import main
from espadas.tables.quick import RULE_SETS
from server_helpers import fresh_postgres, running_server, settings_for

OPTIONS = {
    "robot_workers": 0,
    "rate": 1000,
    "burst": 100_000,
    "sockets_per_address": 100_000,
    "lobby_tick_s": 0.1,
}


NONE = {"seated_twice": 0, "lost": 0, "split_tables": 0, "told_before_built": 0}


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return OPTIONS


def _bench(capsys: pytest.CaptureFixture[str], urls: str, *more: str) -> tuple[int, Any, str]:
    code = main(["loadtest", urls, "--lobby", "--players", "24", "--duration", "2", *more])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def _quantiles(figures: dict[str, Any]) -> None:
    assert set(figures) == {"p50", "p95", "p99", "max"}
    assert 0 < figures["p50"] <= figures["p95"] <= figures["p99"] <= figures["max"]


def test_everyone_is_seated_once_and_the_report_adds_up(
    base: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_load, "PROGRESS_EVERY", 1.0)
    code, report, err = _bench(capsys, base, "--robot-wait", "1", "--json", "--seed", "3")
    assert code == 0, (report["error_samples"], err)
    assert report["checks"] == NONE
    assert report["errors"] == 0 and report["seats_given_away"] == 0
    assert report["people"] == report["pressed"] == report["seated"] == 24
    assert report["instances"] == 1 and report["robot_wait_s"] == 1.0
    assert report["rules"] == list(RULE_SETS)
    tables = report["tables"]
    by_rules = tables["by_rules"]
    assert set(by_rules) <= set(report["rules"])
    assert sum(t["people_only"] for t in by_rules.values()) == tables["people_only"]
    assert sum(t["with_robots"] for t in by_rules.values()) == tables["with_robots"]
    # 24 people over seven rule sets of 3 to 6 seats: some tables need robots
    assert tables["with_robots"] > 0
    _quantiles(report["press_to_seated_ms"])
    _quantiles(report["with_robots_ms"])
    # a table with robots forms once its longest waiting person has waited the wait
    assert report["robot_wait_excess_ms"]["p50"] >= 0
    if tables["people_only"]:
        _quantiles(report["people_only_ms"])
        _quantiles(report["people_only_last_ms"])
        assert report["people_only_last_ms"]["p50"] <= report["people_only_ms"]["max"]
    assert set(report["goals"]) == {"people_only_p95_ms", "robot_wait_excess_ms", "met"}
    assert len(report["server_rss_mb"]["before"]) == 1
    # the progress goes to stderr, the report alone to stdout
    assert "arrived" in err and "seated" in err


def test_people_who_chose_a_name_before(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, report, err = _bench(capsys, base, "--names-first", "--rules", "sala-3", "--json")
    assert code == 0, (report["error_samples"], err)
    assert report["names_first"] is True and report["seated"] == 24
    assert set(report["tables"]["by_rules"]) == {"sala-3"}
    assert "chooses a name first" in err


def test_two_instances_on_postgresql(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fresh_postgres() as pg:
        first = settings_for(tmp_path / "one", pg, **OPTIONS)
        second = settings_for(tmp_path / "two", pg, **OPTIONS)
        with running_server(first) as one, running_server(second) as two:
            code, report, err = _bench(capsys, f"{one},{two}", "--json")
    assert code == 0, (report["error_samples"], err)
    assert report["instances"] == 2 and report["seated"] == 24
    assert report["checks"] == NONE


def test_the_text_report(base: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["loadtest", base, "--lobby", "--players", "6", "--duration", "1"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "seated 6 of 6 who pressed" in out
    assert "checks: seated twice 0, lost from a queue 0, tables split across instances 0," in out


def _person(name: str, table: str | None, seats: tuple[str, ...], seat: int | None = 0) -> Person:
    person = Person("http://x", name, "sala-3", 0.0, queued=True, table=table, seats=seats)
    person.seat = seat
    person.pressed, person.seated = 1.0, 2.0
    return person


def test_each_check_finds_what_it_looks_for() -> None:
    fine = [_person(n, "t1", ("ana", "luis", "robot:normal")) for n in ("ana", "luis")]
    assert checks(fine, [["t1"], ["t1"]])["split_tables"] == []
    # seated twice: the server lists two tables for a person
    assert checks(fine, [["t1", "t2"], ["t1"]])["seated_twice"] == 1
    # lost: pressed, never told a table
    lost = [*fine, _person("eva", None, ())]
    assert checks(lost, [["t1"], ["t1"], []])["lost"] == 1
    # split: one instance's view has someone else, or lacks the person
    other = [fine[0], _person("luis", "t1", ("ana", "pepe", "robot:normal"))]
    assert checks(other, [["t1"], ["t1"]])["split_tables"] == ["t1"]
    missing = [fine[0], _person("luis", "t1", ("ana", "-", "robot:normal"), seat=None)]
    assert checks(missing, [["t1"], ["t1"]])["split_tables"] == ["t1"]
    moved = [fine[0], _person("luis", "t1", ("luis", "ana", "robot:normal"))]
    assert checks(moved, [["t1"], ["t1"]])["split_tables"] == ["t1"]
    # a seat given to a robot (its person came too late) is not a split
    late = [fine[0], _person("luis", "t1", ("ana", GONE, "robot:normal"), seat=None)]
    found = checks(late, [["t1"], ["t1"]])
    assert found["split_tables"] == [] and found["seats_given_away"] == 1
    # a table named before it existed on the person's instance
    fine[1].early = True
    assert checks(fine, [["t1"], ["t1"]])["told_before_built"] == ["t1"]


def test_bad_numbers_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in (["--robot-wait", "0.5"], ["--players", "0"], ["--rules", "poker"]):
        assert main(["loadtest", "http://127.0.0.1:9", "--lobby", *bad]) == 2
        assert "--robot-wait 1 to 300 s" in capsys.readouterr().err
