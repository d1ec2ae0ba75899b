"""Quick play across two instances on one PostgreSQL database: people connected to
different instances are seated at one table, each once."""

from __future__ import annotations

from pathlib import Path

from server_helpers import Client, LobbySocket, fresh_postgres, running_server, settings_for


def test_two_instances_form_one_table_from_people_on_both(tmp_path: Path) -> None:
    options = {"robot_workers": 0, "rate": 10_000, "burst": 10_000, "lobby_tick_s": 0.1}
    with fresh_postgres() as pg:
        first = settings_for(tmp_path / "one", pg, **options)
        second = settings_for(tmp_path / "two", pg, **options)
        with running_server(first) as one, running_server(second) as two:
            people = []
            for name, base in (("Ana", one), ("Luis", two), ("Marta", one), ("Pedro", two)):
                client = Client(base)
                client.sign_in(name)
                people.append((client, LobbySocket(base, client.cookie_header())))
            for client, _ in people:
                client.ok("POST", "/api/lobby/quick", {"rules": "estandar", "wait": 60})
            tables = {socket.seated() for _, socket in people}
            assert len(tables) == 1
            table = tables.pop()
            for client, _ in people:  # each instance shows the same table, each seated once
                view = client.view(table)
                assert view["status"] == "playing" and view["you"] is not None
            assert sorted(s["name"] for s in people[1][0].view(table)["seats"]) == [
                "Ana",
                "Luis",
                "Marta",
                "Pedro",
            ]
            for client, socket in people:
                socket.close()
                client.close()
