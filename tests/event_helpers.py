"""Playing an event's table through the API, every person seated there by their
own client (first legal move), for the server, CLI and page tests."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import Client


def play_table(clients: dict[str, Client], table: str, boards: int) -> list[dict[str, Any]]:
    """Plays ``table`` until it has finished ``boards`` boards; ``clients`` by the
    names seated there (robots play themselves). Every view each client got."""
    views: list[dict[str, Any]] = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        moved = False
        for client in clients.values():
            view = client.view(table)
            views.append(view)
            game = view["game"]
            if len(view["sheet"]) >= boards and game["phase"] == "hand_end":
                return views
            seat = view["you"]
            if game["phase"] == "hand_end":  # each person says next (a second time: refused)
                pressed = client.act(table, "next_hand")
                assert pressed.status_code in (200, 409), pressed.text
                continue
            if game["to_act"] == seat and game["legal"]:
                client.ok("POST", f"/api/tables/{table}/actions", game["legal"][0])
                moved = True
        if not moved:
            time.sleep(0.01)
    raise AssertionError("the table did not finish in time")


def wait_for(predicate: Any, what: str, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(what)
