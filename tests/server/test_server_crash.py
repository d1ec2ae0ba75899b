"""Durability: the server process is killed (SIGKILL) at random moments while
robots and a person play; after each restart every table goes on, and every
action the server acknowledged is in the log."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from espadas.store.store import Store
from server_helpers import Client, free_port, serve_process

KILLS = 12
TABLES = 3


@dataclass
class Ack:
    table: str
    version: int
    kind: str
    value: Any


def step(client: Client, table: str, acks: list[Ack]) -> None:
    """The person's move at ``table``, if one is due; acknowledged moves are kept."""
    view = client.view(table)
    game = view["game"]
    if game is None or game["phase"] == "game_over":
        return
    kind: str
    value: Any = None
    if game["phase"] == "hand_end":
        kind = "next_hand" if game["result"] is None else "confirm_end"
    elif game["to_act"] == 0 and game["phase"] == "bidding":
        kind, value = "bid", 3
    elif game["to_act"] == 0 and game["phase"] == "playing":
        kind, value = "play", game["proper_plays"][-1]
    else:
        return
    response = client.act(table, kind, value)
    if response.status_code == 200:
        acks.append(Ack(table, response.json()["version"], kind, value))


def test_sigkill_at_random_moments_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(20261130)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = serve_process(tmp_path, port)
    ana = Client(base)
    ana.sign_in("Ana")
    tables = []
    for _ in range(TABLES):
        tid = ana.ok("POST", "/api/tables", {"target": 500, "renege": "prevented"})["id"]
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
        ana.ok("POST", f"/api/tables/{tid}/start")
        tables.append(tid)
    acks: list[Ack] = []
    versions_at_kill: list[dict[str, int]] = []
    try:
        for _ in range(KILLS):
            killer = threading.Timer(
                rng.uniform(0.05, 0.8), lambda p=server: p.send_signal(signal.SIGKILL)
            )
            killer.start()
            while server.poll() is None:
                try:
                    for tid in tables:
                        step(ana, tid, acks)
                except httpx.TransportError:
                    pass
            killer.join()
            server = serve_process(tmp_path, port)
            # after the restart the log holds at least every acknowledged version
            now = {tid: ana.view(tid)["version"] for tid in tables}
            versions_at_kill.append(now)
            for ack in acks:
                assert now[ack.table] >= ack.version
        # every table goes on after the last restart: robots play without being asked
        start = {tid: ana.view(tid)["version"] for tid in tables}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for tid in tables:
                step(ana, tid, acks)
            now = {tid: ana.view(tid) for tid in tables}
            if all(
                v["version"] >= start[t] + 20 or v["status"] == "finished" for t, v in now.items()
            ):
                break
        else:
            raise AssertionError(f"tables did not go on: {start} -> {now}")
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    assert len(acks) > 50
    # every acknowledged action is in the log, at the version the answer showed
    logs = asyncio.run(read_logs(tmp_path / "espadas.db", tables))
    for ack in acks:
        events = logs[ack.table]
        if ack.kind in ("bid", "play"):
            event = events[ack.version - 1]
            assert event.type == ack.kind and event.data["seat"] == 0
            assert event.data["value" if ack.kind == "bid" else "card"] == ack.value
        elif ack.kind == "next_hand":
            assert events[ack.version - 2].type == "next_hand"
        else:
            assert events[ack.version - 1].type == ack.kind
    for tid in tables:
        assert [e.seq for e in logs[tid]] == list(range(1, len(logs[tid]) + 1))
    assert os.path.exists(tmp_path / "espadas.db")


async def read_logs(db: Path, tables: list[str]) -> dict[str, Any]:
    store = await Store.open(f"sqlite:///{db}")
    try:
        return {tid: await store.events(tid) for tid in tables}
    finally:
        await store.close()
