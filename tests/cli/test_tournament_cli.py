"""``espadas event create|list|standings`` on the store itself, and ``espadas
duplicate`` given an event's id (or its records bundle): the standings recomputed
from the stored records alone equal what the API (and so the page) shows."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from espadas.cli.main import main
from event_helpers import play_table
from server_helpers import Client, running_server, settings_for


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_events_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = str(tmp_path)
    settings = settings_for(tmp_path, robot_workers=0, rate=10_000, burst=10_000, notices=False)
    with running_server(settings) as base:
        org, ana, bea, cai = (Client(base) for _ in range(4))
        try:
            org.sign_in("Olga")
            code, out = _run(capsys, "event", "create", "x", "--organiser", "Nadie", "--data", data)
            assert code == 1 and "Nadie" in out
            code, out = _run(
                capsys, "event", "create", "Copa", "--organiser", "olga", "--boards", "2",
                "--rounds", "2", "--robot", "aleatorio", "--json", "--data", data,
            )  # fmt: skip
            assert code == 0, out
            made = json.loads(out)
            event = made["id"]
            code, out = _run(capsys, "event", "create", "Mal", "--organiser", "Olga",
                             "--boards", "3", "--rounds", "2", "--data", data)  # fmt: skip
            assert code == 1 and "boards" in out
            code, out = _run(capsys, "event", "list", "--data", data)
            assert code == 0 and event in out and "Copa" in out
            shown = org.ok("GET", f"/api/events/{event}")
            assert shown["commitment"] == made["commitment"] and shown["organiser"] == "Olga"
            token = made["link"].split("?t=")[1]
            for client, name in ((ana, "Ana"), (bea, "Bea"), (cai, "Cai")):
                client.sign_in(name)
                client.ok("POST", f"/api/events/{event}/join", {"token": token})
            org.ok("POST", f"/api/events/{event}/start")
            people = {"Ana": ana, "Bea": bea, "Cai": cai}
            for round_ in (1, 2):
                current = org.ok("GET", f"/api/events/{event}")
                table = next(t for t in current["tables"] if t["round"] == round_)
                play_table(people, table["table"], 1)
                if round_ == 1:  # live, half-way: the command agrees with the API too
                    code, out = _run(capsys, "duplicate", event, "--json", "--data", data)
                    assert code == 0, out
                    api = org.ok("GET", f"/api/events/{event}/standings")
                    assert json.loads(out) == api
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    current = org.ok("GET", f"/api/events/{event}")
                    if current["round"] > round_ or current["status"] == "finished":
                        break
                    time.sleep(0.05)
            api = org.ok("GET", f"/api/events/{event}/standings")
            assert api["final"] is True and api["overall"]
            code, out = _run(capsys, "duplicate", event, "--json", "--data", data)
            assert code == 0 and json.loads(out) == api
            code, out = _run(capsys, "event", "standings", event, "--json", "--data", data)
            assert code == 0 and json.loads(out) == api
            code, out = _run(capsys, "event", "standings", event, "--data", data, "--lang", "en")
            assert "Overall" in out and "Round 2" in out and "Ana & Bea" in out
            bundle = org.ok("GET", f"/api/events/{event}/records")
            path = tmp_path / "copa.json"
            path.write_text(json.dumps(bundle), encoding="utf-8")
            code, out = _run(capsys, "duplicate", str(path), "--json")
            assert code == 0 and json.loads(out) == api
            code, out = _run(capsys, "duplicate", "0123456789ab", "--data", data)
            assert code == 1
        finally:
            for client in (org, ana, bea, cai):
                client.close()


def test_a_round_written_but_not_opened_is_opened_when_looked_at(tmp_path: Path) -> None:
    """As after a crash between writing a round's tables and opening them: the next
    look at the event opens them, with the seats written."""
    import asyncio

    from espadas.store.store import Store
    from espadas.store.tournaments import EventTable, Tournaments
    from espadas.tables.tournament import table_id

    settings = settings_for(tmp_path, robot_workers=0, rate=10_000, burst=10_000, notices=False)
    with running_server(settings) as base:
        org, ana = Client(base), Client(base)
        try:
            org.sign_in("Olga")
            ana.sign_in("Ana")
            made = org.ok("POST", "/api/events", {"name": "Caída", "boards": 1})
            token = made["link"].split("?t=")[1]
            ana.ok("POST", f"/api/events/{made['id']}/join", {"token": token})

            async def write_round() -> str:
                store = await Store.open(settings.db_url)
                try:
                    db = Tournaments(store.engine)
                    ana_id = (await db.entrants(made["id"]))[0].player_id
                    made_id = table_id(made["id"])
                    row = EventTable(1, 1, made_id, [ana_id, None, None, None])
                    assert await db.open_round(made["id"], 1, [row], datetime.now(UTC))
                    return made_id
                finally:
                    await store.close()

            written = asyncio.run(write_round())
            shown = ana.ok("GET", f"/api/events/{made['id']}")
            assert shown["status"] == "playing"
            assert [t["table"] for t in shown["tables"]] == [written]
            view = ana.view(written)
            assert view["you"] == 0 and view["game"]["phase"] in ("bidding", "playing")
            assert len(view["game"]["hand"]) == 13
        finally:
            org.close()
            ana.close()
