"""A table whose absent players are replaced by robots (the ``absent`` option of
``POST /api/tables``, the ``replace`` action), end to end: a real uvicorn, real
HTTP and WebSocket clients, on a SQLite file and on the PostgreSQL of this
machine; the clock is faked and the turn limit is one hour. And the notices: a
real SMTP server on loopback receives the mails (SQLite)."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings
from server_helpers import Client, Listener, running_server

CLOCK = FakeClock()
LIMIT = timedelta(hours=1)

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "clock": CLOCK,
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 20,
        "turn_limit": LIMIT,
    }


def people(base: str, *names: str, lang: str = "es") -> list[Client]:
    clients = []
    for name in names:
        client = Client(base, lang)
        client.sign_in(name)
        clients.append(client)
    return clients


def robot_table(base: str, n_people: int = 4, **options: Any) -> tuple[str, list[Client]]:
    """Ana's table (absent: robot) with Luis, Marta, Pedro (as many as ``n_people``
    asks) and robots in the other seats, started: Luis (seat 1) bids first."""
    clients = people(base, *["Ana", "Luis", "Marta", "Pedro"][:n_people])
    body = {"target": 250, "renege": "prevented", "absent": "robot"} | options
    tid = clients[0].ok("POST", "/api/tables", body)["id"]
    for client in clients[1:]:
        client.ok("POST", f"/api/tables/{tid}/join")
    if n_people < 4:
        clients[0].ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    clients[0].ok("POST", f"/api/tables/{tid}/start")
    return tid, clients


def wait_for(client: Client, tid: str, test: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view: dict[str, Any] = client.view(tid)
        if test(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"the table did not get there: {client.view(tid)['game']}")


def test_the_option_is_in_the_view_and_a_wrong_one_is_refused(base: str) -> None:
    [ana] = people(base, "Ana")
    plain = ana.ok("POST", "/api/tables", {})["view"]
    assert (plain["absent"], plain["replace_at"], plain["replaced"]) == ("claim", None, [])
    robot = ana.ok("POST", "/api/tables", {"absent": "robot"})["view"]
    assert robot["absent"] == "robot"
    wrong = ana.request("POST", "/api/tables", {"absent": "forfeit"})
    assert wrong.status_code == 422 and wrong.json()["error"] == "bad_request"


def test_the_openapi_document_has_the_option_and_the_action(base: str) -> None:
    [ana] = people(base, "Ana")
    schemas = ana.ok("GET", "/openapi.json")["components"]["schemas"]
    assert schemas["TableIn"]["properties"]["absent"]["enum"] == ["claim", "robot"]
    assert "replace" in schemas["ActionIn"]["properties"]["type"]["enum"]
    assert {"absent", "replace_at", "replaced"} <= set(schemas["ViewOut"]["properties"])


def test_replacing_an_absent_person_by_http(base: str) -> None:
    tid, (ana, luis, marta, pedro) = robot_table(base)
    view = ana.view(tid)
    assert view["game"]["to_act"] == 1
    opens = view["replace_at"]
    assert opens is not None and view["claim_at"] is None
    early = ana.act(tid, "replace")
    assert early.status_code == 409 and early.json()["error"] == "replace_early"
    assert "El tiempo de turno aún no ha pasado" in early.json()["message"]
    CLOCK.advance(hours=1, seconds=1)
    own = pedro.act(tid, "replace")  # Luis's partner
    assert own.status_code == 409 and own.json()["error"] == "replace_own"
    claim = marta.act(tid, "claim")
    assert claim.status_code == 409 and claim.json()["error"] == "claim_robot"
    wrong = marta.act(tid, "replace", "maestro")
    assert wrong.status_code == 422 and wrong.json()["error"] == "bad_robot"
    assert marta.view(tid)["replace_at"] == opens
    done = marta.act(tid, "replace", "normal")
    assert done.status_code == 200, done.text
    seat = done.json()["seats"][1]
    assert (seat["robot"], seat["human"]) == ("normal", False)
    assert done.json()["replaced"] == [1]
    # the robot bids at once, and Luis watches
    after = wait_for(ana, tid, lambda v: v["game"]["to_act"] != 1)
    assert after["game"]["bids"][1] is not None
    mine = luis.view(tid)
    assert mine["you"] is None and mine["game"]["hand"] is None
    assert luis.act(tid, "bid", 3).status_code == 403
    assert ana.ok("GET", f"/api/tables/{tid}/record")["players"][1] == "robot:normal"


def test_replacing_over_the_live_socket_in_english(base: str) -> None:
    tid, (ana, _luis) = robot_table(base, n_people=2)
    socket = Listener(base, tid, ana.cookie_header())
    try:
        socket.send({"type": "act", "id": 1, "action": {"type": "replace"}})
        refused = socket.answer(1)
        assert (refused["type"], refused["status"], refused["error"]) == (
            "refused",
            409,
            "replace_early",
        )
        CLOCK.advance(hours=2)
        socket.send({"type": "act", "id": 2, "action": {"type": "replace"}})
        assert socket.answer(2)["type"] == "done"
        view = wait_for(ana, tid, lambda v: v["game"]["to_act"] != 1)
        assert view["seats"][1]["robot"] == "aleatorio"  # the table's robot level
    finally:
        socket.close()
    [eva] = people(base, "Eva", lang="en")
    stranger = eva.act(tid, "replace")
    assert stranger.status_code == 403 and stranger.json()["error"] == "not_seated"
    assert stranger.json()["message"] == "Only the players seated at this table may do that."


def test_a_claim_table_keeps_its_claims(base: str) -> None:
    tid, (ana, _luis) = robot_table(base, n_people=2, absent="claim")
    CLOCK.advance(hours=2)
    refused = ana.act(tid, "replace")
    assert refused.status_code == 409 and refused.json()["error"] == "replace_off"
    assert ana.act(tid, "claim").status_code == 200


def mail_text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    text: str = part.get_content()
    return text


def confirmed(client: Client, sink: Sink, address: str, lang: str) -> None:
    client.ok("PUT", "/api/contact", {"email": address, "lang": lang})
    found = re.search(
        r"http://espadas\.test(/avisos/confirmar/\S*)", mail_text(sink.wait(address, 1)[-1])
    )
    assert found is not None
    assert client.http.get(found.group(1)).status_code == 200


@pytest.mark.databases("sqlite")
def test_the_notices_of_a_replacement(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    sink, port = smtp
    clock = FakeClock()
    with running_server(notice_settings(tmp_path, port, clock)) as base:
        ana, luis = people(base, "Ana", "Luis")
        confirmed(luis, sink, "luis@example.org", "es")
        confirmed(ana, sink, "ana@example.org", "en")
        body = {"target": 250, "renege": "prevented", "absent": "robot"}
        tid = ana.ok("POST", "/api/tables", body)["id"]
        luis.ok("POST", f"/api/tables/{tid}/join")
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
        ana.ok("POST", f"/api/tables/{tid}/start")
        sink.wait("luis@example.org", 2)  # his turn
        clock.advance(hours=24, seconds=1)
        sink.wait("luis@example.org", 3)
        clock.advance(hours=19.2)
        last = sink.wait("luis@example.org", 4)[-1]
        assert "un robot podrá ocupar tu asiento" in mail_text(last)
        clock.advance(hours=5)
        told = sink.wait("ana@example.org", 2)[-1]
        assert told["Subject"] == "Espadas: you may put a robot in at Ana's table"
        assert "you may put a robot in their seat" in mail_text(told)
        assert ana.act(tid, "replace").status_code == 200
        replaced = sink.wait("luis@example.org", 5)[-1]
        assert replaced["Subject"] == "Espadas: un robot ocupa tu asiento en la mesa de Ana"
        assert "juega el resto de la partida" in mail_text(replaced)
        # no more notices for Luis, however long the game waits for Ana
        wait_for(ana, tid, lambda v: v["game"]["to_act"] == 0)
        clock.advance(hours=100)
        sink.wait("ana@example.org", 3)
        time.sleep(0.5)
        assert len(sink.to("luis@example.org")) == 5
