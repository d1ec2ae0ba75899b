"""Malformed and hostile input: always a 4xx with a message, nothing changed, never a 5xx."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from espadas.tables.clock import FakeClock
from server_helpers import TLS, Client, Listener, running_server, settings_for

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {"clock": FakeClock(), "robot_workers": 0, "rate": 10_000, "burst": 10_000}


@pytest.fixture
def table(base: str) -> tuple[str, list[Client]]:
    """A started table: Ana (creator, seat 0), Luis (1), two robots; Sofía watches."""
    ana = Client(base)
    ana.sign_in("Ana")
    tid = ana.ok("POST", "/api/tables", {"target": 250})["id"]
    luis = Client(base)
    luis.sign_in("Luis")
    luis.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    sofia = Client(base)
    sofia.sign_in("Sofía")
    sofia.ok("POST", f"/api/tables/{tid}/join")
    return tid, [ana, luis, sofia]


def refused(response: httpx.Response, status: int | None = None) -> dict[str, Any]:
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    if status is not None:
        assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] and body["message"]
    return body


def raw(client: Client, path: str, content: bytes, **headers: str) -> httpx.Response:
    sent = {"content-type": "application/json", "x-csrf-token": client.csrf, **headers}
    return client.http.post(path, content=content, headers=sent)


BAD_ACTIONS: list[Any] = [
    [],
    "play",
    {},
    {"type": 5},
    {"type": "nope"},
    {"type": "look", "evil": 1},
    {"type": "play", "value": ["AS"]},
    {"type": "play", "value": {"card": "AS"}},
    {"type": "play", "value": "ZZ"},
    {"type": "play", "value": "A" * 5000},
    {"type": "play", "value": 1.5},
    {"type": "bid", "value": 99},
    {"type": "bid", "value": -1},
    {"type": "bid", "value": True},
    {"type": "bid", "value": "3"},
    {"type": "bid", "value": 10**40},
    {"type": "accuse", "value": "x"},
    {"type": "accuse", "value": 9},
    {"type": "accuse", "value": None},
    {"type": None},
]


def test_malformed_actions_change_nothing(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (ana, luis, _sofia) = table
    before = ana.view(tid)
    for body in BAD_ACTIONS:
        for client in (ana, luis):
            refused(client.request("POST", f"/api/tables/{tid}/actions", body))
    for text in (b"{", b"\xff\xfe", b"null", b'{"type": "play", "value": "AS"' + b" " * 100):
        refused(raw(ana, f"/api/tables/{tid}/actions", text))
    assert ana.view(tid) == before


def test_random_bodies_never_break_the_server(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (ana, _luis, _sofia) = table
    rng = random.Random(4)
    atoms: list[Any] = [None, True, 0, -1, 13, 2**70, "", "AS", "10h", "nil", "blind_nil", "ñ" * 50]
    keys = ["type", "value", "seat", "level", "seats", "partner", "name", "x"]
    kinds = ["look", "bid", "play", "accuse", "next_hand", "confirm_end", "abandon", "claim"]
    paths = ["actions", "partner", "robots", "free", "start", "join", "rematch"]
    before = ana.view(tid)
    for _ in range(150):
        body: dict[str, Any] = {}
        for key in rng.sample(keys, rng.randrange(0, 4)):
            body[key] = rng.choice([*atoms, [rng.choice(atoms)], {"k": rng.choice(atoms)}])
        if rng.random() < 0.5:
            body["type"] = rng.choice(kinds)
        path = f"/api/tables/{tid}/{rng.choice(paths)}"
        response = ana.request("POST", path, body)
        assert response.status_code < 500, (path, body, response.text)
        if response.status_code == 200 and path.endswith("actions"):
            before = ana.view(tid)  # a legal action happened to be drawn: new baseline
    after = ana.view(tid)
    assert after["version"] >= before["version"]


def test_limits_and_unknown_things(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (ana, _luis, _sofia) = table
    before = ana.view(tid)
    big = json.dumps({"type": "play", "value": "AS", "pad": "x" * 1_000_000}).encode()
    refused(raw(ana, f"/api/tables/{tid}/actions", big), 413)

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1000

    streamed = ana.http.post(
        f"/api/tables/{tid}/actions",
        content=chunks(),
        headers={"content-type": "application/json", "x-csrf-token": ana.csrf},
    )
    refused(streamed, 413)
    refused(ana.request("GET", "/api/tables/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 404)
    refused(
        ana.request("POST", "/api/tables/AAAAAAAAAAAAAAAAAAAAAAAA/actions", {"type": "look"}), 404
    )
    refused(ana.request("GET", "/api/tables/" + "a" * 500))
    refused(ana.request("GET", "/api/tables/..%2F..%2Fetc"))
    refused(ana.request("GET", "/no/such/page"), 404)
    refused(ana.request("POST", "/api/session", {"name": ""}), 422)
    refused(ana.request("POST", "/api/session", {"name": "x" * 41}), 422)
    refused(ana.request("POST", "/api/tables", {"preset": "poker"}), 422)
    refused(ana.request("POST", "/api/tables", {"options": {"target": "lots"}}), 422)
    assert ana.view(tid) == before


def test_other_peoples_seats_and_turns(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (ana, luis, sofia) = table
    before = ana.view(tid)
    to_act = before["game"]["to_act"]
    assert to_act == 1  # Luis bids first (left of Ana, the dealer)
    assert refused(ana.act(tid, "bid", 3), 409)["error"] == "not_your_turn"
    assert refused(sofia.act(tid, "bid", 3), 403)["error"] == "not_seated"
    refused(luis.request("POST", f"/api/tables/{tid}/robots", {"level": "normal"}), 403)
    refused(luis.request("POST", f"/api/tables/{tid}/partner", {"seat": 1}), 403)
    refused(luis.request("POST", f"/api/tables/{tid}/start"), 403)
    refused(ana.request("POST", f"/api/tables/{tid}/start"), 409)
    refused(ana.request("POST", f"/api/tables/{tid}/free", {"seat": 1}), 409)
    anonymous = Client(base)
    assert refused(anonymous.act(tid, "bid", 3), 401)["error"] == "no_session"
    forged = Client(base)
    forged.http.cookies.set("espadas_player", "someone.forged")
    forged.http.cookies.set("espadas_csrf", "t")
    forged.csrf = "t"
    refused(forged.act(tid, "bid", 3), 401)
    assert ana.view(tid) == before


def test_csrf_and_origin(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (_ana, luis, _sofia) = table
    before = luis.view(tid)
    body = json.dumps({"type": "bid", "value": 3}).encode()
    path = f"/api/tables/{tid}/actions"
    no_token = luis.http.post(path, content=body, headers={"content-type": "application/json"})
    assert refused(no_token, 403)["error"] == "csrf"
    wrong = raw(luis, path, body, **{"x-csrf-token": "nope"})
    refused(wrong, 403)
    other_site = raw(luis, path, body, origin="https://evil.example")
    assert refused(other_site, 403)["error"] == "bad_origin"
    assert luis.view(tid) == before
    with pytest.raises(Exception):  # noqa: B017 - the handshake is refused
        Listener(base, tid, luis.cookie_header(), origin="https://evil.example")
    fine = raw(luis, path, body)
    assert fine.status_code == 200


def test_an_origin_with_another_scheme_or_port_is_refused(
    base: str, table: tuple[str, list[Client]]
) -> None:
    tid, (_ana, luis, _sofia) = table
    before = luis.view(tid)
    path = f"/api/tables/{tid}/actions"
    body = json.dumps({"type": "bid", "value": 3}).encode()
    host, port = base.removeprefix("http://").rsplit(":", 1)
    for origin in (f"https://{host}:{port}", f"http://{host}:{int(port) + 1}", f"http://{host}"):
        assert refused(raw(luis, path, body, origin=origin), 403)["error"] == "bad_origin"
        with pytest.raises(Exception):  # noqa: B017 - the handshake is refused
            Listener(base, tid, luis.cookie_header(), origin=origin)
    assert luis.view(tid) == before
    socket = Listener(base, tid, luis.cookie_header(), origin=base.upper())
    try:
        socket.wait_version(before["version"])
    finally:
        socket.close()


def test_the_public_url_is_the_one_origin(tmp_path: Any) -> None:
    """Behind a proxy the public address is the origin (scheme, host and port);
    the address the server itself sees is not."""
    settings = settings_for(tmp_path, robot_workers=0, public_url="https://espadas.example.org")
    with running_server(settings) as url:

        def status(origin: str | None) -> int:
            headers = {} if origin is None else {"origin": origin}
            return httpx.post(
                url + "/api/session", json={"name": "Ana"}, headers=headers
            ).status_code

        assert status("https://espadas.example.org") == 200
        assert status("https://ESPADAS.example.org:443/") == 200
        assert status(None) == 200  # not a browser
        for origin in (
            "http://espadas.example.org",
            "https://espadas.example.org:8443",
            url,
            "null",
            "https://espadas.example.org.evil.example",
        ):
            assert status(origin) == 403, origin


def test_english_messages(base: str, table: tuple[str, list[Client]]) -> None:
    tid, (ana, _luis, _sofia) = table
    english = Client(base, "en-GB,en;q=0.9")
    english.http.cookies.update(ana.http.cookies)
    english.csrf = ana.csrf
    message = refused(english.act(tid, "bid", 3), 409)["message"]
    assert "turn" in message
    spanish = refused(ana.act(tid, "bid", 3), 409)["message"]
    assert "turno" in spanish


def test_rate_limit(tmp_path: Any) -> None:
    settings = settings_for(tmp_path, robot_workers=0, rate=0.01, burst=5)
    with running_server(settings) as url:
        statuses = [
            httpx.get(url + "/api/tables/AAAAAAAAAAAA", verify=TLS).status_code for _ in range(8)
        ]
    assert statuses[:5] == [404] * 5
    assert statuses[5:] == [429] * 3


def test_rate_limit_on_the_live_socket(tmp_path: Any) -> None:
    """Actions over the WebSocket draw on the same bucket as HTTP requests."""
    settings = settings_for(tmp_path, robot_workers=0, rate=0.01, burst=6)
    with running_server(settings) as url:
        ana = Client(url)
        ana.sign_in("Ana")  # before the cookie: counted for the address
        tid = ana.ok("POST", "/api/tables", {"target": 250})["id"]  # Ana's 1st token
        socket = Listener(url, tid, ana.cookie_header())  # 2nd (the handshake)
        try:
            for ref in range(5):
                socket.send({"type": "act", "id": ref, "action": {"type": "bid", "value": 3}})
            statuses = [socket.answer(ref)["status"] for ref in range(5)]
        finally:
            socket.close()
    # four tokens were left: the game has not started (409), then none (429)
    assert statuses == [409, 409, 409, 409, 429]
