"""Seeks and the lobby's other conditions on a real server: a seek opens its table
at once and is listed; people accept it by sitting, inside its ratings only, and
the game starts when the last seat is taken; it expires when its creator leaves
the lobby before anyone accepted; absurd ranges, a second seek, a seek that filled
are refused clearly. Quick-play tables are live, and a person the queue seated who
never opens the table gets a robot after a while (2 s here); a person who asks for a
completion rate is never seated with someone below it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from server_helpers import Client, People

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "lobby_wait_s": 1.5,
        "lobby_arrival_s": 2.0,
        "lobby_tick_s": 0.1,
    }


def _until(check: Callable[[], Any], what: str, timeout: float = 8) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def _listed(client: Client, table: str) -> dict[str, Any] | None:
    seeks = client.ok("GET", "/api/lobby")["seeks"]
    return next((s for s in seeks if s["id"] == table), None)


def test_a_seek_is_listed_accepted_and_starts_when_full(people: People) -> None:
    (ana, ana_socket), (luis, _), (eva, _) = people("Ana"), people("Luis"), people("Eva")
    body = {"rules": "sala-3", "turns": "days", "rated": False, "max_rating": 1800}
    seek = ana.ok("POST", "/api/lobby/seeks", body)["seek"]
    table = seek["table"]
    assert seek["accepted"] is False and (seek["min_rating"], seek["max_rating"]) == (0, 1800)
    item = _until(lambda: _listed(luis, table), "the seek is never listed")
    assert item["by"] == "Ana" and item["free"] == 2 and item["turns"] == "days"
    assert item["rules"] == "sala-3" and item["rated"] is False
    # a second seek while the first waits: refused, nothing else changes
    again = ana.request("POST", "/api/lobby/seeks", {"rules": "estandar"})
    assert again.status_code == 409 and again.json()["error"] == "lobby_seek_exists"
    view = luis.ok("POST", f"/api/lobby/seeks/{table}/accept")
    assert view["you"] == 1 and view["status"] == "waiting" and view["rated"] is False
    # accepted: the creator's lobby says so (their page goes to the table)
    _until(
        lambda: any((f.get("seek") or {}).get("accepted") for f in ana_socket.frames),
        "the creator is never told",
    )
    view = eva.ok("POST", f"/api/lobby/seeks/{table}/accept")
    assert view["status"] == "playing" and view["you"] == 2
    assert ana.view(table)["status"] == "playing"
    _until(lambda: _listed(luis, table) is None, "a started seek stays listed")
    gone = people("Rosa")[0].request("POST", f"/api/lobby/seeks/{table}/accept")
    assert gone.status_code == 409 and gone.json()["error"] == "lobby_full"


def test_a_seek_refuses_ratings_outside_its_range_and_blocks(people: People) -> None:
    (ana, _), (luis, _), (rosa, _) = people("Alba"), people("Leo"), people("Rita")
    table = ana.ok(
        "POST", "/api/lobby/seeks", {"rules": "estandar", "min_rating": 1600, "max_rating": 2000}
    )["seek"]["table"]
    low = luis.request("POST", f"/api/lobby/seeks/{table}/accept")  # 1500, the start
    assert low.status_code == 403 and low.json()["error"] == "lobby_out_of_range"
    assert "1500" in low.json()["message"] and "1600–2000" in low.json()["message"]
    assert ana.view(table)["seats"][1] is None  # nothing changed
    wide = people("Ramón")[0].ok(
        "POST", "/api/lobby/seeks", {"rules": "cien", "min_rating": 1000, "max_rating": 2000}
    )["seek"]["table"]
    rosa.ok("POST", "/api/blocks", {"name": "Ramón"})
    blocked = rosa.request("POST", f"/api/lobby/seeks/{wide}/accept")
    assert blocked.status_code == 403 and blocked.json()["error"] == "lobby_blocked"
    missing = rosa.request("POST", "/api/lobby/seeks/nothere/accept")
    assert missing.status_code == 404 and missing.json()["error"] == "lobby_no_seek"


def test_a_seek_nobody_accepted_expires_when_its_creator_leaves(people: People) -> None:
    (ana, socket), (luis, _) = people("Nora"), people("Nico")
    table = ana.ok("POST", "/api/lobby/seeks", {"rules": "pagat"})["seek"]["table"]
    _until(lambda: _listed(luis, table), "the seek is never listed")
    socket.close()
    _until(lambda: _listed(luis, table) is None, "the seek outlives its creator's lobby")
    assert ana.ok("GET", "/api/lobby")["seek"] is None
    late = luis.request("POST", f"/api/lobby/seeks/{table}/accept")
    assert late.status_code == 404
    # withdrawing, and posting again, work
    assert ana.ok("DELETE", "/api/lobby/seeks") == {"withdrawn": False}
    assert ana.ok("POST", "/api/lobby/seeks", {"rules": "pagat"})["seek"]["table"] != table
    assert ana.ok("DELETE", "/api/lobby/seeks") == {"withdrawn": True}


def test_absurd_seeks_are_refused_in_both_languages(people: People) -> None:
    (ana, _), (ann, _) = people("Aurora"), people("Ann", "en")
    for body in (
        {"min_rating": 2000, "max_rating": 1000},
        {"min_rating": -5},
        {"max_rating": 99999},
        {"min_rating": 1500, "max_rating": 1510},
    ):
        for client, word in ((ana, "margen"), (ann, "range")):
            bad = client.request("POST", "/api/lobby/seeks", body)
            assert bad.status_code == 422 and bad.json()["error"] == "lobby_bad_range", body
            assert word in bad.json()["message"]
    bad = ann.request("POST", "/api/lobby/seeks", {"turns": "weeks"})
    assert bad.status_code == 422 and bad.json()["error"] == "lobby_bad_turns"
    bad = ann.request("POST", "/api/lobby/seeks", {"rules": "poker"})
    assert bad.status_code == 422 and bad.json()["error"] == "lobby_bad_rules"
    bad = ann.request("POST", "/api/lobby/seeks", {"min_rating": "mucho"})
    assert bad.status_code == 422
    assert ann.ok("GET", "/api/lobby")["seek"] is None  # nothing was posted


def test_quick_play_tables_are_live_and_wait_for_people_who_never_arrive(
    people: People,
) -> None:
    four = [people(name) for name in ("Pía", "Paco", "Pili", "Pepe")]
    for client, _ in four:
        client.ok("POST", "/api/lobby/quick", {"rules": "estandar", "wait": 60})
    table = four[0][1].seated()
    view = four[0][0].view(table)
    # nobody has opened the table: every seat counts down the lobby's wait
    assert sorted(a["seat"] for a in view["away"]) == [0, 1, 2, 3]
    # then robots take the seats of those who never came

    def replaced() -> dict[str, Any] | None:
        view: dict[str, Any] = four[0][0].view(table)
        return view if len(view["replaced"]) == 4 else None

    view = _until(replaced, "the seats of people who never arrived stay theirs")
    assert all(s["robot"] for s in view["seats"]) and view["away"] == []


def test_a_least_completion_rate_is_checked(people: People) -> None:
    client, _ = people("Celia")
    for bad in (-0.1, 1.5):
        refused = client.request("POST", "/api/lobby/quick", {"min_completion": bad})
        assert refused.status_code == 422 and refused.json()["error"] == "lobby_bad_completion"
    you = client.ok("POST", "/api/lobby/quick", {"rules": "sala-6", "min_completion": 0.9})
    assert you["you"]["min_completion"] == 0.9
