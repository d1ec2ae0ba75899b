"""A club as its host runs it, for the tests of the recipes on ``docs/host.md``:
the ``espadas`` command as its own process (``espadas serve`` until the block
ends, stopped as a host stops it), and a club worth keeping: two people with
accounts and ratings, and a game among four people in progress."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx

from server_helpers import Client, free_port

ROOT = Path(__file__).resolve().parents[1]


def espadas(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Runs ``espadas ARGS`` (this checkout's) and returns what it did."""
    return subprocess.run(
        [sys.executable, "-m", "espadas.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        check=False,
    )


@contextmanager
def serving(data: Path, *options: str, port: int | None = None) -> Iterator[str]:
    """``espadas serve --data DATA OPTIONS`` on a free port (no robot processes:
    robots think in threads) until the block ends; yields its address once it
    answers ``/health``. Ends it with SIGTERM, as a host stops a server."""
    port = port or free_port()
    command = [sys.executable, "-m", "espadas.cli.main", "serve", "--port", str(port)]
    command += ["--data", str(data), "--robot-workers", "0", *options]
    # its stderr in a file, not a pipe: a pipe nobody reads would stall it once full
    with tempfile.TemporaryFile() as said:
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=said)
        try:
            yield _answering(f"http://127.0.0.1:{port}", process, said)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)


def _answering(base: str, process: subprocess.Popen[bytes], said: IO[bytes]) -> str:
    """``base`` once the server there answers ``/health``."""
    deadline = time.monotonic() + 240  # a loaded 2-core machine starts it slowly
    while True:
        try:
            if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                return base
        except httpx.TransportError:
            pass
        if process.poll() is not None:
            said.seek(0)
            err = said.read().decode(errors="replace")
            raise AssertionError(f"espadas serve ended ({process.returncode}): {err}")
        if time.monotonic() > deadline:
            said.seek(0)
            err = said.read().decode(errors="replace")
            raise AssertionError(f"espadas serve did not answer /health: {err}")
        time.sleep(0.1)


@dataclass
class Club:
    """What a test keeps of a club to compare after a backup or a move."""

    people: dict[str, Client]
    """Each person's browser (cookies kept), by name."""
    ids: dict[str, str]
    """Each person's player id, by name."""
    left: list[str]
    """The rated games that ended when Bea left, oldest first."""
    table: str
    """The game in progress among Ana, Bea, Cris and Dani."""

    def move(self, base: str) -> None:
        """Points every browser at ``base`` (the same cookies)."""
        for client in self.people.values():
            client.base = base
            client.http.base_url = httpx.URL(base)

    def state(self) -> dict[str, Any]:
        """What the club shows: each person's view of the game in progress, each
        profile (name, ratings and statistics) and the leaderboard."""
        ana = self.people["Ana"]
        return {
            "views": {name: c.view(self.table) for name, c in self.people.items()},
            "profiles": {
                name: ana.ok("GET", f"/api/club/players/{pid}") for name, pid in self.ids.items()
            },
            "board": ana.ok("GET", "/api/club/leaderboard?kind=partnership"),
        }

    @staticmethod
    def check(state: dict[str, Any]) -> None:
        """``state`` holds what is worth keeping: everyone seated at the game in
        progress, a rating of two games for Ana and Bea, both on the leaderboard."""
        assert [v["you"] for v in state["views"].values()] == [0, 1, 2, 3]
        assert all(v["status"] == "playing" for v in state["views"].values())
        for name in ("Ana", "Bea"):
            rating = state["profiles"][name]["ratings"]["partnership"]
            assert rating["games"] == 2 and len(rating["history"]) == 2, rating
        board = {row["id"] for row in state["board"]["rows"]}
        assert {state["profiles"][n]["id"] for n in ("Ana", "Bea")} <= board

    def play_on(self) -> int:
        """The person whose turn it is bids 3, through their own cookie; returns
        the table's new version."""
        view = self.people["Ana"].view(self.table)
        seat = view["game"]["to_act"]
        name = next(n for n, c in self.people.items() if c.view(self.table).get("you") == seat)
        response = self.people[name].act(self.table, "bid", 3)
        assert response.status_code == 200, response.text
        version: int = response.json()["version"]
        assert version > view["version"]
        return version

    def left_game(self) -> str:
        """Ana and Bea, partners, open a rated table with two robots and start;
        Bea leaves at once, so the game ends and counts (the side that left
        loses). Returns the table."""
        ana, bea = self.people["Ana"], self.people["Bea"]
        tid = str(ana.ok("POST", "/api/tables", {"preset": "pagat"})["id"])
        bea.ok("POST", f"/api/tables/{tid}/join")
        ana.ok("POST", f"/api/tables/{tid}/partner", {"seat": 1})
        ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
        ana.ok("POST", f"/api/tables/{tid}/start")
        assert bea.act(tid, "abandon").status_code == 200
        assert ana.view(tid)["status"] == "finished"
        self.left.append(tid)
        return tid

    def close(self) -> None:
        for client in self.people.values():
            client.close()


def make_club(base: str) -> Club:
    """Ana and Bea play two rated games with two robots, and Bea leaves each
    (the side that left loses: ratings move); then Ana, Bea, Cris and Dani start
    a game, and two of them bid."""
    people: dict[str, Client] = {}
    for name in ("Ana", "Bea", "Cris", "Dani"):
        people[name] = Client(base)
        people[name].sign_in(name)
    ana = people["Ana"]
    ids = {name: str(c.ok("GET", "/api/club/me")["id"]) for name, c in people.items()}
    club = Club(people, ids, [], "")
    for _ in range(2):
        club.left_game()
    table = str(ana.ok("POST", "/api/tables", {"preset": "estandar"})["id"])
    for name in ("Bea", "Cris", "Dani"):
        people[name].ok("POST", f"/api/tables/{table}/join")
    ana.ok("POST", f"/api/tables/{table}/start")
    club.table = table
    for _ in range(2):
        club.play_on()
    return club


def need(program: str) -> str:
    """The path of ``program``; the test is skipped where it is missing, except in
    CI (``CI`` set), where that fails."""
    import shutil

    import pytest

    found = shutil.which(program) or next(
        (p for p in (f"/usr/sbin/{program}", f"/usr/bin/{program}") if os.path.exists(p)), None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is needed (apt-get install it)")
        pytest.skip(f"{program} is not installed")
    return found
