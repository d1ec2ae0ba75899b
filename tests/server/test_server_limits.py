"""The rate limits and the live socket caps: keyed on who a client really is
(its verified player, else its address), shared by instances on Redis, and a
full table of clients forgets the oldest only."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from espadas.server.identity import Identity
from espadas.server.limiter import MAX_CLIENTS, RateLimit
from server_helpers import Client, running_server, settings_for


def forged_cookie() -> str:
    """A player cookie the server did not sign: random, or signed with another key."""
    if secrets.randbelow(2):
        value = Identity(secrets.token_hex(16)).sign(secrets.token_hex(8), secrets.token_hex(8))
    else:
        value = f"{secrets.token_urlsafe(12)}.{secrets.token_urlsafe(27)}"
    return f"espadas_player={value}; espadas_csrf=t"


def test_forged_cookies_do_not_escape_the_limit(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, robot_workers=0, rate=0.01, burst=5)
    with running_server(settings) as url:
        statuses = [
            httpx.get(url + "/api/session", headers={"cookie": forged_cookie()}).status_code
            for _ in range(10)
        ]
        # a handshake is a request too: accepted and closed at once
        handshake = live(url, "A" * 32, forged_cookie())
        assert not opened(handshake, "too_many")
    assert statuses == [200] * 5 + [429] * 5


def test_sessions_are_limited_per_address(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, robot_workers=0, rate=0.01, burst=6)
    with running_server(settings) as url:
        ana = Client(url)
        ana.sign_in("Ana")
        # with a genuine cookie, a new session still counts for the address
        statuses = [ana.request("POST", "/api/session", {"name": "Ana"}).status_code]
        for _ in range(6):
            forged = httpx.post(
                url + "/api/session",
                json={"name": "Bot"},
                headers={"cookie": forged_cookie(), "x-csrf-token": "t"},
            )
            statuses.append(forged.status_code)
        assert statuses == [200] * 5 + [429] * 2
        body = forged.json()
        assert body["error"] == "too_many" and body["message"]
        # the address is spent; Ana's own requests are counted for her
        assert ana.request("GET", "/api/session").status_code == 200


def live(url: str, table: str, cookie: str = "") -> ClientConnection:
    address = url.replace("http://", "ws://") + f"/api/tables/{table}/live"
    headers = {"Cookie": cookie} if cookie else {}
    return connect(address, additional_headers=headers, legacy=True)


def opened(socket: ClientConnection, reason: str = "too_many_sockets") -> bool:
    """True when the socket gets its first view; False when it is closed at once
    as over a limit (code 4429 and ``reason``)."""
    try:
        socket.recv(timeout=10)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, closed
        assert (closed.rcvd.code, closed.rcvd.reason) == (4429, reason)
        return False
    return True


def test_sockets_over_the_caps_are_refused(base: str) -> None:
    """By default a player keeps 20 live sockets open and an address 50."""
    ana = Client(base)
    ana.sign_in("Ana")
    tid = ana.ok("POST", "/api/tables", {"target": 250})["id"]
    sockets: list[ClientConnection] = []
    try:
        results = []
        for _ in range(21):
            sockets.append(live(base, tid, ana.cookie_header()))
            results.append(opened(sockets[-1]))
        assert results == [True] * 20 + [False]
        anonymous = []
        for _ in range(31):  # the address has 20 of Ana's already
            sockets.append(live(base, tid))
            anonymous.append(opened(sockets[-1]))
        assert anonymous == [True] * 30 + [False]
        sockets[0].close()  # one of Ana's closes: she may open one again
        sockets.append(live(base, tid, ana.cookie_header()))
        deadline = 50
        while not opened(sockets[-1]) and deadline:  # the close may take a moment
            deadline -= 1
            sockets.append(live(base, tid, ana.cookie_header()))
        assert deadline, "no socket after closing one"
    finally:
        for one in sockets:
            one.close()


def test_a_full_table_forgets_the_oldest_clients_only() -> None:
    """A client over its limit stays over it however many other clients come."""

    async def run() -> None:
        # a window of 2,000,000 s: the sliding window weighs the previous window's
        # count less as time goes on, and floors it, so just past a window's
        # boundary (200 s apart with rate 0.01) Ana would have a request again
        limit = RateLimit(rate=1e-6, burst=2)
        assert [await limit.hit("ana") for _ in range(3)] == [True, True, False]
        for n in range(MAX_CLIENTS * 2):
            assert await limit.hit(f"visitor {n}")
            if n % 1000 == 0:
                assert not await limit.hit("ana"), n
        assert not await limit.hit("ana")
        assert limit.tracked() == MAX_CLIENTS
        # the oldest visitors were forgotten: they start afresh
        assert await limit.hit("visitor 1") and await limit.hit("visitor 1")

    asyncio.run(run())


def test_instances_share_the_limit_on_redis(redis_url: str) -> None:
    async def run() -> None:
        key = "player:" + secrets.token_hex(8)
        one, two = RateLimit(0.01, 5, redis_url), RateLimit(0.01, 5, redis_url)
        results = [await (one if n % 2 else two).hit(key) for n in range(8)]
        assert results == [True] * 5 + [False] * 3
        assert one.tracked() == two.tracked() == 0  # counted in Redis, not here

    asyncio.run(run())


def test_two_servers_on_one_redis_count_together(tmp_path: Path, redis_url: str) -> None:
    options: dict[str, Any] = {"robot_workers": 0, "rate": 0.01, "burst": 6}
    first = settings_for(tmp_path / "1", rate_store=redis_url, **options)
    second = settings_for(tmp_path / "2", rate_store=redis_url, **options)
    _forget_address(redis_url)
    with running_server(first) as one, running_server(second) as two:
        ana = Client(one)
        ana.sign_in("Ana")  # counted for the address; what follows for Ana
        cookie = {"cookie": ana.cookie_header()}
        statuses = [
            httpx.get((one, two)[n % 2] + "/api/session", headers=cookie).status_code
            for n in range(8)
        ]
    assert statuses == [200] * 6 + [429] * 2


def _forget_address(url: str) -> None:
    """Drops what earlier runs counted for this machine's address in Redis."""
    import redis

    client = redis.Redis.from_url(url)
    for key in client.scan_iter("espadas-limits*address:127.0.0.1*"):
        client.delete(key)
    client.close()


def test_an_unreachable_redis_falls_back_to_memory(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> list[bool]:
        limit = RateLimit(0.01, 2, "redis://127.0.0.1:1/0")
        return [await limit.hit("ana") for _ in range(3)]

    assert asyncio.run(run()) == [True, True, False]
    assert "counting in memory" in caplog.text


def test_the_memory_storage_sweeps_at_most_once_a_second() -> None:
    """limits' memory storage swept every key after every count once the sweep
    before was done; ours sweeps at most once a SWEEP_S, and still forgets
    expired counts (on read at once, from memory at the next sweep)."""
    from espadas.server import limiter

    sweeps = 0

    class Counting(limiter.SweptMemoryStorage):
        async def _MemoryStorage__expire_events(self) -> None:
            nonlocal sweeps
            sweeps += 1
            await super()._MemoryStorage__expire_events()  # type: ignore[misc]

    async def scenario() -> tuple[int, int, int, int]:
        storage = Counting()
        for i in range(2_000):
            await storage.incr(f"k{i % 500}", 1)
        await asyncio.sleep(0)
        counted = await storage.get("k7")
        first = sweeps
        await asyncio.sleep(1.1)  # every count expired, the next sweep is due
        expired = await storage.get("k8")
        await storage.incr("other", 60)
        await asyncio.sleep(0.05)
        return counted, first, expired, len(storage.storage)

    counted, first, expired, left = asyncio.run(scenario())
    assert counted == 4  # 2,000 counts over 500 keys
    assert first == 1  # one sweep for 2,000 counts (the library: about 2,000)
    assert expired == 0
    assert left == 1  # the second sweep dropped the 499 expired keys; "other" stays
    assert sweeps == 2
