"""Games for the club pages' browser tests, made through the real API of a running
server: whole games a person plays out against robots (first proper card, bid 3),
and games abandoned at the start (a loss for the side that left), so that
profiles, ratings and leaderboards have real data behind them."""

from __future__ import annotations

import time
from typing import Any

from server_helpers import Client


def play_out(client: Client, table: str, seat: int = 0, within_s: float = 120) -> dict[str, Any]:
    """The person at ``seat`` plays until the table is finished (robots play the
    rest): bids 3 where it may, plays its first proper card, deals the next hand
    and confirms the end. Returns the finished table's view."""
    deadline = time.monotonic() + within_s
    view: dict[str, Any] = {}
    while time.monotonic() < deadline:
        view = client.view(table)
        if view["status"] == "finished":
            return view
        game = view["game"]
        legal = game["legal"]
        types = [a["type"] for a in legal]
        if "next_hand" in types and game["phase"] == "hand_end":
            client.act(table, "next_hand")
        elif "confirm_end" in types:
            client.act(table, "confirm_end")
        elif game["to_act"] == seat and "look" in types:
            client.act(table, "look")
        elif game["to_act"] == seat and game["phase"] == "bidding":
            bids = [a["value"] for a in legal if a["type"] == "bid"]
            client.act(table, "bid", 3 if 3 in bids else bids[0])
        elif game["to_act"] == seat:
            client.act(table, "play", game["proper_plays"][0])
        else:
            time.sleep(0.02)
    raise AssertionError(f"the game did not end: {view.get('status')}")


def robot_table(
    client: Client, partner: str, opponents: str, preset: str = "estandar", **options: Any
) -> str:
    """A started table of ``client`` (seat 0): a robot of level ``partner`` in seat 2
    and robots of level ``opponents`` in the others (with 3 players: seat 1 is the
    partner level's, seat 2 the opponents')."""
    body: dict[str, Any] = {"preset": preset}
    if options:
        body["options"] = options
    table: str = client.ok("POST", "/api/tables", body)["id"]
    seats = client.view(table)["players"]
    first, rest = ([2], [1, 3]) if seats == 4 else ([1], [2])
    client.ok("POST", f"/api/tables/{table}/robots", {"level": partner, "seats": first})
    client.ok("POST", f"/api/tables/{table}/robots", {"level": opponents, "seats": rest})
    client.ok("POST", f"/api/tables/{table}/start")
    return table


def whole_game(client: Client, partner: str, opponents: str, preset: str = "cien") -> str:
    """A game played to its end with robots; its table id."""
    table = robot_table(client, partner, opponents, preset)
    play_out(client, table)
    return table


def abandoned_game(
    client: Client, partner: str, opponents: str, preset: str = "estandar", **options: Any
) -> str:
    """A game abandoned by ``client`` at once; its table id."""
    table = robot_table(client, partner, opponents, preset, **options)
    answer = client.act(table, "abandon")
    assert answer.status_code == 200, answer.text
    assert client.view(table)["status"] == "finished"
    return table
