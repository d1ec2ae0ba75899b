"""Robots at tables: they play in a process pool by themselves; a robot program
that crashes or stalls is replaced by a legal move and its faults are logged;
no visitor can make the server run a program."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from server_helpers import Client, running_server, settings_for

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "robot_fixture.py"


def play_hand(client: Client, table: str, within_s: float = 180) -> dict[str, Any]:
    """Ana (seat 0) bids 3 and plays her first proper card until the hand is over.
    Waits by the clock, not by a number of polls: a slow robot ("lento") or a
    loaded machine must not run the polls out."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        view = client.view(table)
        game = view["game"]
        if game["phase"] in ("hand_end", "game_over"):
            return view
        if game["to_act"] == 0:
            if game["phase"] == "bidding":
                value: object = 3
                kind = "bid"
            else:
                kind, value = "play", game["proper_plays"][0]
            assert client.act(table, kind, value).status_code == 200
        else:
            time.sleep(0.02)
    raise AssertionError("the hand did not end")


def test_robots_think_in_a_process_pool(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, robot_workers=2, rate=10_000, burst=10_000)
    with running_server(settings) as base:
        ana = Client(base)
        ana.sign_in("Ana")
        tid = ana.ok("POST", "/api/tables", {"renege": "prevented"})["id"]
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "experto", "seats": [2]})
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
        ana.ok("POST", f"/api/tables/{tid}/start")
        view = play_hand(ana, tid)
        assert sum(view["game"]["tricks_taken"]) == 13
        assert view["faults"] == 0


def test_a_robots_time_limit_starts_after_the_warm_up(tmp_path: Path) -> None:
    """One worker, a time limit shorter than the worker's warm-up (it loads the
    search's compiled kernel): the first decisions, queued behind the warm-up, are
    not late (they were, and a legal card was played for the robot)."""
    settings = settings_for(
        tmp_path, robot_workers=1, robot_timeout_s=0.5, rate=10_000, burst=10_000
    )
    with running_server(settings) as base:
        ana = Client(base)
        ana.sign_in("Ana")
        tid = ana.ok("POST", "/api/tables", {"renege": "prevented"})["id"]
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
        ana.ok("POST", f"/api/tables/{tid}/start")  # at once: the warm-up still runs
        view = play_hand(ana, tid)
        assert view["faults"] == 0


def test_faulty_robot_programs_cannot_stop_a_table(tmp_path: Path) -> None:
    python = sys.executable
    settings = settings_for(
        tmp_path,
        robot_workers=0,
        rate=10_000,
        burst=10_000,
        robot_budget_ms=100,
        robot_timeout_s=5,
        external_robots={
            "roto": f"{python} {FIXTURE} crash",
            "lento": f"{python} {FIXTURE} sleepy 4 3",
            "tramposo": f"{python} {FIXTURE} illegal",
        },
    )
    with running_server(settings) as base:
        ana = Client(base)
        ana.sign_in("Ana")
        tid = ana.ok("POST", "/api/tables", {"renege": "prevented"})["id"]
        for seat, level in ((1, "roto"), (2, "lento"), (3, "tramposo")):
            ana.ok("POST", f"/api/tables/{tid}/robots", {"level": level, "seats": [seat]})
        ana.ok("POST", f"/api/tables/{tid}/start")
        view = play_hand(ana, tid)
        assert sum(view["game"]["tricks_taken"]) == 13
        assert view["faults"] >= 13  # every card of "roto" at least


def test_visitors_cannot_name_programs(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, robot_workers=0, external_robots={"mio": "true"})
    with running_server(settings) as base:
        ana = Client(base)
        ana.sign_in("Ana")
        tid = ana.ok("POST", "/api/tables", {})["id"]
        for level in ("cmd:touch /tmp/pwned", "omnisciente", "cmd:mio", "true"):
            response = ana.request("POST", f"/api/tables/{tid}/robots", {"level": level})
            assert response.status_code == 422
            assert response.json()["error"] == "bad_robot"
        assert ana.view(tid)["version"] == 1
        assert not Path("/tmp/pwned").exists()
