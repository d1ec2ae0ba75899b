"""A real server on a free port (uvicorn in a thread) and an HTTP client that
keeps its cookies and sends the CSRF token, for the server tests."""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from espadas.server.app import create_app
from espadas.server.settings import Settings

PG_URL = os.environ.get("ESPADAS_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(settings: Settings) -> Iterator[str]:
    """Serves ``create_app(settings)`` on 127.0.0.1 until the block ends."""
    port = free_port()
    config = uvicorn.Config(
        create_app(settings),
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


class Client:
    """One person's browser: cookies kept, CSRF header sent, JSON in and out."""

    def __init__(self, base: str, lang: str = "es") -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=60, headers={"accept-language": lang})
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
    return Settings(data=tmp, db=db, secret="test-secret-" + "x" * 20, **kw)
