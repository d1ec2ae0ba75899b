"""The load generator's keep-alive HTTP client, against real TCP servers: a
real Espadas server, and small asyncio servers that misbehave on purpose."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from espadas.cli import http_pool
from espadas.cli.http_pool import ConnectionPool, HttpError
from server_helpers import running_server, settings_for

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def _answer(body: bytes, extra: str = "") -> bytes:
    return (
        f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n{extra}"
        f"content-length: {len(body)}\r\n\r\n"
    ).encode() + body


async def _request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    return await reader.readexactly(length)


async def _with_server(handler: Handler, run: Callable[[str], Awaitable[None]]) -> None:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        await run(f"http://127.0.0.1:{port}")
    finally:
        server.close()
        await server.wait_closed()


def test_posts_to_a_real_server_reusing_one_connection(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, robot_workers=0, rate=1000, burst=100_000)
    with running_server(settings) as url:

        async def run() -> list[int]:
            pool = ConnectionPool(url)
            statuses = []
            for name in ("Ana", "Beto", "Carla"):
                body = json.dumps({"name": name}).encode()
                reply = await pool.post("/api/session", body, {"content-type": "application/json"})
                statuses.append(reply.status_code)
                assert reply.json()["name"] == name
            assert len(pool._idle) == 1  # the three went over one connection
            refused = await pool.post("/api/session", b"{}", {"content-type": "application/json"})
            statuses.append(refused.status_code)
            await pool.close()
            return statuses

        assert asyncio.run(run()) == [200, 200, 200, 422]


def test_a_connection_closed_while_idle_is_replaced() -> None:
    connections = []

    async def once_then_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)
        body = await _request(reader)
        writer.write(_answer(body))  # echo, then close without saying so
        await writer.drain()
        writer.close()

    async def run(base: str) -> None:
        pool = ConnectionPool(base)
        for n in range(3):
            reply = await pool.post("/x", f'{{"n": {n}}}'.encode(), {})
            assert reply.json() == {"n": n}
        assert len(connections) == 3

    asyncio.run(_with_server(once_then_close, run))


def test_an_old_idle_connection_is_not_reused(monkeypatch: pytest.MonkeyPatch) -> None:
    connections = []

    async def keep(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)
        while True:
            try:
                body = await _request(reader)
            except asyncio.IncompleteReadError:
                return
            writer.write(_answer(body))
            await writer.drain()

    async def run(base: str) -> None:
        pool = ConnectionPool(base)
        await pool.post("/x", b"{}", {})
        await pool.post("/x", b"{}", {})
        assert len(connections) == 1
        monkeypatch.setattr(http_pool, "IDLE_SECONDS", 0.0)
        await pool.post("/x", b"{}", {})
        assert len(connections) == 2
        await pool.close()

    asyncio.run(_with_server(keep, run))


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "chunked"),
        (b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n{}", "Content-Length"),
        (b"SMTP ready\r\n\r\n", "status line"),
        (b"HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{}", "in the middle"),
    ],
)
def test_answers_it_cannot_read_are_errors_and_not_sent_again(answer: bytes, message: str) -> None:
    requests = []

    async def bad(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        requests.append(await _request(reader))
        writer.write(answer)
        await writer.drain()
        writer.close()

    async def run(base: str) -> None:
        pool = ConnectionPool(base)
        with pytest.raises(HttpError) as caught:
            await pool.post("/x", b'{"a": 1}', {})
        assert message in str(caught.value)

    asyncio.run(_with_server(bad, run))
    assert requests == [b'{"a": 1}']  # the server may have acted: never sent twice


def test_only_http_addresses() -> None:
    with pytest.raises(ValueError, match="only http://"):
        ConnectionPool("https://example.org")
