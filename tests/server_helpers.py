"""A real server on a free port (uvicorn in a thread) and an HTTP client that
keeps its cookies and sends the CSRF token, for the server tests."""

from __future__ import annotations

import json
import os
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from espadas.server.settings import Settings
from espadas.web.site import create_site

_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
REDIS = os.environ.get("ESPADAS_TEST_REDIS", f"redis://127.0.0.1:6379/{5 + _WORKER % 8}")
"""The test Redis: database 5, or 5 + n for the n-th worker of a parallel run (up to 12)."""
PG_URL = os.environ.get("ESPADAS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(settings: Settings) -> Iterator[str]:
    """Serves ``create_site(settings)`` (API and pages) on 127.0.0.1 until the block ends."""
    port = free_port()
    config = uvicorn.Config(
        create_site(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


TLS = ssl.create_default_context()
"""The one TLS context of the tests' HTTP clients (``verify=TLS``). httpx builds a
new one for each client it makes, ``httpx.get`` included, loading the system's
certificates: some 20 ms of processor time each, for clients that speak plain
HTTP to loopback, thousands of times in a run."""


class Client:
    """One person's browser: cookies kept, CSRF header sent, JSON in and out."""

    def __init__(self, base: str, lang: str = "es") -> None:
        self.base = base
        self.http = httpx.Client(
            base_url=base, timeout=60, headers={"accept-language": lang}, verify=TLS
        )
        self.csrf = ""
        self.frames: list[dict[str, Any]] = []

    def close(self) -> None:
        self.http.close()

    def request(self, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"x-csrf-token": self.csrf} if self.csrf else {}
        content = None if body is None else json.dumps(body)
        if content is not None:
            headers["content-type"] = "application/json"
        response = self.http.request(method, path, content=content, headers=headers)
        if response.headers.get("content-type", "").startswith("application/json"):
            self.frames.append(
                {"path": path, "status": response.status_code, "body": response.json()}
            )
        return response

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        response = self.request(method, path, body)
        assert response.status_code < 300, (response.status_code, response.text)
        return response.json()

    def sign_in(self, name: str) -> None:
        self.csrf = self.ok("POST", "/api/session", {"name": name})["csrf"]

    def view(self, table: str) -> dict[str, Any]:
        result: dict[str, Any] = self.ok("GET", f"/api/tables/{table}")
        return result

    def act(self, table: str, kind: str, value: Any = None) -> httpx.Response:
        body: dict[str, Any] = {"type": kind}
        if value is not None:
            body["value"] = value
        return self.request("POST", f"/api/tables/{table}/actions", body)

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def settings_for(tmp: Path, db: str | None = None, **kw: Any) -> Settings:
    kw.setdefault("unique_names", False)  # modules sign in "Ana" once per test
    # robots at the tables think 5 ms a decision (100 ms when serving): the tests
    # check what they do, not how well (the robots' own tests measure that)
    kw.setdefault("robot_budget_ms", 5.0)
    return Settings(data=tmp, db=db, secret="test-secret-" + "x" * 20, **kw)


@contextmanager
def fresh_postgres(url: str = PG_URL) -> Iterator[str]:
    """A new, empty PostgreSQL database for one test module (dropped afterwards),
    so that tests never share tables. Fails loudly in CI (``CI`` set) and skips
    elsewhere when PostgreSQL cannot be reached."""
    import asyncio
    import secrets
    from concurrent.futures import ThreadPoolExecutor

    import pytest
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from espadas.store.store import async_url

    name = "espadas_test_" + secrets.token_hex(6)

    async def run(statement: str) -> None:
        engine = create_async_engine(async_url(url), isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text(statement))
        finally:
            await engine.dispose()

    def apart(statement: str) -> None:
        """``run(statement)`` in a thread of its own: a browser test's thread has
        Playwright's event loop running, beside which ``asyncio.run`` refuses."""
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, run(statement)).result()

    try:
        apart(f"CREATE DATABASE {name}")
    except (OSError, sa.exc.SQLAlchemyError) as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed at {url} and cannot be reached: {exc}")
        pytest.skip(f"PostgreSQL not reachable at {url}: {exc}")
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        apart(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


CARD = __import__("re").compile(r"^(10|[2-9TJQKA])[SHDC]$")


def card_strings(value: Any, skip: tuple[str, ...] = ("deals",)) -> list[str]:
    """Every string in ``value`` (a JSON value) that is a card, outside ``skip`` keys."""
    found: list[str] = []
    if isinstance(value, str):
        if CARD.match(value):
            found.append(value.replace("10", "T"))
    elif isinstance(value, list):
        for item in value:
            found += card_strings(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found += card_strings(item, skip)
    return found


class Listener:
    """A WebSocket client in a thread that keeps every frame it receives."""

    def __init__(self, base: str, table: str, cookie: str = "", origin: str | None = None):
        from websockets.sync.client import connect

        headers = {"Cookie": cookie} if cookie else {}
        url = base.replace("http://", "ws://") + f"/api/tables/{table}/live"
        from websockets.typing import Origin

        self.socket = connect(
            url,
            additional_headers=headers,
            origin=None if origin is None else Origin(origin),
            legacy=True,
            compression=None,  # see LobbySocket
        )
        self.frames: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for message in self.socket:
                self.frames.append(json.loads(message))
        except Exception:  # closed
            return

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def views(self) -> list[dict[str, Any]]:
        """The view frames received so far (not the answers to actions)."""
        return [f for f in list(self.frames) if f.get("type") == "view"]

    def wait_version(self, version: int, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            views = self.views()
            if views and views[-1]["version"] >= version:
                return views[-1]
            time.sleep(0.01)
        raise AssertionError(
            f"no frame with version {version}: {[f['version'] for f in self.views()][-5:]}"
        )

    def answer(self, ref: Any, timeout: float = 30) -> dict[str, Any]:
        """The answer ("done" or "refused") to the action sent with id ``ref``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in list(self.frames):
                if frame.get("type") in ("done", "refused") and frame.get("id") == ref:
                    return frame
            time.sleep(0.01)
        raise AssertionError(f"no answer to {ref!r}: {self.frames[-3:]}")

    def close(self) -> None:
        self.socket.close()
        self._thread.join(5)


def serve_process(data: Path, port: int) -> Any:
    """``espadas serve`` as its own process on ``port`` with its SQLite file in
    ``data`` (no robot workers, no rate limit to speak of), once it answers
    ``/health``: a server the tests can kill (SIGKILL) and start again."""
    import subprocess
    import sys

    command = [sys.executable, "-m", "espadas.cli.main", "serve", "--port", str(port)]
    command += ["--data", str(data), "--robot-workers", "0"]
    command += ["--rate", "100000", "--burst", "100000"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1, verify=TLS)
            if health.status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.05)
        assert process.poll() is None, process.stderr.read() if process.stderr else b""
    raise AssertionError("the server did not start")


class LobbySocket:
    """A lobby socket in a thread, keeping the frames it receives."""

    def __init__(self, base: str, cookie: str) -> None:
        from websockets.sync.client import connect

        url = base.replace("http://", "ws://") + "/api/lobby/live"
        # without permessage-deflate: compressing every frame on both ends cost the
        # server tests a few per cent of their processor time; the browser tests
        # keep the server's compression in use (chromium asks for it)
        self.socket = connect(
            url, additional_headers={"Cookie": cookie}, legacy=True, compression=None
        )
        self.frames: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            for message in self.socket:
                self.frames.append(json.loads(message))
        except Exception:  # closed
            return

    def seated(self, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in list(self.frames):
                you = frame.get("you")
                if you and you.get("table"):
                    return str(you["table"])
            time.sleep(0.02)
        raise AssertionError(f"never seated: {self.frames[-2:]}")

    def close(self) -> None:
        self.socket.close()
        self._thread.join(5)


People = Callable[..., tuple[Client, LobbySocket]]
"""The ``people`` fixture of the server tests: ``people(name, lang="es")`` makes a
signed-in person with a lobby socket open."""
