"""What the tests of the analysis share: a finished game with a plain blunder in it,
and waiting for an analysis to be done."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import Client


def played_table(ana: Client, tricks: int = 2) -> str:
    """A table of Ana's with three ``normal`` robots: she bids 13 (a plain blunder),
    plays ``tricks`` tricks and abandons (the game is then over). Not ``aleatorio``:
    a random partner's bid of 13 (or 12 and 9 beside it) sets the side whatever Ana
    bids, and her 13 is then no mistake (2 deals in 40 did that, failing CI)."""
    tid: str = ana.ok("POST", "/api/tables", {"preset": "pagat"})["id"]
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    played = 0
    deadline = time.monotonic() + 60
    while played < tricks + 1 and time.monotonic() < deadline:
        game = ana.view(tid)["game"]
        if game["to_act"] != 0:
            time.sleep(0.02)
            continue
        if game["phase"] == "bidding":
            assert ana.act(tid, "bid", 13).status_code == 200
        else:
            card = next(a["value"] for a in game["legal"] if a["type"] == "play")
            assert ana.act(tid, "play", card).status_code == 200
        played += 1
    assert ana.act(tid, "abandon").status_code == 200
    assert ana.view(tid)["status"] == "finished"
    return tid


def wait_done(client: Client, tid: str, timeout: float = 120) -> tuple[dict[str, Any], list[int]]:
    """The finished analysis, and the percentages seen on the way."""
    seen: list[int] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.ok("GET", f"/api/tables/{tid}/analysis")
        seen.append(state["percent"])
        if state["status"] == "done":
            return state, seen
        assert state["status"] in ("queued", "running"), state
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")
