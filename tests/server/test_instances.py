"""Several server instances on one PostgreSQL database: a client of one instance
sees what is done through another at once (LISTEN/NOTIFY), and when an instance
is killed its clients go on through the other with nothing lost."""

from __future__ import annotations

import contextlib
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_helpers import Client, Listener, free_port, fresh_postgres, running_server, settings_for


@pytest.fixture
def pg() -> Iterator[str]:
    with fresh_postgres() as url:
        yield url


def test_a_client_of_one_instance_sees_moves_made_through_another(tmp_path: Path, pg: str) -> None:
    first = settings_for(tmp_path, pg, robot_workers=0, rate=10_000, burst=10_000)
    second = settings_for(tmp_path, pg, robot_workers=0, rate=10_000, burst=10_000)
    with running_server(first) as one, running_server(second) as two:
        ana = Client(one)
        ana.sign_in("Ana")
        table = ana.ok("POST", "/api/tables", {"target": 250, "renege": "prevented"})["id"]
        people = [ana]
        for name in ("Luis", "Marta", "Pedro"):
            guest = Client(two)  # the other three go through the second instance
            guest.sign_in(name)
            guest.ok("POST", f"/api/tables/{table}/join")
            people.append(guest)
        watcher = Listener(two, table, people[1].cookie_header())
        watcher.wait_version(4)
        delays = []
        ana.ok("POST", f"/api/tables/{table}/start")
        watcher.wait_version(6)
        for _ in range(20):
            view = ana.view(table)
            game = view["game"]
            seat = game["to_act"]
            client = people[seat]
            started = time.monotonic()
            if game["phase"] == "bidding":
                response = client.act(table, "bid", 3)
            else:
                mine = client.view(table)["game"]
                response = client.act(table, "play", mine["proper_plays"][0])
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            if client.base == one:  # moves made on the first instance, seen on the second
                watcher.wait_version(version, timeout=5)
                delays.append(time.monotonic() - started)
            else:
                watcher.wait_version(version, timeout=5)
                # the next turn is read from the first instance: wait until it has
                # heard of this move too, or it names the seat that just moved
                deadline = time.monotonic() + 5
                while ana.view(table)["version"] < version and time.monotonic() < deadline:
                    time.sleep(0.01)
        watcher.close()
    assert len(delays) >= 4
    assert statistics.median(delays) < 0.1, delays
    assert max(delays) < 1.0, delays


def serve(port: int, data: Path, db: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "espadas.cli.main", "serve", "--port", str(port),
        "--data", str(data), "--db", db, "--robot-workers", "0",
        "--rate", "100000", "--burst", "100000",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return process
        time.sleep(0.05)
    process.kill()
    raise AssertionError("the instance did not start")


def move(client: Client, table: str) -> tuple[str, Any, int] | None:
    """The person's move if one is due: (kind, value, version acknowledged)."""
    view = client.view(table)
    game = view["game"]
    if game is None:  # the other instance has not seen the start yet
        return None
    if game["phase"] == "hand_end" and game["result"] is None:
        kind, value = "next_hand", None
    elif game["to_act"] == view["you"] and game["phase"] == "bidding":
        kind, value = "bid", 3
    elif game["to_act"] == view["you"] and game["phase"] == "playing":
        kind, value = "play", game["proper_plays"][0]
    else:
        return None
    response = client.act(table, kind, value)
    if response.status_code != 200:
        return None
    return kind, value, response.json()["version"]


@pytest.mark.slow  # kills a process: a crash test, left out by --fast
def test_killing_an_instance_mid_game_loses_nothing(tmp_path: Path, pg: str) -> None:
    ports = [free_port(), free_port()]
    instances = [serve(port, tmp_path, pg) for port in ports]  # one data folder: one cookie key
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        ana, luis = Client(bases[0]), Client(bases[1])
        ana.sign_in("Ana")
        luis.sign_in("Luis")
        table = ana.ok("POST", "/api/tables", {"target": 250, "renege": "prevented"})["id"]
        luis.ok("POST", f"/api/tables/{table}/join")
        ana.ok("POST", f"/api/tables/{table}/robots", {"level": "normal"})
        ana.ok("POST", f"/api/tables/{table}/start")
        acks: list[tuple[str, Any, int]] = []
        deadline = time.monotonic() + 60
        while len(acks) < 12 and time.monotonic() < deadline:
            for client in (ana, luis):
                done = move(client, table)
                if done is not None:
                    acks.append(done)
        assert len(acks) >= 12
        before = luis.view(table)["version"]
        instances[0].send_signal(signal.SIGKILL)
        instances[0].wait()
        # Ana's browser reconnects: to the other instance, with the same cookies
        ana.base = bases[1]
        ana.http.base_url = httpx.URL(bases[1])
        assert ana.view(table)["version"] >= before
        deadline = time.monotonic() + 60
        while len(acks) < 30 and time.monotonic() < deadline:
            for client in (ana, luis):
                done = move(client, table)
                if done is not None:
                    acks.append(done)
        assert len(acks) >= 30, "the game did not go on after the kill"
        record = luis.ok("GET", f"/api/tables/{table}/record")
        view = luis.view(table)
        assert view["version"] >= max(version for _, _, version in acks)
        played = [card for hand in record["hands"] for card in hand["plays"]]
        mine = [value for kind, value, _ in acks if kind == "play"]
        current = [c for t in view["game"]["tricks"] for c in t["cards"]]
        if view["game"]["trick"]:
            current += view["game"]["trick"]["cards"]
        assert set(mine) <= set(played) | set(current)
    finally:
        for process in instances:
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                process.wait()
