"""A lean keep-alive HTTP/1.1 client for the load generators' requests.

``espadas loadtest --via http`` sends about 200 actions a second from one
process that also reads every person's WebSocket. Through httpx each request
cost the generator about 4 ms of processor time on a 2-core machine (its
layers, and a failed ``import sniffio`` on every request), more than the
server spent answering it: the generator, not the server, became what the test
measured. This client keeps a few connections open and speaks only what the
test needs: a request with or without a JSON body (``POST``, ``GET``,
``DELETE``), and an answer with a ``Content-Length`` (as Espadas's server always
sends), whose headers are kept (the lobby benchmark reads the sign-in's
cookies from them). Anything else is an :class:`HttpError`.

>>> reply = Reply(200, b'{"version": 3}')
>>> reply.json()["version"], reply.text
(3, '{"version": 3}')
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlsplit


class HttpError(ConnectionError):
    """The server's answer is not one this client reads, or the connection broke."""


class Reply:
    """A status code, a body and the headers (names in lower case)."""

    __slots__ = ("body", "headers", "status_code")

    def __init__(
        self, status_code: int, body: bytes, headers: list[tuple[str, str]] | None = None
    ) -> None:
        self.status_code = status_code
        self.body = body
        self.headers = headers or []

    def cookies(self) -> dict[str, str]:
        """The cookies the answer sets (``Set-Cookie``: each name and value).

        >>> Reply(200, b"", [("set-cookie", "a=1; Path=/; HttpOnly")]).cookies()
        {'a': '1'}
        """
        out = {}
        for name, value in self.headers:
            if name == "set-cookie":
                key, _, rest = value.partition("=")
                out[key.strip()] = rest.split(";", 1)[0].strip()
        return out

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self) -> Any:
        return json.loads(self.body)


Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]

IDLE_SECONDS = 3.0
"""A connection idle this long is closed rather than reused: servers close idle
connections (uvicorn after 5 s), and a request must not meet such a close."""


class Stale(Exception):
    """A kept connection was closed before the request reached the server."""


class ConnectionPool:
    """Up to ``size`` open connections to one server, reused request after
    request. A request is sent again on a new connection only when the kept one
    was closed before any answer began (how a server ends an idle connection;
    connections idle for :data:`IDLE_SECONDS` are not reused, so this is rare)."""

    def __init__(self, base: str, size: int = 100) -> None:
        url = urlsplit(base)
        if url.scheme != "http" or url.hostname is None:
            raise ValueError(f"{base!r}: only http:// addresses are supported")
        self.host = url.hostname
        self.port = url.port or 80
        self.authority = url.netloc
        self._idle: list[tuple[Connection, float]] = []
        self._slots = asyncio.Semaphore(size)

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> Reply:
        """``POST path`` with ``body`` (JSON) and ``headers``."""
        return await self.request("POST", path, body, headers)

    async def request(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> Reply:
        """``METHOD path`` with ``headers``, and ``body`` unless it is None."""
        head = [f"{method} {path} HTTP/1.1", f"host: {self.authority}"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None:
            head.append(f"content-length: {len(body)}")
        body = body or b""
        request = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        loop = asyncio.get_running_loop()
        async with self._slots:
            conn = self._kept(loop.time())
            if conn is not None:
                try:
                    return self._keep(conn, await self._exchange(conn, request), loop.time())
                except Stale:
                    conn[1].close()  # closed by the server while idle: a new one
                except BaseException:
                    conn[1].close()
                    raise
            conn = await asyncio.open_connection(self.host, self.port)
            try:
                return self._keep(conn, await self._exchange(conn, request), loop.time())
            except Stale as e:
                conn[1].close()
                raise HttpError("the server closed a new connection at once") from e
            except BaseException:
                conn[1].close()
                raise

    def _kept(self, now: float) -> Connection | None:
        while self._idle:
            conn, since = self._idle.pop()
            if now - since < IDLE_SECONDS and not conn[0].at_eof():
                return conn
            conn[1].close()
        return None

    def _keep(self, conn: Connection, answer: tuple[Reply, bool], now: float) -> Reply:
        reply, keep = answer
        if keep:
            self._idle.append((conn, now))
        else:
            conn[1].close()
        return reply

    async def _exchange(self, conn: Connection, request: bytes) -> tuple[Reply, bool]:
        reader, writer = conn
        try:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as e:
            if not e.partial:
                raise Stale() from e  # closed before any answer: how an idle connection ends
            raise HttpError("the connection closed in the middle of an answer") from e
        except ConnectionResetError as e:
            raise Stale() from e
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise HttpError(f"not an HTTP/1.1 status line: {lines[0]!r}")
        length: int | None = None
        keep = True
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name:
                headers.append((name, value.strip()))
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding":
                raise HttpError("a chunked answer: only Content-Length is read")
            elif name == "connection" and value.strip().lower() == "close":
                keep = False
        if length is None:
            raise HttpError("an answer without Content-Length")
        try:
            body = await reader.readexactly(length)
        except asyncio.IncompleteReadError as e:
            raise HttpError("the connection closed in the middle of an answer") from e
        return Reply(int(parts[1]), body, headers), keep

    async def close(self) -> None:
        """Closes the idle connections."""
        while self._idle:
            self._idle.pop()[0][1].close()
