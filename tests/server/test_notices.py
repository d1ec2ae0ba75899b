"""Turn notices end to end: a real SMTP server on loopback (aiosmtpd) receives
the mails, a local push endpoint receives Web Push, and the clock is faked."""

from __future__ import annotations

import re
import threading
import time
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings
from server_helpers import Client, Listener, running_server


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    text: str = part.get_content()
    return text


def link(message: EmailMessage, pattern: str) -> str:
    found = re.search(r"http://espadas\.test(" + pattern + r"\S*)", body(message))
    assert found, body(message)
    return found.group(1)


def confirmed(client: Client, sink: Sink, address: str, lang: str = "es") -> None:
    client.ok("PUT", "/api/contact", {"email": address, "lang": lang})
    mail = sink.wait(address, 1)[-1]
    path = link(mail, "/avisos/confirmar/")
    assert client.http.get(path).status_code == 200
    assert client.ok("GET", "/api/contact")["confirmed"] is True


def two_people(base: str) -> tuple[str, Client, Client]:
    """Ana (seat 0, dealer) and Luis (seat 1, bids first) with two robots, started."""
    ana, luis = Client(base), Client(base)
    ana.sign_in("Ana")
    luis.sign_in("Luis")
    table = ana.ok("POST", "/api/tables", {"target": 250, "renege": "prevented"})["id"]
    luis.ok("POST", f"/api/tables/{table}/join")
    ana.ok("POST", f"/api/tables/{table}/robots", {"level": "normal"})
    return table, ana, luis


def test_turn_notice_reminders_and_claim_notice(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    sink, port = smtp
    clock = FakeClock()
    with running_server(notice_settings(tmp_path, port, clock)) as base:
        table, ana, luis = two_people(base)
        confirmed(luis, sink, "luis@example.org")
        confirmed(ana, sink, "ana@example.org", lang="en")
        ana.ok("POST", f"/api/tables/{table}/start")
        # Luis bids first and is not looking: one turn notice
        turn = sink.wait("luis@example.org", 2)[-1]
        assert turn["Subject"] == "Espadas: te toca en la mesa de Ana"
        assert link(turn, "/mesa/") == f"/mesa/{table}"
        resume = link(turn, "/resume/")
        unsubscribe = link(turn, "/avisos/baja/")
        assert "apostar" in body(turn)
        # the resume link signs another device in as Luis
        phone = Client(base)
        assert phone.http.get(resume, follow_redirects=False).status_code == 303
        assert phone.view(table)["you"] == 1
        # reminders at half and at 90 % of the 48 h limit, then the claim notice to Ana
        clock.advance(hours=24, seconds=1)
        half = sink.wait("luis@example.org", 3)[-1]
        assert half["Subject"] == "Espadas: la mesa de Ana te espera"
        clock.advance(hours=19.2)
        last = sink.wait("luis@example.org", 4)[-1]
        assert last["Subject"] == "Espadas: último aviso en la mesa de Ana"
        clock.advance(hours=5)
        claim = sink.wait("ana@example.org", 2)[-1]
        assert claim["Subject"] == "Espadas: you may close the game at Ana's table"
        assert "Luis" in body(claim)
        assert ana.act(table, "claim").status_code == 200
        # the unsubscribe link works without signing in
        stranger = Client(base)
        page = stranger.http.get(unsubscribe)
        assert page.status_code == 200 and "no recibirás" in page.text
        assert luis.ok("GET", f"/api/tables/{table}/notices")["mode"] == "off"
        time.sleep(0.3)
        assert len(sink.to("luis@example.org")) == 4


def test_no_notice_while_looking_and_at_most_one_per_interval(
    tmp_path: Path, smtp: tuple[Sink, int]
) -> None:
    sink, port = smtp
    clock = FakeClock()
    with running_server(notice_settings(tmp_path, port, clock)) as base:
        table, ana, luis = two_people(base)
        confirmed(luis, sink, "luis@example.org")
        watching = Listener(base, table, luis.cookie_header())
        ana.ok("POST", f"/api/tables/{table}/start")
        watching.wait_version(6)
        time.sleep(0.4)
        assert len(sink.to("luis@example.org")) == 1  # only the confirmation
        assert luis.act(table, "bid", 3).status_code == 200
        watching.close()
        time.sleep(0.2)
        # robots and Ana bid; then Luis leads: a new turn, and he is not looking now
        drive_until(table, {0: ana}, luis, 1)
        sink.wait("luis@example.org", 2)
        game = luis.view(table)["game"]
        assert game["phase"] == "playing"
        assert luis.act(table, "play", game["proper_plays"][0]).status_code == 200
        drive_until(table, {0: ana}, luis, 1)
        time.sleep(0.4)
        assert len(sink.to("luis@example.org")) == 2  # within 15 minutes: no second one
        clock.advance(minutes=16)
        game = luis.view(table)["game"]
        assert luis.act(table, "play", game["proper_plays"][0]).status_code == 200
        drive_until(table, {0: ana}, ana, 1)  # Luis does not look meanwhile
        third = sink.wait("luis@example.org", 3)[-1]
        assert "Desde la última vez que miraste:" in body(third)
        assert "jugó" in body(third)


def drive_until(table: str, people: dict[int, Client], watcher: Client, seat: int) -> None:
    """Lets the people in ``people`` bid 3 or play their first proper card until
    ``seat`` is to act."""
    for _ in range(500):
        game = watcher.view(table)["game"]
        if game["to_act"] == seat:
            return
        mover = people.get(game["to_act"])
        if mover is not None:
            if game["phase"] == "bidding":
                mover.act(table, "bid", 3)
            else:
                mine = mover.view(table)["game"]
                mover.act(table, "play", mine["proper_plays"][0])
        else:
            time.sleep(0.02)
    raise AssertionError("the seat never came to act")


def test_digest_and_english(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    sink, port = smtp
    clock = FakeClock()
    with running_server(notice_settings(tmp_path, port, clock)) as base:
        table, ana, luis = two_people(base)
        confirmed(luis, sink, "luis@example.org", lang="en")
        assert (
            luis.ok("PUT", f"/api/tables/{table}/notices", {"mode": "digest"})["mode"] == "digest"
        )
        refused = ana.request("PUT", f"/api/tables/{table}/notices", {"mode": "loud"})
        assert refused.status_code == 422
        ana.ok("POST", f"/api/tables/{table}/start")
        time.sleep(0.4)
        assert len(sink.to("luis@example.org")) == 1  # no immediate notice
        clock.advance(hours=9)  # past 08:00 UTC of the fake day
        digest = sink.wait("luis@example.org", 2)[-1]
        assert digest["Subject"] == "Espadas: tables waiting for you"
        assert f"/mesa/{table}" in body(digest)


def test_a_restart_between_a_move_and_its_notice_sends_it_once(
    tmp_path: Path, smtp: tuple[Sink, int]
) -> None:
    sink, port = smtp
    clock = FakeClock()
    quiet = notice_settings(tmp_path, port, clock, notices=False)
    with running_server(quiet) as base:
        table, ana, luis = two_people(base)
        confirmed(luis, sink, "luis@example.org")
        ana.ok("POST", f"/api/tables/{table}/start")  # Luis's turn: planned, not sent
        time.sleep(0.3)
        assert len(sink.to("luis@example.org")) == 1
    # two instances start on the same database: exactly one notice
    first = notice_settings(tmp_path, port, clock)
    second = notice_settings(tmp_path, port, clock)
    with running_server(first), running_server(second):
        sink.wait("luis@example.org", 2)
        time.sleep(0.5)
    assert len(sink.to("luis@example.org")) == 2
    with running_server(notice_settings(tmp_path, port, clock)):
        time.sleep(0.4)
    assert len(sink.to("luis@example.org")) == 2


class PushEndpoint(BaseHTTPRequestHandler):
    received: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        PushEndpoint.received.append(self.rfile.read(length))
        self.send_response(201)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return


def test_web_push_notice(tmp_path: Path, smtp: tuple[Sink, int]) -> None:
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    _sink, port = smtp
    endpoint = ThreadingHTTPServer(("127.0.0.1", 0), PushEndpoint)
    threading.Thread(
        target=endpoint.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    ).start()
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    secret = b"0123456789abcdef"

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    subscription = {
        "endpoint": f"http://127.0.0.1:{endpoint.server_address[1]}/push/luis",
        "keys": {"p256dh": b64(point), "auth": b64(secret)},
    }
    clock = FakeClock()
    try:
        # the local endpoint is allowed by the test-only setting alone
        settings = notice_settings(tmp_path, port, clock, push_allow_private=True)
        with running_server(settings) as base:
            table, ana, luis = two_people(base)
            assert luis.ok("GET", "/api/push/key")["key"]
            luis.ok("POST", "/api/push/subscriptions", subscription)
            bad = luis.request("POST", "/api/push/subscriptions", {"endpoint": "ftp://x"})
            assert bad.status_code == 422
            ana.ok("POST", f"/api/tables/{table}/start")
            deadline = time.monotonic() + 10
            while not PushEndpoint.received and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(PushEndpoint.received) == 1
            import http_ece  # type: ignore[import-untyped]

            plain = http_ece.decrypt(
                PushEndpoint.received[0], private_key=key, auth_secret=secret, version="aes128gcm"
            )
            import json

            payload = json.loads(plain)
            assert payload["table"] == table and payload["kind"] == "turn"
            assert payload["url"] == f"http://espadas.test/mesa/{table}"
    finally:
        endpoint.shutdown()
