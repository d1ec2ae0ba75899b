"""Duplicate events through the API, on SQLite and PostgreSQL: create, join (link
or list), start (organiser only), two tables a round and two rounds, the same
boards at every table; no entrant's answers (HTTP and live socket) show a card of
a board they have not been dealt, nor another table's id before its round is
over; standings live and equal to duplicate scoring over the records; at the end
the boards file verifies and the records bundle is published."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from espadas.engine import Card, CardSet
from espadas.tables.boards import verify_boards
from espadas.tables.clock import FakeClock
from espadas.tables.tournament import EventSpec, standings, standings_json
from event_helpers import play_table, wait_for
from server_helpers import Client, Listener

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture(scope="module")
def clock(database: str | None) -> FakeClock:
    return FakeClock(datetime(2026, 12, 1, 20, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def server_options(clock: FakeClock) -> dict[str, Any]:
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "clock": clock, "notices": False}


def _hands(node: Any) -> list[int]:
    """Every PBN hand written in ``node``, as a card mask."""
    found: list[int] = []
    if isinstance(node, dict):
        for value in node.values():
            found += _hands(value)
    elif isinstance(node, list):
        for value in node:
            found += _hands(value)
    elif isinstance(node, str) and node.count(".") == 3 and len(node) <= 20:
        with contextlib.suppress(Exception):
            found.append(int(CardSet.parse(node)))
    return found


def test_refusals(base: str) -> None:
    ana, zoe = Client(base, "en"), Client(base)
    try:
        assert ana.request("POST", "/api/events", {"name": "x"}).status_code == 401
        ana.sign_in("Ana")
        zoe.sign_in("Zoe")
        bad = ana.request("POST", "/api/events", {"name": "x", "boards": 3, "rounds": 2})
        assert bad.status_code == 422 and bad.json()["error"] == "event_boards"
        assert "same number of boards" in bad.json()["message"]
        bad = ana.request("POST", "/api/events", {"name": "x", "mode": "individual"})
        assert bad.json()["error"] == "event_mode"
        made = ana.ok("POST", "/api/events", {"name": "Lista", "invited": ["Bea"], "boards": 1})
        assert made["link"].endswith(f"/torneo/{made['id']}") and made["invited_only"]
        refused = zoe.request("POST", f"/api/events/{made['id']}/join", {})
        assert refused.status_code == 403 and refused.json()["error"] == "event_not_invited"
        assert refused.json()["message"] == "No estás en la lista de este torneo."
        start = zoe.request("POST", f"/api/events/{made['id']}/start")
        assert start.status_code == 403 and start.json()["error"] == "event_not_organiser"
        empty = ana.request("POST", f"/api/events/{made['id']}/start")
        assert empty.status_code == 409 and empty.json()["error"] == "event_empty"
        assert ana.request("GET", "/api/events/000000000000").status_code == 404
        assert ana.request("GET", "/api/events/nope").status_code == 422
        link = ana.ok("POST", "/api/events", {"name": "Enlace", "boards": 1})
        wrong = zoe.request("POST", f"/api/events/{link['id']}/join", {"token": "x"})
        assert wrong.status_code == 403 and wrong.json()["error"] == "event_link"
        accented = zoe.request("POST", f"/api/events/{link['id']}/join", {"token": "año"})
        assert accented.status_code == 403 and accented.json()["error"] == "event_link"
        assert zoe.ok("GET", f"/api/events/{link['id']}")["link"] is None
        token = link["link"].split("?t=")[1]
        joined = zoe.ok("POST", f"/api/events/{link['id']}/join", {"token": token})
        assert joined["entrants"] == ["Zoe"] and joined["you"]["entrant"]
        left = zoe.ok("POST", f"/api/events/{link['id']}/leave")
        assert left["entrants"] == []
        again = zoe.request("POST", f"/api/events/{link['id']}/leave")
        assert again.json()["error"] == "event_not_entrant"
        for path in ("boards", "records"):
            early = zoe.request("GET", f"/api/events/{link['id']}/{path}")
            assert early.status_code == 409 and early.json()["error"] == "event_not_over"
        listed = ana.ok("GET", "/api/events")["events"]
        assert {e["name"] for e in listed} >= {"Lista", "Enlace"}
    finally:
        ana.close()
        zoe.close()


def test_an_event_of_two_rounds(base: str, clock: FakeClock) -> None:
    names = ["Ana", "Bea", "Cai", "Dan", "Eva"]
    clients = {n: Client(base) for n in names}
    org = Client(base)
    try:
        org.sign_in("Olga")
        for name, client in clients.items():
            client.sign_in(name)
        made = org.ok(
            "POST",
            "/api/events",
            {"name": "Martes", "boards": 2, "rounds": 2, "robot": "aleatorio"},
        )
        event = made["id"]
        assert made["status"] == "open" and len(made["commitment"]) == 64
        token = made["link"].split("?t=")[1]
        for client in clients.values():
            clock.advance(seconds=1)  # the order of joining makes the pairs
            client.ok("POST", f"/api/events/{event}/join", {"token": token})
        started = org.ok("POST", f"/api/events/{event}/start")
        assert started["status"] == "playing" and started["round"] == 1
        late = clients["Ana"].request("POST", f"/api/events/{event}/join", {"token": token})
        assert late.status_code == 409 and late.json()["error"] == "event_started"
        # pairs Ana & Bea, Cai & Dan, Eva & robot, and a pair of robots
        tables = {t["number"]: t for t in started["tables"]}
        assert tables[1]["players"] == ["Ana", "Eva", "Bea", "robot:aleatorio"]
        assert tables[2]["players"] == ["Cai", "robot:aleatorio", "Dan", "robot:aleatorio"]
        assert all(t["table"] for t in started["tables"])  # the organiser does not play
        seen_by_cai = clients["Cai"].ok("GET", f"/api/events/{event}")["tables"]
        assert [t["table"] is None for t in seen_by_cai] == [True, False]
        one, two = tables[1]["table"], tables[2]["table"]

        clients["Cai"].frames.clear()
        socket = Listener(base, two, clients["Cai"].cookie_header())
        play_table({n: clients[n] for n in ("Ana", "Bea", "Eva")}, one, 1)
        # round 1 goes on: Cai still sees no id of table 1
        for who in ("Cai", "Dan"):
            shown = clients[who].ok("GET", f"/api/events/{event}")
            assert [t["table"] is None for t in shown["tables"]] == [True, False]
        # board 1 is still to be played at table 2: no result of it is shown yet
        live = clients["Ana"].ok("GET", f"/api/events/{event}/standings")
        assert live["final"] is False and live["overall"] == []
        clock.advance(hours=5)
        play_table({n: clients[n] for n in ("Cai", "Dan")}, two, 1)
        round_one = [*clients["Cai"].frames, *list(socket.frames)]
        second = wait_for(
            lambda: (e := org.ok("GET", f"/api/events/{event}"))["round"] == 2 and e,
            "round 2 did not open",
        )
        live = clients["Ana"].ok("GET", f"/api/events/{event}/standings")
        assert {line["board"] for s in live["overall"] for line in s["lines"]} == {1}
        round2 = {t["number"]: t for t in second["tables"] if t["round"] == 2}
        assert round2[1]["players"] == ["robot:aleatorio", "Ana", "robot:aleatorio", "Bea"]
        assert round2[2]["players"] == ["Eva", "Cai", "robot:aleatorio", "Dan"]
        # round 1 is over: its tables are shown to everybody
        assert all(
            t["table"]
            for t in clients["Cai"].ok("GET", f"/api/events/{event}")["tables"]
            if t["round"] == 1
        )
        play_table({n: clients[n] for n in ("Ana", "Bea")}, round2[1]["table"], 1)
        play_table({n: clients[n] for n in ("Cai", "Dan", "Eva")}, round2[2]["table"], 1)
        socket.close()
        final = wait_for(
            lambda: (e := org.ok("GET", f"/api/events/{event}"))["status"] == "finished" and e,
            "the event did not end",
        )
        assert final["finished_at"]

        published = org.ok("GET", f"/api/events/{event}/boards")
        checks, whole = verify_boards(published)
        assert whole == "ok" and [c.status for c in checks] == ["ok", "ok"]
        assert published["commitment"] == made["commitment"]
        bundle = org.ok("GET", f"/api/events/{event}/records")
        assert bundle["format"] == "espadas-event/1" and len(bundle["tables"]) == 4
        deals = [[int(CardSet.parse(h)) for h in b["deal"]] for b in published["boards"]]
        salts = [b["salt"] for b in published["boards"]]
        for item in bundle["tables"]:  # every table played its round's board
            hands = item["record"]["hands"]
            assert len(hands) == 1
            assert [int(CardSet.parse(h)) for h in hands[0]["deal"]] == deals[item["round"] - 1]

        # during round 1 Cai never saw a hand of board 2, its salt, or table 1's id
        for frame in round_one:
            body = frame.get("body", frame)
            text = json.dumps(body)
            assert salts[1] not in text and one not in text
            assert not set(deals[1]) & set(_hands(body))
        assert sum(1 for f in round_one if f.get("type") == "view") > 5

        # the standings equal duplicate scoring over the records
        shown = org.ok("GET", f"/api/events/{event}/standings")
        assert shown["final"] is True
        spec = EventSpec.from_dict(bundle["event"])
        expected = standings(spec, [(t["round"], t["record"]) for t in bundle["tables"]])
        assert shown["overall"] == standings_json(expected.overall)
        assert [r["standings"] for r in shown["rounds"]] == [
            standings_json(expected.rounds[1]),
            standings_json(expected.rounds[2]),
        ]
        entrants = {s["entrant"] for s in shown["overall"]}
        assert entrants == {"Ana & Bea", "Cai & Dan", "Eva & robot:aleatorio"}
        ab = next(s for s in shown["overall"] if s["entrant"] == "Ana & Bea")
        assert [line["field_size"] for line in ab["lines"]] == [1, 1]
        # the event is over: its tables deal no more
        stop = clients["Ana"].act(round2[1]["table"], "next_hand")
        assert stop.status_code == 409 and stop.json()["error"] == "event_over"
    finally:
        for client in [*clients.values(), org]:
            client.close()


def test_start_time_and_deadline(base: str, clock: FakeClock) -> None:
    """An event with a start time starts by itself then; one open for a day ends a
    day after its start, whatever is left unplayed (then its boards are public);
    one with a start time and nobody joined ends empty."""
    org, ana = Client(base), Client(base)
    try:
        org.sign_in("Olga")
        ana.sign_in("Ana")
        at = (clock.now() + timedelta(hours=2)).isoformat()
        made = org.ok("POST", "/api/events", {"name": "Solo", "boards": 1, "starts_at": at,
                                              "days": 1, "robot": "aleatorio"})  # fmt: skip
        empty = org.ok("POST", "/api/events", {"name": "Vacío", "boards": 1, "starts_at": at})
        token = made["link"].split("?t=")[1]
        ana.ok("POST", f"/api/events/{made['id']}/join", {"token": token})
        assert org.ok("GET", f"/api/events/{made['id']}")["status"] == "open"
        clock.advance(hours=2, seconds=1)
        started = ana.ok("GET", f"/api/events/{made['id']}")
        assert started["status"] == "playing" and started["tables"][0]["table"]
        assert started["tables"][0]["players"][0] == "Ana"
        assert org.ok("GET", f"/api/events/{empty['id']}")["status"] == "finished"
        view = ana.view(started["tables"][0]["table"])
        assert view["you"] == 0 and view["game"]["phase"] in ("bidding", "playing")
        clock.advance(days=1)
        ended = ana.ok("GET", f"/api/events/{made['id']}")
        assert ended["status"] == "finished"
        board = ana.ok("GET", f"/api/events/{made['id']}/boards")["boards"][0]
        held = ana.view(started["tables"][0]["table"])["game"]["hand"]
        assert int(CardSet(Card.parse(c) for c in held)) == int(CardSet.parse(board["deal"][0]))
    finally:
        org.close()
        ana.close()


def test_an_individual_event(base: str) -> None:
    """Three-player individual rules: two entrants and a robot at one table, each
    seat its own direction; the standings name the players."""
    org, ana, bea = Client(base), Client(base), Client(base)
    try:
        org.sign_in("Olga")
        ana.sign_in("Ana")
        bea.sign_in("Bea")
        body = {"name": "Sala", "preset": "sala", "options": {"players": 3}, "boards": 1,
                "robot": "aleatorio", "invited": ["Ana", "bea"]}  # fmt: skip
        made = org.ok("POST", "/api/events", body)
        assert made["mode"] == "individual" and made["rules"]["players"] == 3
        for client in (ana, bea):
            client.ok("POST", f"/api/events/{made['id']}/join", {})
        started = org.ok("POST", f"/api/events/{made['id']}/start")
        seated = started["tables"][0]["players"]  # (joined at the same instant: by id)
        assert sorted(seated[:2]) == ["Ana", "Bea"] and seated[2] == "robot:aleatorio"
        play_table({"Ana": ana, "Bea": bea}, started["tables"][0]["table"], 1)
        wait_for(
            lambda: org.ok("GET", f"/api/events/{made['id']}")["status"] == "finished",
            "the event did not end",
        )
        shown = org.ok("GET", f"/api/events/{made['id']}/standings")
        assert sorted(s["entrant"] for s in shown["overall"]) == ["Ana", "Bea"]
        assert {line["direction"] for s in shown["overall"] for line in s["lines"]} == {0, 1}
    finally:
        for client in (org, ana, bea):
            client.close()
