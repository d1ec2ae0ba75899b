"""Web Push endpoints are not any URL: only ``https`` endpoints
whose host has public addresses only are taken, at subscription time and again
at each sending (a name may resolve elsewhere by then); the push goes to the
address checked. The suite's own local push service is reachable only through
the test-only setting ``push_allow_private``."""

from __future__ import annotations

import base64
import ipaddress
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import given
from hypothesis import strategies as st

from espadas.tables.clock import FakeClock
from server_helpers import Client, running_server, settings_for

OPTIONS: dict[str, Any] = {"robot_workers": 0, "rate": 10_000, "burst": 10_000}
PUBLIC = "93.184.215.14"
"""A global unicast address (never contacted: the tests only resolve to it)."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def subscription(endpoint: str) -> dict[str, Any]:
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    keys = {"p256dh": b64url(point), "auth": b64url(bytes(range(16)))}
    return {"endpoint": endpoint, "expirationTime": None, "keys": keys}


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.05)
        self.port: int = self.sock.getsockname()[1]
        self.connections = 0
        self.requests: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            with conn:
                conn.settimeout(1)
                try:
                    self.requests.append(conn.recv(65536))
                    conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    port = Listener()
    try:
        yield port
    finally:
        port.close()


def signed_in(base: str, lang: str = "es") -> Client:
    client = Client(base, lang)
    client.sign_in("Luis")
    return client


REFUSED = [
    ("http://{public}/push/x", "push_https"),
    ("http://127.0.0.1:{port}/internal/x", "push_https"),
    ("https://127.0.0.1:{port}/internal/x", "push_private"),
    ("https://127.1.2.3/x", "push_private"),
    ("https://10.0.0.7/x", "push_private"),
    ("https://172.16.5.4/x", "push_private"),
    ("https://192.168.1.1/x", "push_private"),
    ("https://100.64.0.1/x", "push_private"),
    ("https://169.254.169.254/latest/meta-data", "push_private"),
    ("https://0.0.0.0/x", "push_private"),
    ("https://224.0.0.1/x", "push_private"),
    ("https://240.0.0.1/x", "push_private"),
    ("https://255.255.255.255/x", "push_private"),
    ("https://[::1]/x", "push_private"),
    ("https://[::]/x", "push_private"),
    ("https://[fe80::1]/x", "push_private"),
    ("https://[fd00::1]/x", "push_private"),
    ("https://[ff02::1]/x", "push_private"),
    ("https://[::ffff:127.0.0.1]/x", "push_private"),
    ("https://[::ffff:10.0.0.1]/x", "push_private"),
    ("https://2130706433/x", "push_private"),  # 127.0.0.1 written as a number
    ("https://0x7f.1/x", "push_private"),
    ("https://localhost/x", "push_private"),
    ("https://no-such-host.invalid/x", "push_unresolved"),
]


def test_non_public_or_plain_http_endpoints_are_refused_at_subscription(
    tmp_path: Path, listener: Listener
) -> None:
    with running_server(settings_for(tmp_path, **OPTIONS)) as base:
        luis, english = signed_in(base), signed_in(base, "en")
        for template, code in REFUSED:
            endpoint = template.format(public=PUBLIC, port=listener.port)
            for client in (luis, english):
                answer = client.request("POST", "/api/push/subscriptions", subscription(endpoint))
                assert answer.status_code == 422, (endpoint, answer.text)
                assert answer.json()["error"] == code, (endpoint, answer.text)
            texts = [
                c.request("POST", "/api/push/subscriptions", subscription(endpoint)).json()
                for c in (luis, english)
            ]
            assert texts[0]["message"] != texts[1]["message"]  # Spanish, English
        # literal public addresses need no resolving: taken (and not contacted now)
        for endpoint in (f"https://{PUBLIC}/push/x", "https://[2606:2800:21f:cb07::1]/push/y"):
            answer = luis.request("POST", "/api/push/subscriptions", subscription(endpoint))
            assert answer.status_code == 201, answer.text
    assert listener.connections == 0


def test_the_test_setting_alone_lets_the_local_push_service_through(
    tmp_path: Path, listener: Listener
) -> None:
    local = subscription(f"http://127.0.0.1:{listener.port}/push/luis")
    with running_server(settings_for(tmp_path, push_allow_private=True, **OPTIONS)) as base:
        answer = signed_in(base).request("POST", "/api/push/subscriptions", local)
        assert answer.status_code == 201, answer.text


def test_a_name_that_resolves_to_a_private_address_at_sending_is_not_contacted(
    tmp_path: Path, listener: Listener, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The endpoint's name resolves to a public address when Luis subscribes and to
    127.0.0.1 (our listener) when his turn notice is sent: nothing connects."""
    real = socket.getaddrinfo
    answer_with = [PUBLIC]
    asked: list[str] = []

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "push.example":
            asked.append(answer_with[0])
            return real(answer_with[0], port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    settings = settings_for(
        tmp_path,
        clock=FakeClock(),
        notice_delay=timedelta(0),
        notice_poll_s=0.05,
        **OPTIONS,
    )
    with running_server(settings) as base:
        ana, luis = Client(base), signed_in(base)
        ana.sign_in("Ana")
        table = ana.ok("POST", "/api/tables", {"target": 250, "renege": "prevented"})["id"]
        luis.ok("POST", f"/api/tables/{table}/join")
        ana.ok("POST", f"/api/tables/{table}/robots", {"level": "normal"})
        endpoint = f"https://push.example:{listener.port}/push/luis"
        luis.ok("POST", "/api/push/subscriptions", subscription(endpoint))
        answer_with[0] = "127.0.0.1"  # the name now points inside
        ana.ok("POST", f"/api/tables/{table}/start")  # Luis bids first: a turn notice
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and _open_notices(tmp_path / "espadas.db"):
            time.sleep(0.05)
        assert not _open_notices(tmp_path / "espadas.db")  # the turn notice was handled
        time.sleep(0.3)
    assert "127.0.0.1" in asked  # resolved again at sending
    assert listener.connections == 0


def _open_notices(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT count(*) FROM notices WHERE kind = 'turn' AND state IN ('pending', 'sending')"
        )
        count: int = rows.fetchone()[0]
    return count


def test_sending_resolves_again_and_connects_to_the_address_checked(
    tmp_path: Path, listener: Listener
) -> None:
    from espadas.server.push import Push, PushFailed, PushRefused, check_subscription

    inside: list[tuple[str, int]] = []

    def to_listener(host: str, port: int) -> list[str]:
        inside.append((host, port))
        return ["127.0.0.1"]

    sub = check_subscription(subscription(f"https://push.example:{listener.port}/p"))
    strict = Push.load(tmp_path, "mailto:a@example.org")
    strict.resolve = to_listener
    with pytest.raises(PushRefused) as refused:
        strict.send(sub, {"kind": "turn"})
    assert isinstance(refused.value, PushFailed) and refused.value.code == "push_private"
    assert inside == [("push.example", listener.port)]
    # the real resolver too: localhost is loopback
    local = check_subscription(subscription(f"https://localhost:{listener.port}/p"))
    with pytest.raises(PushRefused):
        Push.load(tmp_path, "mailto:a@example.org").send(local, {"kind": "turn"})
    assert listener.connections == 0
    # with the test setting, the push goes to the address resolved (not resolved
    # again by the HTTP client: push.example is nowhere), named push.example
    loose = Push.load(tmp_path, "mailto:a@example.org", allow_private=True)
    loose.resolve = to_listener
    plain = check_subscription(subscription(f"http://push.example:{listener.port}/p"), True)
    loose.send(plain, {"kind": "turn"})
    assert listener.connections == 1
    assert f"host: push.example:{listener.port}".encode() in listener.requests[0].lower()


SPECIAL_V4 = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
]
SPECIAL_V6 = [
    "::/128",
    "::1/128",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
    "2001:db8::/32",
]


@st.composite
def special_address(draw: st.DrawFn) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    net = ipaddress.ip_network(draw(st.sampled_from(SPECIAL_V4 + SPECIAL_V6)))
    address = net[draw(st.integers(0, net.num_addresses - 1))]
    if isinstance(address, ipaddress.IPv4Address) and draw(st.booleans()):
        return ipaddress.IPv6Address(f"::ffff:{address}")  # the same, IPv4-mapped
    return address


@given(special_address())
def test_no_special_purpose_address_is_public(
    address: ipaddress.IPv4Address | ipaddress.IPv6Address,
) -> None:
    from espadas.server.push import EndpointRefused, check_subscription, public_address

    assert not public_address(address)
    host = f"[{address}]" if address.version == 6 else str(address)
    with pytest.raises(EndpointRefused):
        check_subscription(subscription(f"https://{host}/push"))


@given(st.integers(0, 2**32 - 1))
def test_an_ipv4_address_is_public_only_outside_the_special_ranges(number: int) -> None:
    from espadas.server.push import public_address

    address = ipaddress.IPv4Address(number)
    special = any(address in ipaddress.ip_network(net) for net in SPECIAL_V4)
    assert public_address(address) == (not special and address.is_global)
    if not public_address(address):  # nor written as an IPv4-mapped IPv6 address
        assert not public_address(ipaddress.IPv6Address(f"::ffff:{address}"))
