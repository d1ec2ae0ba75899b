"""Robot decisions through a task queue (arq on the Redis of this machine) to
``espadas worker`` processes; a worker that dies does not stall the table."""

from __future__ import annotations

import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from server_helpers import Client, running_server, settings_for


def start_worker(url: str, queue: str) -> subprocess.Popen[bytes]:
    """A worker, once it has warmed up (compiled its kernels: a minute or more
    on a clean clone) and says it is waiting for decisions."""
    command = [sys.executable, "-m", "espadas.cli.main", "worker", "--redis", url, "--queue", queue]
    worker = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert worker.stderr is not None
    said: list[bytes] = []
    for line in worker.stderr:
        said.append(line)
        if b"waiting for robot decisions" in line:
            break
    else:
        raise AssertionError(f"the worker stopped: {b''.join(said).decode()!r}")
    threading.Thread(target=worker.stderr.read, daemon=True).start()  # drains the rest
    return worker


def play_until(client: Client, table: str, versions: int, timeout: float = 60) -> dict[str, object]:
    """Ana bids 3 and plays her lowest card until the table has moved ``versions`` on."""
    start = client.view(table)["version"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.view(table)
        game = view["game"]
        if view["version"] >= start + versions or game["phase"] == "game_over":
            return view
        if game["phase"] == "hand_end":
            client.act(table, "next_hand")
        elif game["to_act"] == 0:
            if game["phase"] == "bidding":
                client.act(table, "bid", 3)
            else:
                client.act(table, "play", game["proper_plays"][0])
        else:
            time.sleep(0.05)
    raise AssertionError(f"the table stalled at version {client.view(table)['version']}")


@pytest.mark.slow  # kills a process: a crash test, left out by --fast
def test_workers_decide_and_a_dead_worker_does_not_stall_the_table(
    tmp_path: Path, redis_url: str
) -> None:
    queue = "espadas:test:" + secrets.token_hex(4)
    worker = start_worker(redis_url, queue)
    settings = settings_for(
        tmp_path,
        robot_workers=0,
        robot_queue=redis_url,
        robot_queue_name=queue,
        robot_timeout_s=3,
        rate=10_000,
        burst=10_000,
    )
    try:
        with running_server(settings) as base:
            ana = Client(base)
            ana.sign_in("Ana")
            table = ana.ok("POST", "/api/tables", {"renege": "prevented"})["id"]
            ana.ok("POST", f"/api/tables/{table}/robots", {"level": "normal"})
            ana.ok("POST", f"/api/tables/{table}/start")
            view = play_until(ana, table, 20)
            assert view["faults"] == 0  # the worker made every robot decision
            worker.send_signal(signal.SIGKILL)
            worker.wait()
            view = play_until(ana, table, 8)  # no worker: the hub moves for the robots
            faults = view["faults"]
            assert isinstance(faults, int) and faults >= 1
            worker = start_worker(redis_url, queue)
            # The new worker takes over from the hub (a decision already late
            # may still fault): within a minute, 12 versions pass with at most 2.
            deadline = time.monotonic() + 60
            while True:
                before = ana.view(table)["faults"]
                view = play_until(ana, table, 12)
                after = view["faults"]
                assert isinstance(before, int) and isinstance(after, int)
                game = view["game"]
                assert isinstance(game, dict) and game["phase"] != "game_over", "the game ended"
                if after - before <= 2:
                    break  # decisions are the worker's again
                assert time.monotonic() < deadline, "the new worker never took the decisions"
    finally:
        if worker.poll() is None:
            worker.send_signal(signal.SIGKILL)
            worker.wait()
