"""Robot workers do not outlive their server: after ``kill -9``
of ``espadas serve`` its pool's worker processes end within seconds instead of
living on, re-parented to PID 1. Processes are found in ``/proc`` (Linux)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from server_helpers import Client, free_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

Process = tuple[int, int]
"""A process as its pid and start time (a pid may be reused by another)."""


def _stat(pid: int) -> tuple[str, int, int] | None:
    """State, parent pid and start time of ``pid`` (None: no such process)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return fields[0], int(fields[1]), int(fields[19])


def descendants(root: int) -> set[Process]:
    """Every living process below ``root`` (children, their children...)."""
    parents: dict[int, list[Process]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] != "Z":
                parents.setdefault(stat[1], []).append((int(entry.name), stat[2]))
    found: set[Process] = set()
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.add(child)
            todo.append(child[0])
    return found


def alive(process: Process) -> bool:
    stat = _stat(process[0])
    return stat is not None and stat[2] == process[1] and stat[0] != "Z"


def test_pool_workers_end_when_the_server_is_killed(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "espadas.cli.main", "serve", "--port", str(port)]
    command += ["--data", str(tmp_path), "--robot-workers", "2"]
    command += ["--rate", "100000", "--burst", "100000"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    workers: set[Process] = set()
    below: set[Process] = set()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
            assert server.poll() is None and time.monotonic() < deadline, "no server"
        ana = Client(base)
        ana.sign_in("Ana")
        for _ in range(3):  # robots to play: the pool starts its workers
            tid = ana.ok("POST", "/api/tables", {"target": 250})["id"]
            ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
            ana.ok("POST", f"/api/tables/{tid}/start")
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = {p for p in descendants(server.pid) if b"spawn_main" in _cmdline(p[0])}
        assert len(workers) >= 2, workers  # the pool's two workers are running
        below = descendants(server.pid)
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 10
        while any(alive(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in below if alive(p)]
        assert not left, f"still running after the server died: {left}"
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGKILL)
            server.wait()
        for process in workers | below:  # clean up after a failure (our own processes only)
            if alive(process):
                with contextlib.suppress(OSError):
                    os.kill(process[0], signal.SIGKILL)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


GRANDCHILD = """
import os, pathlib, sys, threading
from espadas.server import robot_pool
threading.Thread(target=robot_pool._watch, args=(os.getppid(),), daemon=True).start()
pathlib.Path(sys.argv[1]).write_text("watching")
threading.Event().wait()
"""
MIDDLE = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]])
time.sleep(600)
"""


def test_the_watch_thread_alone_ends_a_worker_whose_parent_died(tmp_path: Path) -> None:
    """The portable guard (no death signal): a process watching its parent with
    :func:`~espadas.server.robot_pool._watch` ends once the parent is killed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    ready = tmp_path / "ready"
    command = [sys.executable, "-c", MIDDLE, GRANDCHILD, str(ready)]
    middle = subprocess.Popen(command, env=env)
    below: set[Process] = set()
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        below = descendants(middle.pid)
        assert ready.exists() and below  # the thread is watching its first parent
        middle.send_signal(signal.SIGKILL)
        middle.wait()
        deadline = time.monotonic() + 10
        while any(alive(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in below if alive(p)]
    finally:
        for process in below:
            if alive(process):
                with contextlib.suppress(OSError):
                    os.kill(process[0], signal.SIGKILL)
