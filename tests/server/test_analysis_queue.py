"""The analysis of a game through the task queue (arq on the Redis of this machine):
with ``--robot-queue`` the parts of an analysis go to ``espadas worker``
processes, as robot decisions do, and the result is the same as in one process."""

from __future__ import annotations

import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from analysis_helpers import played_table, wait_done
from espadas.robots.analysis import analyse, analysis_json, decisions
from server_helpers import Client, running_server, settings_for

BUDGET_MS = 15.0


def start_worker(url: str, queue: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "espadas.cli.main", "worker", "--redis", url, "--queue", queue]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.slow  # kills a process: a crash test, left out by --fast
def test_an_analysis_runs_in_the_queue_workers(tmp_path: Path, redis_url: str) -> None:
    queue = "espadas:test:" + secrets.token_hex(4)
    worker = start_worker(redis_url, queue)
    settings = settings_for(
        tmp_path,
        robot_workers=0,
        robot_queue=redis_url,
        robot_queue_name=queue,
        rate=10_000,
        burst=10_000,
        analysis_budget_ms=BUDGET_MS,
    )
    try:
        with running_server(settings) as base:
            ana = Client(base, "en")
            ana.sign_in("Ana")
            time.sleep(2)  # the worker loads
            tid = played_table(ana, tricks=1)
            assert ana.request("POST", f"/api/tables/{tid}/analysis").status_code == 202
            state, _ = wait_done(ana, tid)
            record = ana.ok("GET", f"/api/tables/{tid}/record")
            found = decisions(record)
            expected = analysis_json(analyse(found, budget_ms=BUDGET_MS), range(4))
            assert state["analysis"] == expected
            ana.close()
    finally:
        if worker.poll() is None:
            worker.send_signal(signal.SIGKILL)
            worker.wait()
