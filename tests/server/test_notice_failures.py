"""One poisoned notice among many: a real server, a real SMTP
server on loopback (aiosmtpd) and a fake clock, on SQLite and PostgreSQL.

The store is poisoned by hand, as data written before the name rule (or by an
operator, or a bug) would be: a table's creator whose name holds CR/LF and a
``Bcc:`` header, a person whose stored address holds CR/LF, and a table whose
last event no longer reads (so composing its notice raises). Every other turn
notice of the same round is delivered; the first poison reaches no header raw;
the other two fail, are retried after 1, 5, 30 and 120 minutes and are then
left ``failed`` for good, each with its reason."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from espadas.server.notifier import BACKOFF, MAX_ATTEMPTS
from espadas.store.store import async_url
from espadas.tables.clock import FakeClock
from mail_helpers import Sink, notice_settings, until
from server_helpers import Client, fresh_postgres, running_server

EVIL = "Evil\r\nBcc: x@example.org"
BAD_ADDRESS = "luis@example.org\r\nBcc: x@example.org"
OTHERS = ("bea", "carlos", "dora", "eva")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | None]:
    if request.param == "sqlite":
        yield None
        return
    with fresh_postgres() as url:
        yield url


def sql(url: str, statement: str, **params: Any) -> list[dict[str, Any]]:
    """Runs one statement on the server's database, as an operator would."""

    async def run() -> list[dict[str, Any]]:
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as conn:
                result = await conn.execute(sa.text(statement), params)
                return [dict(r._mapping) for r in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    return asyncio.run(run())


def confirmed(client: Client, sink: Sink, address: str) -> None:
    client.ok("PUT", "/api/contact", {"email": address, "lang": "es"})
    mail = sink.wait(address, 1)[-1]
    body = mail.get_body(("plain",))
    assert body is not None
    path = next(w for w in body.get_content().split() if "/avisos/confirmar/" in w)
    assert client.http.get(path.removeprefix("http://espadas.test")).status_code == 200


def moved(clients: list[Client], base: str) -> None:
    """The same browsers (cookies and all) against a server on another port."""
    for client in clients:
        client.http.base_url = base
        client.base = base


def test_one_poisoned_notice_never_stops_the_others(
    tmp_path: Path, smtp: tuple[Sink, int], database: str | None
) -> None:
    sink, port = smtp
    clock = FakeClock()
    url = database or f"sqlite:///{tmp_path / 'espadas.db'}"

    def settings(**kw: Any) -> Any:
        return notice_settings(tmp_path, port, clock, db=database, **kw)

    quiet = settings(notices=False)
    with running_server(quiet) as base:
        evil, ana = Client(base), Client(base)
        evil.sign_in("Evil")
        ana.sign_in("Ana")
        people = {name: Client(base) for name in ("pia", "luis", "gus", *OTHERS)}
        for name, client in people.items():
            client.sign_in(name.capitalize())
            confirmed(client, sink, f"{name}@example.org")
    # the poison, straight into the store
    sql(url, "UPDATE players SET name = :evil WHERE name = 'Evil'", evil=EVIL)
    sql(url, "UPDATE contacts SET email = :bad WHERE email = 'luis@example.org'", bad=BAD_ADDRESS)
    with running_server(quiet) as base:
        everyone = [evil, ana, *people.values()]
        moved(everyone, base)
        tables = {}
        pairs = [(evil, "pia"), (ana, "luis"), (ana, "gus"), *((ana, name) for name in OTHERS)]
        for creator, guest in pairs:
            table = creator.ok("POST", "/api/tables", {"target": 250, "renege": "prevented"})["id"]
            people[guest].ok("POST", f"/api/tables/{table}/join")
            creator.ok("POST", f"/api/tables/{table}/robots", {"level": "normal"})
            tables[guest] = table
        assert ana.view(tables["pia"])["seats"][0]["name"] == EVIL  # stored as it was
        for guest in ("pia", "luis", "gus", *OTHERS):  # the poisoned notices are due first
            evil_or_ana = evil if guest == "pia" else ana
            evil_or_ana.ok("POST", f"/api/tables/{tables[guest]}/start")
            clock.advance(seconds=1)
        time.sleep(0.2)
    assert [len(sink.to(f"{n}@example.org")) for n in ("pia", "gus", *OTHERS)] == [1] * 6
    sql(
        url,
        "UPDATE events SET data = '{\"broken\": ' WHERE table_id = :table"
        " AND seq = (SELECT MAX(seq) FROM events WHERE table_id = :table)",
        table=tables["gus"],
    )

    def turn_notice(guest: str) -> dict[str, Any]:
        rows = sql(
            url,
            "SELECT state, attempts, detail, due_at FROM notices"
            " WHERE table_id = :table AND kind = 'turn'",
            table=tables[guest],
        )
        assert len(rows) == 1, rows
        return rows[0]

    def luis_notice() -> dict[str, Any]:
        return turn_notice("luis")

    def attempts_reach(count: int) -> Callable[[], bool]:
        return lambda: all(turn_notice(g)["attempts"] == count for g in ("luis", "gus"))

    with running_server(settings()):
        # every other turn notice of the round goes out
        for name in OTHERS:
            turn = sink.wait(f"{name}@example.org", 2)[-1]
            assert turn["Subject"] == "Espadas: te toca en la mesa de Ana"
        # the creator's name with CR/LF reaches no header raw, and adds no recipient
        pia = sink.wait("pia@example.org", 2)[-1]
        assert pia["Subject"] == "Espadas: te toca en la mesa de Evil Bcc: x@example.org"
        assert pia["Bcc"] is None and pia["To"] == "pia@example.org"
        # the stored address that cannot be a header: failed with its reason, retried
        until(attempts_reach(1), "a first failed attempt")
        first = luis_notice()
        assert first["state"] == "pending"
        assert "not a valid e-mail address" in first["detail"]
        assert turn_notice("gus")["state"] == "pending"
        assert "JSONDecodeError" in turn_notice("gus")["detail"], turn_notice("gus")
        for wait, attempts in zip(BACKOFF, range(2, MAX_ATTEMPTS + 1), strict=True):
            clock.advance(seconds=wait.total_seconds() - 2)
            time.sleep(0.3)
            assert attempts_reach(attempts - 1)()  # not before its time
            clock.advance(seconds=2)
            until(attempts_reach(attempts), f"attempt {attempts}")
        last = luis_notice()
        assert last["state"] == "failed" and "not a valid e-mail address" in last["detail"]
        assert turn_notice("gus")["state"] == "failed"
        clock.advance(hours=6)
        time.sleep(0.4)
        for guest in ("luis", "gus"):
            assert turn_notice(guest)["attempts"] == MAX_ATTEMPTS
            assert turn_notice(guest)["state"] == "failed"
        # nothing the poison asked for went anywhere
        assert all("x@example.org" not in rcpt for rcpt, _ in sink.received)
        assert len(sink.to("luis@example.org")) == len(sink.to("gus@example.org")) == 1
    states = sql(url, "SELECT state, COUNT(*) AS n FROM notices WHERE kind = 'turn' GROUP BY state")
    assert {r["state"]: r["n"] for r in states} == {"sent": 5, "failed": 2}
