"""Accounts on a real server (SQLite and PostgreSQL) with a real SMTP server on
loopback: an e-mail sign-in link works once, expires after 15 minutes (the
server's clock is injected) and joins another device to the same player; the
answer to a request for a link does not tell whether the address is known;
names are unique whatever their case; signing a device out ends its session;
the data export; deleting an account keeps every game replayable."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings
from server_helpers import Client, fresh_postgres, running_server

LINK = re.compile(r"http://espadas\.test/entrar/([A-Za-z0-9_-]+)")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    with fresh_postgres() as url:
        yield url


@pytest.fixture
def club(
    tmp_path: Path, smtp: tuple[Sink, int], db: str | None
) -> Iterator[tuple[str, Sink, FakeClock]]:
    sink, port = smtp
    clock = FakeClock()
    settings = notice_settings(tmp_path, port, clock, db=db, unique_names=True, notices=False)
    with running_server(settings) as base:
        yield base, sink, clock


def person(base: str, name: str, lang: str = "es") -> Client:
    client = Client(base, lang)
    client.sign_in(name)
    return client


def confirm_email(client: Client, sink: Sink, email: str) -> None:
    client.ok("PUT", "/api/contact", {"email": email, "lang": "es"})
    body = sink.wait(email, 1)[-1].get_content()
    token = re.search(r"/avisos/confirmar/([A-Za-z0-9_-]+)", body)
    assert token is not None, body
    assert client.http.get(f"/avisos/confirmar/{token.group(1)}").status_code == 200
    assert client.ok("GET", "/api/account")["confirmed"] is True


def ask_link(client: Client, sink: Sink, email: str, count: int, typed: str = "") -> str:
    """Asks for a link for ``email`` (typed as ``typed``), waits for mail ``count``."""
    answer = client.request("POST", "/api/signin/email", {"email": typed or email})
    assert answer.status_code == 202, answer.text
    mails = sink.wait(email, count)
    found = LINK.findall(mails[-1].get_content())
    assert found, mails[-1].get_content()
    return str(found[-1])


def test_signin_link_joins_another_device_once(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, _ = club
    ana = person(base, "Ana")
    confirm_email(ana, sink, "ana@example.org")
    token = ask_link(Client(base), sink, "ana@example.org", 2, typed="ANA@Example.org")
    mail = sink.to("ana@example.org")[-1]
    assert "Ana: http://espadas.test/entrar/" in mail.get_content()
    assert "15 minutos" in mail.get_content()
    # the page of the link changes nothing; the API signs the device in
    phone = Client(base)
    page = phone.http.get(f"/entrar/{token}")
    assert page.status_code == 200 and "set-cookie" not in page.headers
    assert phone.ok("GET", "/api/session")["name"] is None
    answer = phone.ok("POST", "/api/signin/email/use", {"token": token})
    assert answer == {"name": "Ana", "switched": False}
    session = phone.ok("GET", "/api/session")
    assert session["name"] == "Ana"
    phone.csrf = session["csrf"]
    # the same player: what one device does, the other sees
    phone.ok("PUT", "/api/account/name", {"name": "Ana María"})
    assert ana.ok("GET", "/api/session")["name"] == "Ana María"
    hows = sorted(d["how"] for d in ana.ok("GET", "/api/account/devices")["devices"])
    assert hows == ["email", "name"]
    # once only
    again = Client(base).request("POST", "/api/signin/email/use", {"token": token})
    assert again.status_code == 410 and again.json()["error"] == "signin_used"
    assert "una sola vez" in again.json()["message"]
    unknown = Client(base).request("POST", "/api/signin/email/use", {"token": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"] == "bad_signin"


def test_signin_link_expires_after_15_minutes(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, clock = club
    luis = person(base, "Luis", "en")
    confirm_email(luis, sink, "luis@example.org")
    late = ask_link(Client(base), sink, "luis@example.org", 2)
    in_time = ask_link(Client(base), sink, "luis@example.org", 3)
    clock.advance(minutes=14, seconds=59)
    assert Client(base).ok("POST", "/api/signin/email/use", {"token": in_time})["name"] == "Luis"
    clock.advance(seconds=1)
    refused = Client(base, "en").request("POST", "/api/signin/email/use", {"token": late})
    assert refused.status_code == 410 and refused.json()["error"] == "signin_expired"
    assert "expired" in refused.json()["message"]


def test_the_answer_does_not_tell_whether_the_address_is_known(
    club: tuple[str, Sink, FakeClock],
) -> None:
    base, sink, _ = club
    ana = person(base, "Ana")
    confirm_email(ana, sink, "ana@example.org")
    stranger = Client(base)
    known = stranger.request("POST", "/api/signin/email", {"email": "ana@example.org"})
    unknown = stranger.request("POST", "/api/signin/email", {"email": "nadie@example.org"})
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    assert set(known.headers) == set(unknown.headers)
    sink.wait("ana@example.org", 2)
    assert sink.to("nadie@example.org") == []
    # an unconfirmed address gets no link either
    bea = person(base, "Bea")
    bea.ok("PUT", "/api/contact", {"email": "bea@example.org", "lang": "es"})
    sink.wait("bea@example.org", 1)
    assert stranger.request("POST", "/api/signin/email", {"email": "bea@example.org"}).json() == (
        known.json()
    )
    bad = stranger.request("POST", "/api/signin/email", {"email": "not an address"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_email"


def test_signin_requests_are_limited(club: tuple[str, Sink, FakeClock]) -> None:
    base, _, _ = club
    stranger = Client(base, "en")
    statuses = [
        stranger.request("POST", "/api/signin/email", {"email": "x@example.org"}).status_code
        for _ in range(6)
    ]
    assert statuses == [202] * 5 + [429]
    refused = stranger.request("POST", "/api/signin/email", {"email": "x@example.org"})
    assert refused.json()["error"] == "signin_too_many"
    assert "Too many" in refused.json()["message"]
    # another address is counted apart
    other = stranger.request("POST", "/api/signin/email", {"email": "y@example.org"})
    assert other.status_code == 202


def test_a_link_for_someone_else_asks_before_switching(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, _ = club
    ana, luis = person(base, "Ana"), person(base, "Luis")
    confirm_email(luis, sink, "luis@example.org")
    token = ask_link(Client(base), sink, "luis@example.org", 2)
    refused = ana.request("POST", "/api/signin/email/use", {"token": token})
    assert refused.status_code == 409 and refused.json()["error"] == "signin_would_switch"
    assert "Ana" in refused.json()["message"] and "Luis" in refused.json()["message"]
    assert ana.ok("GET", "/api/session")["name"] == "Ana"
    answer = ana.ok("POST", "/api/signin/email/use", {"token": token, "confirm": True})
    assert answer == {"name": "Luis", "switched": True}
    assert ana.ok("GET", "/api/session")["name"] == "Luis"


def test_names_are_unique_whatever_their_case(club: tuple[str, Sink, FakeClock]) -> None:
    base, _, _ = club
    ana = person(base, "Ana")
    refused = Client(base).request("POST", "/api/session", {"name": "ANA"})
    assert refused.status_code == 409 and refused.json()["error"] == "name_taken"
    assert "«ANA»" in refused.json()["message"]
    luis = person(base, "Luis", "en")
    taken = luis.request("PUT", "/api/account/name", {"name": "aNa"})
    assert taken.status_code == 409 and "already called" in taken.json()["message"]
    assert luis.ok("GET", "/api/session")["name"] == "Luis"
    # your own name in another case is yours
    assert ana.ok("PUT", "/api/account/name", {"name": "ANA"}) == {"name": "ANA"}
    assert ana.ok("PUT", "/api/account/name", {"name": "Ana Belén"}) == {"name": "Ana Belén"}
    # the name given up is free again; the marker of deleted accounts is nobody's
    assert person(base, "ana").ok("GET", "/api/session")["name"] == "ana"
    marker = Client(base).request("POST", "/api/session", {"name": "Former:Player"})
    assert marker.status_code == 409
    bad = luis.request("PUT", "/api/account/name", {"name": "Robot normal"})
    assert bad.status_code == 422 and bad.json()["error"] == "name_robot"


def test_signing_a_device_out_ends_its_session(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, _ = club
    laptop = person(base, "Ana")
    confirm_email(laptop, sink, "ana@example.org")
    phones = []
    for count in (2, 3):
        phone = Client(base)
        phone.ok(
            "POST",
            "/api/signin/email/use",
            {"token": ask_link(phone, sink, "ana@example.org", count)},
        )
        phone.csrf = phone.ok("GET", "/api/session")["csrf"]
        phones.append(phone)
    listed = laptop.ok("GET", "/api/account/devices")["devices"]
    assert len(listed) == 3 and sum(d["current"] for d in listed) == 1
    mine = next(d for d in listed if d["current"])
    assert mine["how"] == "name"
    # sign the first phone out from the laptop
    first = next(d for d in phones[0].ok("GET", "/api/account/devices")["devices"] if d["current"])
    assert laptop.ok("DELETE", f"/api/account/devices/{first['id']}") == {"signed_out": 1}
    assert phones[0].ok("GET", "/api/session")["name"] is None
    assert phones[0].request("GET", "/api/account").status_code == 401
    assert phones[1].ok("GET", "/api/session")["name"] == "Ana"
    again = laptop.request("DELETE", f"/api/account/devices/{first['id']}")
    assert again.status_code == 404 and again.json()["error"] == "no_device"
    # every other device at once: the laptop stays
    assert laptop.ok("DELETE", "/api/account/devices") == {"signed_out": 1}
    assert phones[1].ok("GET", "/api/session")["name"] is None
    assert laptop.ok("GET", "/api/session")["name"] == "Ana"
    assert [d["current"] for d in laptop.ok("GET", "/api/account/devices")["devices"]] == [True]
    # someone else cannot sign your devices out
    luis = person(base, "Luis")
    refused = luis.request("DELETE", f"/api/account/devices/{mine['id']}")
    assert refused.status_code == 404
    assert laptop.ok("GET", "/api/session")["name"] == "Ana"


def test_export_holds_the_persons_data_and_no_secrets(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, _ = club
    ana = person(base, "Ana")
    confirm_email(ana, sink, "ana@example.org")
    table = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
    link = ana.ok("POST", "/api/resume-link")["token"]
    response = ana.request("GET", "/api/account/data")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    data: dict[str, Any] = response.json()
    assert data["format"] == "espadas-account/1"
    assert data["player"]["name"] == "Ana" and data["names"] == ["Ana"]
    assert data["contacts"] == [{"email": "ana@example.org", "confirmed": True, "lang": "es"}]
    assert [t["id"] for t in data["tables"]] == [table]
    assert data["tables"][0]["seat"] == 0 and data["tables"][0]["name"] == "Ana"
    assert len(data["devices"]) == 1 and data["devices"][0]["how"] == "name"
    assert data["passkeys"] == []
    text = response.text
    assert link not in text and ana.csrf not in text
    assert "token" not in text and "hash" not in text
    assert Client(base).request("GET", "/api/account/data").status_code == 401


def test_deleting_an_account(club: tuple[str, Sink, FakeClock]) -> None:
    base, sink, _ = club
    ana, luis = person(base, "Ana"), person(base, "Luis")
    confirm_email(ana, sink, "ana@example.org")
    table = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
    luis.ok("POST", f"/api/tables/{table}/join")
    ana.ok("POST", f"/api/tables/{table}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{table}/start")
    refused = ana.request("DELETE", "/api/account", {"confirm": True})
    assert refused.status_code == 409 and refused.json()["error"] == "account_playing"
    assert ana.request("DELETE", "/api/account", {}).status_code == 422
    ana.ok("POST", f"/api/tables/{table}/actions", {"type": "abandon"})
    before = luis.ok("GET", f"/api/tables/{table}/record")
    assert before["players"][0] == "Ana"
    answer = ana.ok("DELETE", "/api/account", {"confirm": True})
    assert answer == {"deleted": True, "tables": 1}
    assert ana.ok("GET", "/api/session")["name"] is None
    # the game stays whole, its name gone
    after = luis.ok("GET", f"/api/tables/{table}/record")
    assert after["players"][0] == "former:player"
    assert {k: v for k, v in after.items() if k != "players"} == {
        k: v for k, v in before.items() if k != "players"
    }
    assert after["players"][1:] == before["players"][1:]
    replay = luis.ok("GET", f"/api/tables/{table}/replay")
    assert replay["steps"] and "Ana" not in str(replay) and "Ana" not in str(after)
    assert luis.view(table)["seats"][0]["name"] == "former:player"
    # the name, the address and the sign-in by e-mail are free or gone
    assert person(base, "Ana").ok("GET", "/api/session")["name"] == "Ana"
    assert sink.wait("ana@example.org", 1)
    Client(base).request("POST", "/api/signin/email", {"email": "ana@example.org"})
    assert len(sink.to("ana@example.org")) == 1


def test_cookies_from_before_sessions(club: tuple[str, Sink, FakeClock]) -> None:
    """A cookie signed before sessions (the player id alone) still signs in, is
    exchanged for one with a session on ``GET /api/session``, and stops working
    once its person signs every other device out."""
    from espadas.server.identity import PLAYER_COOKIE, Identity

    base, _, _ = club
    ana = person(base, "Ana")
    player_id = ana.ok("GET", "/api/account/data")["player"]["id"]
    old = Identity("test-secret-" + "x" * 20).sign_old(player_id)
    upgraded, kept = Client(base), Client(base)
    for client in (upgraded, kept):
        client.http.cookies.set(PLAYER_COOKIE, old, domain="127.0.0.1")
    assert kept.ok("GET", "/api/account")["name"] == "Ana"  # no session listed for it
    session = upgraded.ok("GET", "/api/session")
    assert session["name"] == "Ana" and session["csrf"]
    assert upgraded.http.cookies.get(PLAYER_COOKIE) != old
    assert len(ana.ok("GET", "/api/account/devices")["devices"]) == 2
    assert ana.ok("DELETE", "/api/account/devices") == {"signed_out": 1}
    assert kept.request("GET", "/api/account").status_code == 401
    assert upgraded.request("GET", "/api/account").status_code == 401
    assert ana.ok("GET", "/api/account")["name"] == "Ana"


def test_a_socket_opened_before_signing_out_acts_no_more(club: tuple[str, Sink, FakeClock]) -> None:
    import time

    from server_helpers import Listener

    base, _, _ = club
    ana = person(base, "Ana")
    table = ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"]
    socket = Listener(base, table, cookie=ana.cookie_header())

    def reply(ref: int) -> dict[str, Any]:
        socket.send({"type": "act", "id": ref, "action": {"type": "bid", "value": 3}})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = [f for f in list(socket.frames) if f.get("id") == ref]
            if found:
                return found[0]
            time.sleep(0.02)
        raise AssertionError("no answer")

    try:
        assert reply(1)["status"] == 409  # signed in: the game has not started
        here = next(d for d in ana.ok("GET", "/api/account/devices")["devices"] if d["current"])
        ana.ok("DELETE", f"/api/account/devices/{here['id']}")
        refused = reply(2)
        assert refused["status"] == 401 and refused["error"] == "no_session"
    finally:
        socket.socket.close()


def test_passkey_refusals_and_single_use_challenges(club: tuple[str, Sink, FakeClock]) -> None:
    """The ceremonies themselves run in the browser (tests/web/test_account_web.py,
    Chromium's virtual authenticator); here, what is refused."""
    base, _, _ = club
    ana = person(base, "Ana", "en")
    garbage = {"credential": {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}}
    refused = ana.request("POST", "/api/passkeys", garbage)
    assert refused.status_code == 409 and refused.json()["error"] == "no_challenge"
    options = ana.ok("POST", "/api/passkeys/register/options")
    assert options["rp"]["id"] == "espadas.test" and options["user"]["name"] == "Ana"
    assert len(options["challenge"]) >= 43
    bad = ana.request("POST", "/api/passkeys", garbage)
    assert bad.status_code == 422 and bad.json()["error"] == "passkey_refused"
    assert ana.request("POST", "/api/passkeys", garbage).json()["error"] == "no_challenge"
    assert Client(base).request("POST", "/api/passkeys/register/options").status_code == 401
    # signing in: the challenge lives in a cookie of its own, used once
    stranger = Client(base, "en")
    assert stranger.request("POST", "/api/passkeys/signin", garbage).json()["error"] == (
        "no_challenge"
    )
    asked = stranger.ok("POST", "/api/passkeys/signin/options")
    assert asked["rpId"] == "espadas.test" and asked["challenge"]
    unknown = stranger.request("POST", "/api/passkeys/signin", garbage)
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown_passkey"
    assert stranger.request("POST", "/api/passkeys/signin", garbage).status_code == 409
    assert ana.ok("GET", "/api/passkeys") == {"passkeys": []}
    gone = ana.request("DELETE", "/api/passkeys/AAAA")
    assert gone.status_code == 404 and gone.json()["error"] == "no_passkey"
