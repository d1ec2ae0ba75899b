"""Rematch races: however many requests for a table's rematch
arrive at once, on one instance or several, exactly one new table is opened and
every answer names it; a rematch asked for while the game's last move is being
made never leaves the table pointing nowhere."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from espadas.tables.ids import TABLE_ID
from server_helpers import TLS, Client, running_server, settings_for

pytestmark = pytest.mark.databases("sqlite", "postgresql")

OPTIONS: dict[str, Any] = {"robot_workers": 0, "rate": 100_000, "burst": 100_000}
REQUESTS = 30
RACES = 10


def person(base: str, name: str) -> Client:
    client = Client(base)
    client.sign_in(name)
    return client


def same_person(client: Client, base: str) -> Client:
    """Another connection (own cookies jar) of the same person, perhaps to another instance."""
    other = Client(base)
    other.http.cookies.update(client.http.cookies)
    other.csrf = client.csrf
    return other


def at_once(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Runs the calls in threads released together; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def finished_table(ana: Client) -> str:
    """A table of Ana's with three robots, over (Ana abandons)."""
    tid: str = ana.ok("POST", "/api/tables", {"target": 250})["id"]
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    assert ana.act(tid, "abandon").status_code == 200
    assert ana.view(tid)["status"] == "finished"
    return tid


def rematch_of(client: Client, tid: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return client.request("POST", f"/api/tables/{tid}/rematch", body or {})


def check_one_rematch(ana: Client, tid: str, answers: list[httpx.Response]) -> None:
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] * (len(answers) - 1) + [201], [a.text for a in answers]
    ids = {a.json()["id"] for a in answers}
    assert len(ids) == 1, ids
    (new,) = ids
    assert ana.view(tid)["rematch"] == new
    assert ana.view(new)["rematch_of"] == tid
    mine = [t["id"] for t in ana.ok("GET", "/api/tables")["tables"]]
    assert [t for t in mine if t != tid] == [new], mine  # no other table was opened


def test_thirty_rematch_requests_at_once_open_one_table(base: str) -> None:
    ana = person(base, "Ana")
    tid = finished_table(ana)
    twins = [same_person(ana, base) for _ in range(REQUESTS)]
    answers = at_once([partial(rematch_of, c, tid) for c in twins])
    check_one_rematch(ana, tid, answers)
    # asked again later: the same table; with other partners: refused, nothing opened
    again = rematch_of(ana, tid)
    assert again.status_code == 200 and again.json()["id"] == answers[0].json()["id"]
    other = rematch_of(ana, tid, {"partner": 1})
    assert other.status_code == 409 and other.json()["error"] == "rematch_exists"
    assert len(ana.ok("GET", "/api/tables")["tables"]) == 2


def test_only_the_creator_of_a_finished_table_opens_its_rematch(base: str) -> None:
    ana = person(base, "Ana")
    tid: str = ana.ok("POST", "/api/tables", {"target": 250})["id"]
    luis = person(base, "Luis")
    luis.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    early = rematch_of(ana, tid)
    assert (early.status_code, early.json()["error"]) == (409, "not_finished")
    assert luis.act(tid, "abandon").status_code == 200
    answers = at_once([lambda: rematch_of(luis, tid), lambda: rematch_of(ana, tid, {"partner": 1})])
    assert answers[0].status_code == 403 and answers[0].json()["error"] == "not_creator"
    assert answers[1].status_code == 201
    assert answers[1].json()["view"]["seats"][2]["name"] == "Luis"  # partners changed
    assert rematch_of(ana, tid, {"partner": 1}).json()["id"] == answers[1].json()["id"]


@pytest.mark.databases("postgresql")  # several instances share PostgreSQL, not a SQLite file
def test_rematch_requests_through_two_instances_open_one_table(
    tmp_path: Path, database: str | None
) -> None:
    assert database is not None
    first = settings_for(tmp_path, database, **OPTIONS)
    second = settings_for(tmp_path, database, **OPTIONS)
    with running_server(first) as one, running_server(second) as two:
        for _ in range(3):
            ana = person(one, "Ana")
            tid = finished_table(ana)
            twins = [same_person(ana, (one, two)[i % 2]) for i in range(REQUESTS)]
            answers = at_once([partial(rematch_of, c, tid) for c in twins])
            check_one_rematch(ana, tid, answers)


def test_a_rematch_racing_the_last_move_is_never_lost(tmp_path: Path, database: str | None) -> None:
    """The rematch is asked for while the game's last move (an abandon) is being
    made, on a server that has just started (nothing cached: every first read goes
    to the store). Whatever the order, the rematch opens once the game is over."""
    settings = settings_for(tmp_path, database, **OPTIONS)
    with running_server(settings) as base:
        names = ("Ana", "Luis", "Marta", "Pedro")
        people = [person(base, name) for name in names]
        ana, luis = people[0], people[1]
        tables = []
        for _ in range(RACES):
            tid = ana.ok("POST", "/api/tables", {"target": 250})["id"]
            for guest in people[1:]:
                guest.ok("POST", f"/api/tables/{tid}/join")
            ana.ok("POST", f"/api/tables/{tid}/start")
            tables.append(tid)
        cookies = [(p.http.cookies, p.csrf) for p in people]
    with running_server(settings_for(tmp_path, database, **OPTIONS)) as base:
        for client, (jar, csrf) in zip(people, cookies, strict=True):
            client.http = httpx.Client(base_url=base, timeout=60, cookies=jar, verify=TLS)
            client.csrf = csrf
        calls: list[Callable[[], httpx.Response]] = []
        for tid in tables:
            racers = same_person(ana, base), same_person(luis, base)
            calls.append(partial(rematch_of, racers[0], tid))
            calls.append(partial(racers[1].act, tid, "abandon"))
        answers = at_once(calls)
        for i, tid in enumerate(tables):
            asked, abandoned = answers[2 * i], answers[2 * i + 1]
            assert abandoned.status_code == 200, abandoned.text
            assert asked.status_code in (201, 409), asked.text
            if asked.status_code == 409:  # asked before the end: refused, and nothing marked
                assert asked.json()["error"] == "not_finished", asked.text
                assert ana.view(tid)["rematch"] is None
            again = rematch_of(ana, tid)
            assert again.status_code in (200, 201), again.text
            new = again.json()["id"]
            assert TABLE_ID.match(new) and ana.view(tid)["rematch"] == new
            assert ana.view(new)["rematch_of"] == tid and ana.view(new)["status"] == "waiting"


def test_a_table_marked_with_the_old_race_s_dash_can_still_have_its_rematch() -> None:
    """Logs written before the fix may hold a rematch event naming "-" (no table):
    it counts as no rematch, so the creator can open the real one."""
    from datetime import UTC, datetime

    from espadas.engine import Rules
    from espadas.tables.event import Event
    from espadas.tables.ids import rematch_id
    from espadas.tables.table import Table

    at = datetime(2026, 1, 1, tzinfo=UTC)
    table, _ = Table.create("t1-abcdef", Rules.from_preset("estandar"), "ana", "Ana", at)
    table.add_robots("ana", "aleatorio", at)
    table.start("ana", at)
    table.act("ana", "abandon", at)
    assert table.status == "finished"
    table.apply(Event(table.version + 1, "rematch", {"table": "-"}, at))
    again = Table.rebuild("t1-abcdef", table.events)
    assert again.rematch is None
    assert again.rematch_target("ana") == rematch_id("t1-abcdef")
    marked = again.mark_rematch("ana", rematch_id("t1-abcdef"), at)
    assert [e.type for e in marked] == ["rematch"] and again.rematch == rematch_id("t1-abcdef")
    assert again.mark_rematch("ana", rematch_id("t1-abcdef"), at) == []  # the same: nothing new
