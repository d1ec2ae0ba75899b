"""A person's completion rate on their profile (``GET /api/club/players/ID``'s
``completion``), from real games on a real server: a game played to its end, a
game abandoned, a game whose seat a robot took after a dropped connection, an
unrated game (not counted); a robot level has none."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest

from server_helpers import Client, Listener


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 5,
        "turn_limit": timedelta(minutes=5),
        "drop_wait_s": 0.5,
    }


def started(ana: Client, luis: Client, **options: Any) -> str:
    tid: str = ana.ok("POST", "/api/tables", {"renege": "prevented", **options})["id"]
    luis.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    return tid


def over(client: Client, tid: str) -> None:
    deadline = time.monotonic() + 15
    while client.view(tid)["status"] != "finished":
        assert time.monotonic() < deadline, client.view(tid)["game"]
        time.sleep(0.05)


def completion(client: Client, who: str) -> Any:
    return client.ok("GET", f"/api/club/players/{who}")["completion"]


def test_finished_left_and_unrated_games(base: str) -> None:
    ana, luis = Client(base), Client(base)
    ana.sign_in("Ana")
    luis.sign_in("Luis")
    ana_id = ana.ok("GET", "/api/club/me")["id"]
    luis_id = luis.ok("GET", "/api/club/me")["id"]
    assert completion(ana, luis_id) == {"finished": 0, "left": 0, "rate": None}
    # Luis abandons a rated game: he left it, Ana finished it
    tid = started(ana, luis)
    assert luis.act(tid, "abandon").status_code == 200
    over(ana, tid)
    assert completion(ana, luis_id) == {"finished": 0, "left": 1, "rate": 0.0}
    assert completion(luis, ana_id) == {"finished": 1, "left": 0, "rate": 1.0}
    # an unrated game left counts for nobody
    tid = started(ana, luis, rated=False)
    assert luis.act(tid, "abandon").status_code == 200
    over(ana, tid)
    assert completion(ana, luis_id)["left"] == 1
    # Luis's connection drops and a robot takes his seat; Ana abandons later
    tid = started(ana, luis, absent="robot")
    Listener(base, tid, luis.cookie_header()).socket.close()
    deadline = time.monotonic() + 15
    while ana.view(tid)["replaced"] != [1]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert ana.act(tid, "abandon").status_code == 200
    over(ana, tid)
    assert completion(ana, luis_id) == {"finished": 0, "left": 2, "rate": 0.0}
    assert completion(ana, ana_id) == {"finished": 1, "left": 1, "rate": 0.5}
    assert completion(ana, "robot-aleatorio") is None
