"""A dropped connection in a live game, end to end without a browser: a real
uvicorn, real HTTP and WebSocket clients. The turn limit is five minutes (a live
game) and a seat waits 1.5 s for its dropped person."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from server_helpers import Client, Listener, fresh_postgres, running_server, settings_for

WAIT_S = 1.5


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 5,
        "turn_limit": timedelta(minutes=5),
        "drop_wait_s": WAIT_S,
    }


def table_of(base: str, absent: str) -> tuple[str, Client, Client]:
    """Ana's started table with Luis (seat 1, who bids first) and two robots."""
    ana, luis = Client(base), Client(base)
    ana.sign_in("Ana")
    luis.sign_in("Luis")
    tid = ana.ok("POST", "/api/tables", {"absent": absent, "renege": "prevented"})["id"]
    luis.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    return tid, ana, luis


def until(client: Client, tid: str, test: Any, timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.view(tid)
        if test(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"the table did not get there: {client.view(tid)}")


def test_a_person_who_comes_back_in_time_keeps_the_seat(base: str) -> None:
    tid, ana, luis = table_of(base, "robot")
    watching = Listener(base, tid, ana.cookie_header())
    first = Listener(base, tid, luis.cookie_header())
    until(ana, tid, lambda v: v["away"] == [])
    first.socket.close()
    away = until(ana, tid, lambda v: v["away"])["away"]
    assert [a["seat"] for a in away] == [1]
    assert 0 < (_iso(away[0]["until"]) - _iso(away[0]["since"])) <= WAIT_S + 0.01
    # the countdown reached the others' sockets as a new version of the table
    deadline = time.monotonic() + 5
    while not any(f["view"]["away"] for f in watching.views()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(f["view"]["away"] for f in watching.views())
    again = Listener(base, tid, luis.cookie_header())
    view = until(ana, tid, lambda v: v["away"] == [])
    time.sleep(WAIT_S + 0.5)  # the countdown's end changes nothing now
    view = ana.view(tid)
    assert view["seats"][1]["human"] and view["replaced"] == []
    assert luis.act(tid, "bid", 3).status_code == 200  # play goes on
    again.socket.close()
    watching.socket.close()


def test_a_person_who_does_not_come_back_gets_a_robot_in_their_seat(base: str) -> None:
    tid, ana, luis = table_of(base, "robot")
    socket = Listener(base, tid, luis.cookie_header())
    until(ana, tid, lambda v: v["version"] > 0)
    socket.socket.close()
    until(ana, tid, lambda v: v["away"])
    view = until(ana, tid, lambda v: v["replaced"] == [1], timeout=WAIT_S + 10)
    assert view["seats"][1]["robot"] == "aleatorio" and view["away"] == []
    # the robot plays the seat: the game moves on past Luis's bid
    until(ana, tid, lambda v: v["game"]["bids"][1] is not None)
    assert luis.act(tid, "bid", 3).status_code in (403, 409)


def test_at_a_claim_table_the_claim_opens_when_the_countdown_ends(base: str) -> None:
    tid, ana, luis = table_of(base, "claim")
    socket = Listener(base, tid, luis.cookie_header())
    until(ana, tid, lambda v: v["version"] > 0)
    assert ana.act(tid, "claim").status_code == 409  # nobody is away: five minutes to wait
    socket.socket.close()
    before = _iso(ana.view(tid)["claim_at"])  # the turn limit's end
    view = until(ana, tid, lambda v: v["away"])
    assert _iso(view["claim_at"]) < before - 200
    assert _iso(view["claim_at"]) == _iso(view["away"][0]["until"])
    time.sleep(WAIT_S + 0.2)
    done = ana.act(tid, "claim")
    assert done.status_code == 200, done.text
    assert ana.view(tid)["game"]["result"]["reason"] == "timeout"


def test_spectators_and_games_by_days_do_not_wait(tmp_path: Path, base: str) -> None:
    tid, ana, luis = table_of(base, "robot")
    watcher = Client(base)
    watcher.sign_in("Marta")
    spectator = Listener(base, tid, watcher.cookie_header())
    until(ana, tid, lambda v: v["version"] > 0)
    spectator.socket.close()
    time.sleep(WAIT_S)
    assert ana.view(tid)["away"] == []
    settings = settings_for(tmp_path, robot_workers=0, drop_wait_s=WAIT_S)  # 48 hours a turn
    with running_server(settings) as slow:
        tid, ana, luis = table_of(slow, "robot")
        Listener(slow, tid, luis.cookie_header()).socket.close()
        time.sleep(WAIT_S)
        assert ana.view(tid)["away"] == []


def test_two_instances_a_socket_open_on_the_other_keeps_the_seat(tmp_path: Path) -> None:
    with fresh_postgres() as url:
        options: dict[str, Any] = {
            "robot_workers": 0,
            "turn_limit": timedelta(minutes=5),
            "drop_wait_s": WAIT_S,
            "robot_budget_ms": 5,
        }
        one_settings = settings_for(tmp_path, url, **options)
        two_settings = settings_for(tmp_path, url, **options)
        with running_server(one_settings) as one, running_server(two_settings) as two:
            tid, ana, luis = table_of(one, "robot")
            there = Listener(two, tid, luis.cookie_header())
            here = Listener(one, tid, luis.cookie_header())
            until(ana, tid, lambda v: v["version"] > 0)
            here.socket.close()  # Luis is still at the table through the other instance
            time.sleep(WAIT_S + 1.0)
            view = ana.view(tid)
            assert view["replaced"] == [] and view["away"] == []
            there.socket.close()  # now Luis is gone from both
            view = until(ana, tid, lambda v: v["replaced"] == [1], timeout=WAIT_S + 10)
            assert view["seats"][1]["robot"] is not None


def _iso(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text).timestamp()
