"""Web Push against a real local push service: what arrives decrypts, and is signed."""

from __future__ import annotations

import base64
import json
import socket
import stat
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece  # type: ignore[import-untyped]
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from espadas.server.push import Push, PushFailed, PushGone, check_subscription

SUBJECT = "mailto:admin@example.org"
LOCAL = True
"""The test-only setting (``Settings.push_allow_private``, ``allow_private``) that lets
these tests' push service on 127.0.0.1, over plain http, be used at all."""
PAYLOAD = {"table": "t1", "kind": "turn", "title": "¡Tu turno!"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """A push service on 127.0.0.1: records each POST; answers by the path's last part."""

    port: int = 0
    received: list[Received] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Handler(BaseHTTPRequestHandler):
    service: PushService  # set on the subclass made per server

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.service.received.append(Received(self.path, headers, body))
        status = {"gone": 410, "missing": 404, "broken": 500, "slow-down": 429}.get(
            self.path.rsplit("/", 1)[-1], 201
        )
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[PushService]:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(name, raising=False)
    state = PushService()
    handler = type("BoundHandler", (Handler,), {"service": state})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class Browser:
    """What a browser keeps for one subscription, and what it hands the server."""

    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    subscription: dict[str, Any]

    @classmethod
    def subscribe(cls, endpoint: str) -> Browser:
        key = ec.generate_private_key(ec.SECP256R1())
        secret = bytes(range(16, 32))
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        sub = {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(secret)},
        }
        return cls(key, secret, sub)

    def decrypt(self, body: bytes) -> Any:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        assert isinstance(plain, bytes)
        return json.loads(plain.decode("utf-8"))


def test_send_delivers_an_encrypted_signed_push(tmp_path: Path, service: PushService) -> None:
    push = Push.load(tmp_path, SUBJECT, allow_private=LOCAL)
    browser = Browser.subscribe(f"{service.origin}/push/abc")
    sub = check_subscription(browser.subscription, LOCAL)
    before = int(time.time())

    push.send(sub, PAYLOAD)

    assert len(service.received) == 1
    got = service.received[0]
    assert got.path == "/push/abc"
    assert got.headers["content-encoding"] == "aes128gcm"
    assert got.headers["ttl"] == "3600"
    assert PAYLOAD["title"].encode("utf-8") not in got.body
    assert browser.decrypt(got.body) == PAYLOAD

    # RFC 8292: Authorization: vapid t=<JWT>, k=<public key>
    scheme, _, params = got.headers["authorization"].partition(" ")
    assert scheme.lower() == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == push.public_key()
    head64, claims64, sig64 = fields["t"].split(".")
    assert json.loads(unb64url(head64)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(unb64url(claims64))
    assert claims["aud"] == service.origin
    assert claims["sub"] == SUBJECT
    assert before < claims["exp"] <= before + 24 * 3600 + 5
    # The ES256 signature (raw r || s) verifies with the advertised key.
    raw = unb64url(sig64)
    assert len(raw) == 64
    signature = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    public.verify(signature, f"{head64}.{claims64}".encode(), ec.ECDSA(hashes.SHA256()))


def test_ttl_is_passed_on(tmp_path: Path, service: PushService) -> None:
    push = Push.load(tmp_path, SUBJECT, allow_private=LOCAL)
    browser = Browser.subscribe(f"{service.origin}/push/ttl")
    push.send(check_subscription(browser.subscription, LOCAL), {"kind": "turn"}, ttl=60)
    assert service.received[0].headers["ttl"] == "60"
    assert browser.decrypt(service.received[0].body) == {"kind": "turn"}


def test_keys_persist_and_are_private(tmp_path: Path) -> None:
    first = Push.load(tmp_path / "data", SUBJECT)
    pem = tmp_path / "data" / "vapid.pem"
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    assert pem.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    second = Push.load(tmp_path / "data", SUBJECT)
    assert second.public_key() == first.public_key()
    key = unb64url(first.public_key())
    assert len(key) == 65 and key[0] == 4
    assert "=" not in first.public_key()
    assert Push.load(tmp_path / "other", SUBJECT).public_key() != first.public_key()


def test_loose_key_file_is_tightened(tmp_path: Path) -> None:
    first = Push.load(tmp_path, SUBJECT)
    pem = tmp_path / "vapid.pem"
    pem.chmod(0o644)
    assert Push.load(tmp_path, SUBJECT).public_key() == first.public_key()
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600


@pytest.mark.parametrize("last", ["gone", "missing"])
def test_dead_subscription_raises_push_gone(
    tmp_path: Path, service: PushService, last: str
) -> None:
    browser = Browser.subscribe(f"{service.origin}/push/{last}")
    with pytest.raises(PushGone):
        Push.load(tmp_path, SUBJECT, allow_private=LOCAL).send(
            check_subscription(browser.subscription, LOCAL), PAYLOAD
        )
    assert len(service.received) == 1


@pytest.mark.parametrize(("last", "status"), [("broken", 500), ("slow-down", 429)])
def test_service_error_raises_push_failed(
    tmp_path: Path, service: PushService, last: str, status: int
) -> None:
    browser = Browser.subscribe(f"{service.origin}/push/{last}")
    with pytest.raises(PushFailed) as caught:
        Push.load(tmp_path, SUBJECT, allow_private=LOCAL).send(
            check_subscription(browser.subscription, LOCAL), PAYLOAD
        )
    assert not isinstance(caught.value, PushGone)
    assert caught.value.status == status


def test_unreachable_service_raises_push_failed(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    browser = Browser.subscribe(f"http://127.0.0.1:{port}/push/abc")
    with pytest.raises(PushFailed) as caught:
        Push.load(tmp_path, SUBJECT, allow_private=LOCAL).send(
            check_subscription(browser.subscription, LOCAL), PAYLOAD
        )
    assert caught.value.status is None


def test_oversized_payload_is_refused(tmp_path: Path, service: PushService) -> None:
    browser = Browser.subscribe(f"{service.origin}/push/abc")
    with pytest.raises(ValueError, match="larger than"):
        Push.load(tmp_path, SUBJECT, allow_private=LOCAL).send(
            check_subscription(browser.subscription, LOCAL), {"body": "x" * 5000}
        )
    assert service.received == []


def test_check_subscription_accepts_and_cleans() -> None:
    browser = Browser.subscribe("https://fcm.googleapis.com/fcm/send/abc:def")
    raw = browser.subscription
    assert check_subscription(raw) == {"endpoint": raw["endpoint"], "keys": raw["keys"]}
    padded = {
        **raw,
        "extra": 1,
        "keys": {k: v + "=" * (-len(v) % 4) for k, v in raw["keys"].items()},
    }
    assert check_subscription(padded) == {"endpoint": raw["endpoint"], "keys": raw["keys"]}
    local = {**raw, "endpoint": "http://127.0.0.1:8/p"}
    assert check_subscription(local, LOCAL)["endpoint"] == "http://127.0.0.1:8/p"
    with pytest.raises(ValueError, match="https"):
        check_subscription(local)  # only the test setting lets it through


def _with_keys(base: dict[str, Any], **keys: object) -> dict[str, Any]:
    return {**base, "keys": {**base["keys"], **keys}}


def test_check_subscription_refuses_bad_ones() -> None:
    good = Browser.subscribe("https://push.example/abc").subscription
    bad: list[object] = [
        None,
        [good],
        "https://push.example/abc",
        {k: v for k, v in good.items() if k != "endpoint"},
        {**good, "endpoint": 42},
        {**good, "endpoint": "ftp://push.example/abc"},
        {**good, "endpoint": "javascript:alert(1)"},
        {**good, "endpoint": "https:///no-host"},
        {**good, "endpoint": "https://push.example/a b"},
        {**good, "endpoint": "https://push.example/a\nb"},
        {**good, "endpoint": "https://push.example/" + "a" * 1000},
        {k: v for k, v in good.items() if k != "keys"},
        {**good, "keys": "p256dh"},
        {**good, "keys": {"p256dh": good["keys"]["p256dh"]}},
        _with_keys(good, auth=None),
        _with_keys(good, auth="not base64!"),
        _with_keys(good, auth=b64url(bytes(15))),
        _with_keys(good, auth=b64url(bytes(17))),
        _with_keys(good, p256dh="+/+/"),
        _with_keys(good, p256dh=b64url(bytes(65))),  # right length, not a point
        _with_keys(good, p256dh=b64url(b"\x04" + bytes(64))),  # not on the curve
        _with_keys(good, p256dh=b64url(unb64url(good["keys"]["p256dh"])[:33])),
    ]
    for data in bad:
        with pytest.raises(ValueError, match="subscription"):
            check_subscription(data)
