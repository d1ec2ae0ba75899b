"""The analysis of a finished game through the API, on SQLite and
PostgreSQL: refused (409) while the game is played; started (202) with its
progress; kept with the table once done; asked again it is not run again (the
stored row is the same, and the answer comes at once); spectators and people
without a session read every seat's analysis; the same as ``espadas analyze``'s
own functions give for the table's record."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from analysis_helpers import played_table, wait_done
from espadas.robots.analysis import analyse, analysis_json, decisions
from server_helpers import Client

pytestmark = pytest.mark.databases("sqlite", "postgresql")

BUDGET_MS = 15.0


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "analysis_budget_ms": BUDGET_MS}


@pytest.fixture
def ana(base: str) -> Iterator[Client]:
    client = Client(base, "en")
    client.sign_in("Ana")
    yield client
    client.close()


def test_no_analysis_before_the_end(ana: Client) -> None:
    tid: str = ana.ok("POST", "/api/tables", {})["id"]
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    for method in ("POST", "GET"):
        refused = ana.request(method, f"/api/tables/{tid}/analysis")
        assert refused.status_code == 409
        assert refused.json() == {
            "error": "analysis_not_finished",
            "message": "A game is analysed once it is over: this one is still being played.",
        }
    spanish = Client(ana.base, "es")
    said = spanish.request("GET", f"/api/tables/{tid}/analysis").json()["message"]
    assert said.startswith("La partida se analiza cuando termina")
    assert ana.request("POST", "/api/tables/AAAAAAAAAAAAAAAAAAAAAA/analysis").status_code == 404
    bad = ana.request("POST", f"/api/tables/{tid}/analysis", {"level": "dios"})
    assert bad.status_code == 422


def test_an_analysis_runs_once_is_kept_and_everyone_reads_it(ana: Client, base: str) -> None:
    tid = played_table(ana)
    before = ana.ok("GET", f"/api/tables/{tid}/analysis")
    assert before["status"] == "none" and before["analysis"] is None
    anonymous = Client(base, "en")
    assert anonymous.request("POST", f"/api/tables/{tid}/analysis").status_code == 401
    started = ana.request("POST", f"/api/tables/{tid}/analysis", {})
    assert started.status_code == 202, started.text
    assert started.json()["status"] in ("queued", "running")
    again = ana.request("POST", f"/api/tables/{tid}/analysis")  # while it runs: its progress
    assert again.status_code in (200, 202) and again.json()["status"] != "none"
    state, seen = wait_done(ana, tid)
    assert seen == sorted(seen) and seen[-1] == 100
    analysis = state["analysis"]
    assert analysis["format"] == "espadas-analysis/1"
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    found = decisions(record)
    assert state["total"] == state["done"] == len(found) == len(analysis["decisions"])
    assert {d["seat"] for d in analysis["decisions"]} == {0, 1, 2, 3}
    assert set(analysis["summary"]) == {"0", "1", "2", "3"}
    bid = next(d for d in analysis["decisions"] if d["seat"] == 0 and d["taken"] == 13)
    assert bid["mark"] in ("mistake", "blunder") and bid["best"] != 13, bid
    # the same object as espadas analyze's own functions give with the site's budget
    expected = analysis_json(analyse(found, seed=1, budget_ms=BUDGET_MS), range(4))
    assert analysis == expected
    # asked again once done: the kept analysis, at once, not a new run
    t0 = time.monotonic()
    kept = ana.request("POST", f"/api/tables/{tid}/analysis")
    assert kept.status_code == 200 and kept.json() == state
    assert time.monotonic() - t0 < 2
    # a spectator (signed in or not) reads every seat's analysis
    luis = Client(base, "en")
    luis.sign_in("Luis")
    assert luis.view(tid)["you"] is None
    assert luis.ok("GET", f"/api/tables/{tid}/analysis") == state
    assert luis.request("POST", f"/api/tables/{tid}/analysis").json() == state
    assert anonymous.ok("GET", f"/api/tables/{tid}/analysis")["analysis"] == analysis
    maestro = ana.ok("GET", f"/api/tables/{tid}/analysis?level=maestro")
    assert maestro["status"] == "none"  # one analysis per table and level
    for client in (anonymous, luis):
        client.close()


def test_requests_at_once_all_follow_the_one_analysis(ana: Client, base: str) -> None:
    tid = played_table(ana, tricks=1)
    people = []
    for i in range(6):
        person = Client(base, "en")
        person.sign_in(f"P{i}")
        people.append(person)
    barrier = threading.Barrier(len(people))
    answers: list[Any] = [None] * len(people)

    def ask(i: int) -> None:
        barrier.wait()
        answers[i] = people[i].request("POST", f"/api/tables/{tid}/analysis")

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(people))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(a is not None and a.status_code in (200, 202) for a in answers)
    assert {a.json()["status"] for a in answers} <= {"queued", "running", "done"}
    state, _ = wait_done(ana, tid)
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    assert len(state["analysis"]["decisions"]) == len(decisions(record))
    for person in people:
        person.close()
