"""The lobby on a real server: quick play seats four people at one table, three
people and a robot after the wait, never two people one of whom blocked the other;
a closed lobby socket leaves the queue; open tables are joined in one call (and
refused once full, or to a blocked person); refusals are clear in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server_helpers import Client, LobbySocket


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "lobby_wait_s": 1.0,
        "lobby_tick_s": 0.1,
    }


def test_four_people_pressing_quick_play_land_at_one_rated_table(people: Any) -> None:
    four = [people(name) for name in ("Ana", "Luis", "Marta", "Pedro")]
    for client, _ in four:
        assert client.ok("POST", "/api/lobby/quick", {"rules": "estandar", "wait": 60})["you"]
    tables = {socket.seated() for _, socket in four}
    assert len(tables) == 1
    table = tables.pop()
    view = four[0][0].view(table)
    assert view["status"] == "playing"
    names = sorted(s["name"] for s in view["seats"])
    assert names == ["Ana", "Luis", "Marta", "Pedro"]
    assert view["rated"] is True
    # seated at a live game: quick play does not seat them at another
    again = four[1][0].request("POST", "/api/lobby/quick", {"rules": "pagat"})
    assert again.status_code == 409 and again.json()["error"] == "lobby_playing"
    deadline = time.monotonic() + 5  # the lists are made at most once a second
    while True:
        watch = four[0][0].ok("GET", "/api/lobby/watch?rules=estandar")["watch"]
        if table in [g["id"] for g in watch]:
            break
        assert time.monotonic() < deadline, watch
        time.sleep(0.1)
    assert four[0][0].ok("GET", "/api/lobby/watch?rules=cien")["watch"] == []


def test_three_people_and_a_robot_after_the_wait(people: Any) -> None:
    three = [people(name) for name in ("Rosa", "Juan", "Eva")]
    pressed = time.monotonic()
    for client, _ in three:
        client.ok("POST", "/api/lobby/quick", {"rules": "cien", "robot": "normal"})
    tables = {socket.seated() for _, socket in three}
    assert time.monotonic() - pressed >= 0.9  # the module's wait is 1 s
    assert len(tables) == 1
    view = three[0][0].view(tables.pop())
    robots = [s for s in view["seats"] if s.get("robot")]
    assert len(robots) == 1 and robots[0]["robot"] == "normal"
    assert view["status"] == "playing" and view["rated"] is False


def test_a_blocked_person_is_never_seated_with_the_blocker(people: Any) -> None:
    (ana, ana_socket), (luis, luis_socket) = people("Blanca"), people("Bruno")
    luis_id = ana.ok("POST", "/api/blocks", {"name": "bruno"})["blocked"]
    assert [b["id"] for b in ana.ok("GET", "/api/blocks")["blocks"]] == [luis_id]
    for client in (ana, luis):
        client.ok("POST", "/api/lobby/quick", {"rules": "sala-3", "wait": 1})
    first, second = ana_socket.seated(), luis_socket.seated()
    assert first != second  # each with robots rather than together


def test_closing_the_lobby_socket_leaves_the_queue(people: Any) -> None:
    client, socket = people("Marta")
    client.ok("POST", "/api/lobby/quick", {"rules": "sala-6", "wait": 300})
    assert client.ok("GET", "/api/lobby")["you"]["rules"] == "sala-6"
    socket.close()
    deadline = time.monotonic() + 5
    while client.ok("GET", "/api/lobby")["you"] is not None:
        assert time.monotonic() < deadline, "still in the queue"
        time.sleep(0.05)


def test_two_tabs_are_one_person_in_the_queue(people: Any, base: str) -> None:
    client, socket = people("Pedro")
    other_tab = LobbySocket(base, client.cookie_header())
    client.ok("POST", "/api/lobby/quick", {"rules": "sala-5", "wait": 300})
    client.ok("POST", "/api/lobby/quick", {"rules": "sala-5", "wait": 300})
    deadline = time.monotonic() + 5  # the counts are made at most once a second
    while client.ok("GET", "/api/lobby")["counts"].get("sala-5") != 1:
        assert time.monotonic() < deadline, client.frames[-1]
        time.sleep(0.1)
    time.sleep(1.1)
    assert client.ok("GET", "/api/lobby")["counts"].get("sala-5") == 1
    socket.close()  # the other tab still holds the place
    time.sleep(0.3)
    assert client.ok("GET", "/api/lobby")["you"] is not None
    other_tab.close()
    assert client.ok("DELETE", "/api/lobby/quick") in ({"left": True}, {"left": False})


def test_open_tables_join_in_one_call_and_refuse_full_or_blocked(people: Any) -> None:
    (ana, _), (luis, _), (rosa, _) = people("Olga"), people("Omar"), people("Oriol")
    table = ana.ok("POST", "/api/tables", {"preset": "sala", "options": {"players": 3}})["id"]
    refused = luis.request("POST", "/api/lobby/open", {"table": table})
    assert refused.status_code == 403 and refused.json()["error"] == "lobby_not_creator"
    ana.ok("POST", "/api/lobby/open", {"table": table})
    deadline = time.monotonic() + 5
    while table not in [t["id"] for t in luis.ok("GET", "/api/lobby")["open"]]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    rosa_id = ana.ok("POST", "/api/blocks", {"name": "Oriol"})["blocked"]
    blocked = rosa.request("POST", f"/api/lobby/open/{table}/join")
    assert blocked.status_code == 403 and blocked.json()["error"] == "lobby_blocked"
    assert luis.ok("POST", f"/api/lobby/open/{table}/join")["you"] == 1
    ana.ok("DELETE", f"/api/blocks/{rosa_id}")
    third = people("Eva")[0]
    assert third.ok("POST", f"/api/lobby/open/{table}/join")["you"] == 2
    full = rosa.request("POST", f"/api/lobby/open/{table}/join")
    assert full.status_code == 409 and full.json()["error"] == "lobby_full"
    assert "llenó" in full.json()["message"]


def test_refusals_are_clear_in_both_languages(people: Any) -> None:
    (ana, _), (ann, _) = people("Ana"), people("Ann", "en")
    for client, word in ((ana, "reglas"), (ann, "rules")):
        bad = client.request("POST", "/api/lobby/quick", {"rules": "poker"})
        assert bad.status_code == 422 and bad.json()["error"] == "lobby_bad_rules"
        assert word in bad.json()["message"]
    bad = ann.request("POST", "/api/lobby/quick", {"rules": "estandar", "wait": 100000})
    assert bad.status_code == 422 and "1 to 300 seconds" in bad.json()["message"]
    bad = ana.request("POST", "/api/lobby/quick", {"rules": "estandar", "robot": "genio"})
    assert bad.status_code == 422 and bad.json()["error"] == "lobby_bad_robot"
    assert ana.request("POST", "/api/lobby/quick", {"rules": "mine"}).status_code == 409
    statuses = [
        ann.request("POST", "/api/lobby/quick", {"rules": r, "wait": 300}).status_code
        for r in ["estandar", "pagat", "cien", "sala", "sala-3", "sala-5", "sala-6", "sala"]
    ]
    assert statuses[-1] == 429, statuses
    flood = ann.request("POST", "/api/lobby/quick", {"rules": "estandar"})
    assert "Too many presses" in flood.json()["message"]
    assert ann.ok("GET", "/api/lobby")["counts"].get("sala-6", 0) <= 1  # once, moved
    assert ana.request("POST", "/api/blocks", {"player": "nobody"}).status_code == 404
    anon = Client(ana.base)
    assert anon.request("POST", "/api/lobby/quick", {}).status_code in (401, 403)
    anon.close()


def test_the_lists_are_kept_longer_when_many_sockets_watch() -> None:
    """Each new list is a frame to every lobby socket: up to a hundred sockets the
    lists are made again every second, beyond that in proportion."""
    import asyncio
    from datetime import timedelta
    from types import SimpleNamespace

    from espadas.server.lobby import LISTS_EVERY, LISTS_SOCKETS, LobbyService, Socket
    from espadas.server.settings import Settings

    async def check() -> None:
        service = LobbyService(SimpleNamespace(lobby=None), None, Settings())  # type: ignore[arg-type]
        assert service.lists_every() == LISTS_EVERY == timedelta(seconds=1)
        service.sockets = {Socket(f"p{i}") for i in range(LISTS_SOCKETS)}
        assert service.lists_every() == LISTS_EVERY
        service.sockets |= {Socket(f"q{i}") for i in range(2 * LISTS_SOCKETS)}
        assert service.lists_every() == 3 * LISTS_EVERY

    asyncio.run(check())
