"""Web Push for turn notices: VAPID keys, subscriptions and encrypted sends.

The server keeps one VAPID key pair in ``data_dir / "vapid.pem"`` (the private
key, PKCS#8 PEM, mode 0600), made on first use, so subscriptions made against
its public key survive restarts. A browser subscribes with that public key
(:meth:`Push.public_key`) and hands back a PushSubscription, which
:func:`check_subscription` validates before it is stored. :meth:`Push.send`
encrypts a JSON payload for one subscription (RFC 8291, ``aes128gcm``), signs a
VAPID JWT (RFC 8292) and POSTs it to the push service; it blocks (pywebpush
uses requests), so callers run it in a thread.

>>> check_subscription({"endpoint": "ftp://push.example/x", "keys": {}})
Traceback (most recent call last):
    ...
ValueError: subscription endpoint must be an http(s) URL
>>> good = {
...     "endpoint": "https://push.example/send/abc",
...     "expirationTime": None,
...     "keys": {
...         "p256dh": "BPtQOI8pSY0Kk60l7Ew0A3udPMPMpHh-tv7aviswA-rI"
...         "n3dlyp1iiOb_c09c0I86WSHPVLIbs5i1CsDSV3-gdHI",
...         "auth": "AAECAwQFBgcICQoLDA0ODw",
...     },
... }
>>> sorted(check_subscription(good)), sorted(check_subscription(good)["keys"])
(['endpoint', 'keys'], ['auth', 'p256dh'])
>>> check_subscription({**good, "keys": {**good["keys"], "auth": "AAEC"}})
Traceback (most recent call last):
    ...
ValueError: subscription auth must be 16 bytes
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid  # type: ignore[import-untyped]
from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

KEY_FILE = "vapid.pem"
MAX_ENDPOINT = 1000
# A push service takes at most 4096 bytes of body; aes128gcm spends 86 on its
# header (salt, record size, sender key) and 17 on the tag and delimiter.
MAX_PAYLOAD = 4096 - 86 - 17
TIMEOUT = 10.0  # seconds, for connect and for read
_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


class PushGone(Exception):
    """The push service says the subscription no longer exists (404 or 410): delete it."""


class PushFailed(Exception):
    """The push could not be delivered (network error, other 4xx or 5xx); maybe try later."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str, what: str) -> bytes:
    if not _B64URL.match(text):
        raise ValueError(f"subscription {what} must be base64url")
    stripped = text.rstrip("=")
    try:
        return base64.urlsafe_b64decode(stripped + "=" * (-len(stripped) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(f"subscription {what} must be base64url") from None


def check_subscription(data: object) -> dict[str, Any]:
    """Validate a browser's ``PushSubscription.toJSON()`` and return its clean form.

    The result is ``{"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}``
    with the keys unpadded base64url; anything else (``expirationTime``, ...) is
    dropped. Browsers always give an ``https://`` endpoint; ``http://`` is
    allowed too so that tests can run a push service locally. Raises
    ``ValueError`` saying what is wrong.
    """
    if not isinstance(data, dict):
        raise ValueError("subscription must be a JSON object")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str):
        raise ValueError("subscription endpoint must be a string")
    if len(endpoint) > MAX_ENDPOINT:
        raise ValueError(f"subscription endpoint is longer than {MAX_ENDPOINT} characters")
    if any(ch.isspace() or not ch.isprintable() for ch in endpoint):
        raise ValueError("subscription endpoint must not contain spaces or control characters")
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
    except ValueError:
        raise ValueError("subscription endpoint must be an http(s) URL") from None
    if parts.scheme not in ("https", "http") or not host:
        raise ValueError("subscription endpoint must be an http(s) URL")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise ValueError("subscription keys must be an object with p256dh and auth")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise ValueError("subscription keys p256dh and auth must be strings")
    point = _unb64url(p256dh, "p256dh")
    if len(point) != 65 or point[0] != 4:
        raise ValueError("subscription p256dh must be an uncompressed P-256 point (65 bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValueError("subscription p256dh is not a point on P-256") from None
    secret = _unb64url(auth, "auth")
    if len(secret) != 16:
        raise ValueError("subscription auth must be 16 bytes")
    return {"endpoint": endpoint, "keys": {"p256dh": _b64url(point), "auth": _b64url(secret)}}


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


class Push:
    """This server's VAPID identity, and the sending of pushes with it."""

    def __init__(self, vapid: Any, subject: str) -> None:
        self._vapid = vapid
        self.subject = subject

    @classmethod
    def load(cls, data_dir: Path, subject: str) -> Push:
        """Load the key pair from ``data_dir / "vapid.pem"``, making it on first use.

        ``subject`` is the VAPID contact, ``mailto:admin@example.org`` or an
        ``https://`` URL; push services may write to it about this server.
        """
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / KEY_FILE
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            vapid = Vapid()
            vapid.generate_keys()
            with os.fdopen(fd, "wb") as out:
                out.write(vapid.private_pem())
            return cls(vapid, subject)
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError(f"{path} does not hold a P-256 private key")
        return cls(Vapid(private_key=key), subject)

    def public_key(self) -> str:
        """The application server key for ``pushManager.subscribe``: base64url, no padding."""
        key: ec.EllipticCurvePublicKey = self._vapid.public_key
        return _b64url(
            key.public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def send(self, subscription: dict[str, Any], payload: dict[str, Any], ttl: int = 3600) -> None:
        """Encrypt ``payload`` as JSON for ``subscription`` and hand it to its push service.

        ``ttl`` is how many seconds the service may keep it for an offline
        browser. Raises ``PushGone`` on 404/410 (forget the subscription),
        ``PushFailed`` on any other failure, ``ValueError`` for a payload too
        large for one push.
        """
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        if len(data.encode("utf-8")) > MAX_PAYLOAD:
            raise ValueError(f"push payload is larger than {MAX_PAYLOAD} bytes")
        endpoint = str(subscription.get("endpoint", ""))
        claims = {"sub": self.subject, "aud": _origin(endpoint)}  # webpush adds "exp"
        try:
            webpush(
                subscription_info=subscription,
                data=data,
                vapid_private_key=self._vapid,
                vapid_claims=claims,
                content_encoding="aes128gcm",
                ttl=ttl,
                timeout=TIMEOUT,
            )
        except WebPushException as error:
            status = error.status_code
            if status in (404, 410):
                raise PushGone(f"push subscription is gone ({status})") from error
            raise PushFailed(f"push failed ({status}): {error.message}", status) from error
        except requests.RequestException as error:
            raise PushFailed(f"push service unreachable: {error}") from error
