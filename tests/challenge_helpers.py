"""Playing the daily challenge through the API, for the server and page tests."""

from __future__ import annotations

import time
from typing import Any

from espadas.tables.challenge import SEAT
from server_helpers import Client


def play(
    client: Client, table: str, boards: int, leave_after: int | None = None
) -> list[dict[str, Any]]:
    """Plays the player's seat with its first legal move until the challenge ends
    (its game over with the last board), or, with ``leave_after``, leaves once that
    many boards are done; every view."""
    views = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        view = client.view(table)
        views.append(view)
        game = view["game"]
        done = len(view["sheet"])
        if view["you"] is None:
            return views  # left: the robot plays on
        if leave_after is not None and done >= leave_after and game["phase"] != "hand_end":
            client.ok("POST", "/api/challenge/leave")
            return views
        if game["phase"] in ("hand_end", "game_over") and game["hand_number"] == boards:
            # the last board ends the game: no next hand, no rematch
            assert game["result"] is not None and game["result"]["reason"] == "boards"
            assert view["status"] == "finished"
            refused = client.act(table, "next_hand")
            assert refused.status_code == 409
            refused = client.request("POST", f"/api/tables/{table}/rematch", {})
            assert refused.status_code == 409 and refused.json()["error"] == "no_rematch"
            return views
        if game["phase"] == "hand_end":
            client.ok("POST", f"/api/tables/{table}/actions", {"type": "next_hand"})
        elif game["to_act"] == SEAT and game["legal"]:
            move = game["legal"][0]
            client.ok("POST", f"/api/tables/{table}/actions", move)
        else:
            time.sleep(0.01)
    raise AssertionError("the challenge did not end in time")
