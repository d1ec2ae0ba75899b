"""The rate limits: requests per client, and live sockets open per player and
per address.

Requests are counted with the ``limits`` library, by its sliding window counter:
``burst`` requests in a window of ``burst / rate`` seconds (at least one), the
previous window's count weighing less as the window slides. A client may make
``burst`` requests at once, then about ``rate`` a second. The counts live in
this process's memory, or in Redis (``rate_store``) when several instances must
share one limit. In memory, at most ``max_clients`` clients are tracked: a new
one beyond that forgets the one seen least recently, never everyone.

A client is the player of a verified cookie (a forged one counts as none), else
the address it comes from (an IPv6 address by its ``/64`` network, what one
subscriber is usually given).

>>> window(20, 120), window(0.01, 5), window(100, 10)
((120, 6), (5, 500), (100, 1))
>>> address_key("2001:db8:1:2:3:4:5:6"), address_key("127.0.0.1"), address_key("testclient")
('2001:db8:1:2::/64', '127.0.0.1', 'testclient')
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections import OrderedDict, defaultdict
from typing import Any

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.storage import storage_from_string

log = logging.getLogger("espadas.server")

MAX_CLIENTS = 10_000
"""Clients tracked in memory at most (the storage's periodic sweep visits them all)."""
SWEEP_S = 1.0
"""The in-memory storage sweeps expired counts at most this often."""


class SweptMemoryStorage(MemoryStorage):
    """``limits``' memory storage, sweeping its expired counts at most once every
    :data:`SWEEP_S` seconds.

    The library starts a sweep over every key after each count once the previous
    sweep is done, so with thousands of clients every request paid for a visit of
    all of them (8 % of the server's loop at 2,000 people). Its schedule is the
    private ``__schedule_expiry`` (of the exact version pinned in the lock
    files); a count due to expire just waits for the next sweep, and a read of an
    expired count is still answered as expired (the storage checks expiry on
    read)."""

    def __init__(self) -> None:
        self._swept_at = -SWEEP_S
        super().__init__()

    async def _MemoryStorage__schedule_expiry(self) -> None:  # the library's hook
        moment = time.monotonic()
        if moment - self._swept_at < SWEEP_S:
            return
        self._swept_at = moment
        await super()._MemoryStorage__schedule_expiry()  # type: ignore[misc]


def window(rate: float, burst: float) -> tuple[int, int]:
    """``(requests, seconds)``: ``burst`` requests in ``burst / rate`` seconds,
    rounded to whole seconds (at least one; then at least ``rate`` requests)."""
    seconds = max(1, round(burst / rate))
    return max(1, round(max(burst, rate * seconds))), seconds


def address_key(host: str) -> str:
    """The key of a client address: an IPv6 address by its ``/64`` network."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def redis_storage(url: str) -> Storage:
    """The ``limits`` storage for ``redis://…`` (or ``rediss://``), through redis-py."""
    storage = storage_from_string(
        "async+" + url, implementation="redispy", key_prefix="espadas-limits"
    )
    assert isinstance(storage, Storage), storage
    return storage


class RateLimit:
    """Requests per client: :meth:`hit` counts one and says whether it is allowed.

    ``store`` is ``None`` (this process's memory) or a Redis URL. If Redis fails,
    the request is counted in memory instead (and the failure logged), so that a
    Redis outage neither takes the server down nor lifts the limits.
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        store: str | None = None,
        max_clients: int = MAX_CLIENTS,
    ) -> None:
        amount, seconds = window(rate, burst)
        self.item = RateLimitItemPerSecond(amount, seconds, namespace="espadas")
        self.memory = SlidingWindowCounterRateLimiter(SweptMemoryStorage())
        self.shared = (
            None if store is None else SlidingWindowCounterRateLimiter(redis_storage(store))
        )
        self.max_clients = max_clients
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._failed_at = 0.0

    async def hit(self, key: str) -> bool:
        """Counts a request of client ``key``: ``False`` when it is over the limit."""
        if self.shared is not None:
            try:
                return await self.shared.hit(self.item, key)
            except Exception:  # Redis unreachable: count here meanwhile
                if time.monotonic() - self._failed_at > 60:
                    self._failed_at = time.monotonic()
                    log.exception("the shared rate limit store failed: counting in memory")
        seen = self._seen
        if key in seen:
            seen.move_to_end(key)
        else:
            seen[key] = None
            while len(seen) > self.max_clients:
                oldest, _ = seen.popitem(last=False)
                await self.memory.clear(self.item, oldest)
        return await self.memory.hit(self.item, key)

    def tracked(self) -> int:
        """How many clients are counted in memory."""
        return len(self._seen)


class Sockets:
    """Live sockets open per player and per address, each up to its cap.

    >>> sockets = Sockets(per_player=1, per_address=2)
    >>> sockets.open("p1", "a"), sockets.open("p1", "a"), sockets.open(None, "a")
    (True, False, True)
    >>> sockets.open(None, "a")
    False
    >>> sockets.close("p1", "a"); sockets.open(None, "a")
    True
    """

    def __init__(self, per_player: int, per_address: int) -> None:
        self.per_player = per_player
        self.per_address = per_address
        self._players: defaultdict[str, int] = defaultdict(int)
        self._addresses: defaultdict[str, int] = defaultdict(int)

    def open(self, player: str | None, address: str) -> bool:
        """Counts a new socket, or ``False`` (nothing counted) if over a cap."""
        if self._addresses.get(address, 0) >= self.per_address:
            return False
        if player is not None and self._players.get(player, 0) >= self.per_player:
            return False
        self._addresses[address] += 1
        if player is not None:
            self._players[player] += 1
        return True

    def close(self, player: str | None, address: str) -> None:
        """Forgets a socket counted by :meth:`open`."""
        _drop(self._addresses, address)
        if player is not None:
            _drop(self._players, player)

    def sizes(self) -> dict[str, Any]:
        return {"players": len(self._players), "addresses": len(self._addresses)}


def _drop(counts: defaultdict[str, int], key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
