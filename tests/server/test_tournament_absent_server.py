"""An absent entrant at an event's table, through the API, on SQLite and
PostgreSQL: the event's ``absent`` option (default ``robot``) in its answers and
the OpenAPI document; the organiser (not seated) and the other side may put a
robot in the seat once the turn limit has passed (the event says when, table by
table), nobody else; the round then finishes and the event ends, the person
replaced keeping their place in the standings (the page's and the records
bundle's agree); an event that claims keeps its claims. The clock is faked and
the turn limit is one hour."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from espadas.cli.event import bundle_standings
from espadas.tables.clock import FakeClock
from event_helpers import play_table, wait_for
from server_helpers import Client, Listener

pytestmark = pytest.mark.databases("sqlite", "postgresql")

LIMIT = timedelta(hours=1)


@pytest.fixture(scope="module")
def clock(database: str | None) -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 20, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def server_options(clock: FakeClock) -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "clock": clock,
        "notices": False,
        "turn_limit": LIMIT,
    }


def started_event(
    base: str, clock: FakeClock, **options: Any
) -> tuple[Client, dict[str, Client], dict[str, Any]]:
    """Olga's event of one table (Ana & Bea against Cai & Dan, 2 boards), started."""
    org = Client(base)
    org.sign_in("Olga")
    clients = {n: Client(base) for n in ("Ana", "Bea", "Cai", "Dan")}
    body = {"name": "Martes", "boards": 2, "robot": "aleatorio"} | options
    made = org.ok("POST", "/api/events", body)
    token = made["link"].split("?t=")[1]
    for name, client in clients.items():
        client.sign_in(name)
        clock.advance(seconds=1)  # the order of joining makes the pairs
        client.ok("POST", f"/api/events/{made['id']}/join", {"token": token})
    started = org.ok("POST", f"/api/events/{made['id']}/start")
    return org, clients, started


def close(*clients: Client) -> None:
    for client in clients:
        client.close()


def test_the_option_in_the_answers_and_the_openapi_document(base: str) -> None:
    org = Client(base, "en")
    try:
        org.sign_in("Olga")
        assert org.ok("POST", "/api/events", {"name": "x", "boards": 1})["absent"] == "robot"
        claim = org.ok("POST", "/api/events", {"name": "y", "boards": 1, "absent": "claim"})
        assert claim["absent"] == "claim"
        wrong = org.request("POST", "/api/events", {"name": "z", "absent": "forfeit"})
        assert wrong.status_code == 422 and wrong.json()["error"] == "bad_request"
        schemas = org.ok("GET", "/openapi.json")["components"]["schemas"]
        assert schemas["EventIn"]["properties"]["absent"]["enum"] == ["claim", "robot"]
        assert "absent" in schemas["EventOut"]["properties"]
        assert {"replace_at", "replace_open", "waiting"} <= set(schemas["TableOut"]["properties"])
    finally:
        org.close()


def test_the_organiser_replaces_an_absent_entrant(base: str, clock: FakeClock) -> None:
    org, clients, started = started_event(base, clock)
    zoe = Client(base, "en")
    try:
        zoe.sign_in("Zoe")
        event = started["id"]
        [row] = started["tables"]
        table = row["table"]
        assert row["players"] == ["Ana", "Cai", "Bea", "Dan"]
        # Cai (seat 1) bids first, and does not
        opens = (clock.now() + LIMIT).isoformat()
        assert (row["replace_at"], row["replace_open"], row["waiting"]) == (opens, False, 1)
        view = org.view(table)
        assert view["absent"] == "robot" and view["replace_at"] == opens and view["you"] is None
        assert view["game"]["hand"] is None  # the organiser sees no card
        mine = {n: c.ok("GET", f"/api/events/{event}")["tables"][0] for n, c in clients.items()}
        assert mine["Ana"]["replace_at"] == opens and mine["Bea"]["replace_at"] == opens
        assert mine["Cai"]["replace_at"] is None and mine["Dan"]["replace_at"] is None
        early = org.act(table, "replace")
        assert early.status_code == 409 and early.json()["error"] == "replace_early"
        clock.advance(hours=1, seconds=1)
        shown = org.ok("GET", f"/api/events/{event}")["tables"][0]
        assert shown["replace_open"] is True
        own = clients["Dan"].act(table, "replace")  # Cai's partner
        assert own.status_code == 409 and own.json()["error"] == "replace_own"
        stranger = zoe.act(table, "replace")
        assert stranger.status_code == 403 and stranger.json()["error"] == "not_seated"
        assert stranger.json()["message"] == "Only the players seated at this table may do that."
        done = org.act(table, "replace")
        assert done.status_code == 200, done.text
        seat = done.json()["seats"][1]
        assert (seat["robot"], seat["human"]) == ("aleatorio", False)  # the event's robots
        # the robot bids at once; the next wait (Bea's) opens a limit later
        after = wait_for(
            lambda: (t := org.ok("GET", f"/api/events/{event}")["tables"][0])["waiting"] == 2 and t,
            "the robot did not bid",
        )
        assert after["replace_open"] is False and after["replace_at"] > opens
        # the robot plays on: the round, and so the event, finishes without Cai
        play_table({n: clients[n] for n in ("Ana", "Bea", "Dan")}, table, 2)
        final = wait_for(
            lambda: (e := org.ok("GET", f"/api/events/{event}"))["status"] == "finished" and e,
            "the event did not end",
        )
        assert final["tables"][0]["done"] and final["tables"][0]["replace_at"] is None
        bundle = org.ok("GET", f"/api/events/{event}/records")
        [item] = bundle["tables"]
        record = item["record"]
        assert record["players"][1] == "robot:aleatorio" and len(record["hands"]) == 2
        assert item["entrants"] == ["Ana", "Cai", "Bea", "Dan"] and "entrants" not in record
        # Cai keeps his place: the robot's boards count for his pair
        shown = org.ok("GET", f"/api/events/{event}/standings")
        ranked = {s["entrant"]: s["boards"] for s in shown["overall"]}
        assert ranked == {"Ana & Bea": 2, "Cai & Dan": 2}
        assert bundle_standings(bundle) == shown  # as espadas duplicate BUNDLE.json
    finally:
        close(org, zoe, *clients.values())


def test_a_seated_opponent_replaces_too(base: str, clock: FakeClock) -> None:
    org, clients, started = started_event(base, clock)
    try:
        table = started["tables"][0]["table"]
        clock.advance(hours=2)
        done = clients["Bea"].act(table, "replace", "normal")
        assert done.status_code == 200, done.text
        assert done.json()["seats"][1]["robot"] == "normal"
        # the robot bids at once: Bea's turn has only begun
        again = wait_for(lambda: org.view(table)["game"]["to_act"] == 2, "the robot did not bid")
        assert again
        early = org.act(table, "replace")
        assert early.status_code == 409 and early.json()["error"] == "replace_early"
    finally:
        close(org, *clients.values())


def test_the_organiser_replaces_over_the_live_socket(base: str, clock: FakeClock) -> None:
    org, clients, started = started_event(base, clock)
    table = started["tables"][0]["table"]
    socket = Listener(base, table, org.cookie_header())
    try:
        socket.send({"type": "act", "id": 1, "action": {"type": "replace"}})
        refused = socket.answer(1)
        assert (refused["type"], refused["status"], refused["error"]) == (
            "refused",
            409,
            "replace_early",
        )
        clock.advance(hours=1, seconds=1)
        socket.send({"type": "act", "id": 2, "action": {"type": "replace", "value": "normal"}})
        assert socket.answer(2)["type"] == "done"
        assert org.view(table)["seats"][1]["robot"] == "normal"
    finally:
        socket.close()
        close(org, *clients.values())


def test_an_event_that_claims(base: str, clock: FakeClock) -> None:
    org, clients, started = started_event(base, clock, absent="claim")
    try:
        [row] = started["tables"]
        event = started["id"]
        assert started["absent"] == "claim" and row["replace_at"] is None
        clock.advance(hours=2)
        off = org.act(row["table"], "replace")
        assert off.status_code == 409 and off.json()["error"] == "replace_off"
        assert clients["Ana"].act(row["table"], "claim").status_code == 200
        # the game is over: the round, and so the event, ends (board 2 not played)
        final = wait_for(
            lambda: (e := org.ok("GET", f"/api/events/{event}"))["status"] == "finished" and e,
            "the event did not end",
        )
        assert final["tables"][0]["done"] and final["tables"][0]["boards_played"] == 0
    finally:
        close(org, *clients.values())
