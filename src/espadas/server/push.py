"""Web Push for turn notices: VAPID keys, subscriptions and encrypted sends.

The server keeps one VAPID key pair in ``data_dir / "vapid.pem"`` (the private
key, PKCS#8 PEM, mode 0600), made on first use, so subscriptions made against
its public key survive restarts. A browser subscribes with that public key
(:meth:`Push.public_key`) and hands back a PushSubscription, which
:func:`check_subscription` validates before it is stored. :meth:`Push.send`
encrypts a JSON payload for one subscription (RFC 8291, ``aes128gcm``), signs a
VAPID JWT (RFC 8292) and POSTs it to the push service; it blocks (pywebpush
uses requests), so callers run it in a thread.

The server POSTs wherever a subscription says, so an endpoint must be an
``https://`` URL whose host has only public addresses (:func:`public_address`:
no loopback, private, shared, link-local, multicast, reserved or unspecified
address, nor one of those inside an IPv6 address). :func:`check_subscription`
refuses the others when it can tell from the URL alone, and
:func:`endpoint_address` resolves the name: at subscription time, and again at
each sending, since what a name resolves to may change. The push is then sent
to the address checked (the connection is pinned to it; the name is still used
for TLS), so a name that resolves elsewhere a moment later is not followed.
Only a test setting (``Settings.push_allow_private``) lets the tests' own push
service on loopback (plain ``http://``) through.

>>> check_subscription({"endpoint": "ftp://push.example/x", "keys": {}})
Traceback (most recent call last):
    ...
espadas.server.push.EndpointRefused: subscription endpoint must be an https URL
>>> check_subscription({"endpoint": "https://169.254.169.254/latest", "keys": {}})
Traceback (most recent call last):
    ...
espadas.server.push.EndpointRefused: subscription endpoint 169.254.169.254 is not a public address
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
import ipaddress
import json
import os
import re
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid  # type: ignore[import-untyped]
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util.connection import create_connection

KEY_FILE = "vapid.pem"
MAX_ENDPOINT = 1000
# A push service takes at most 4096 bytes of body; aes128gcm spends 86 on its
# header (salt, record size, sender key) and 17 on the tag and delimiter.
MAX_PAYLOAD = 4096 - 86 - 17
TIMEOUT = 10.0  # seconds, for connect and for read
_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")


Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]
"""Resolves a host name and port to its addresses (text)."""
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
"""IPv6 addresses that stand for an IPv4 address (RFC 6052), checked as that address."""
DENIED = tuple(
    ipaddress.ip_network(net)
    for net in (
        "0.0.0.0/8",
        "100.64.0.0/10",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "2001:db8::/32",
        "64:ff9b:1::/48",
    )
)
"""Special-purpose ranges (RFC 6890 and later) refused besides what the
:mod:`ipaddress` module calls non-global, whatever its version says about them."""


class EndpointRefused(ValueError):
    """A subscription's endpoint the server will not contact; ``code`` names why
    (a catalog key ``api.CODE``) and ``host`` is the host it names."""

    def __init__(self, code: str, message: str, host: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.host = host[:100]


def public_address(address: Address) -> bool:
    """Whether a push may go to ``address``: a global unicast address, and for an
    IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4, Teredo), that
    one too.

    >>> [public_address(ipaddress.ip_address(a)) for a in ("8.8.8.8", "2001:4860::8888")]
    [True, True]
    >>> texts = ("127.0.0.1", "10.1.2.3", "100.64.0.1", "169.254.169.254", "224.0.0.1",
    ...          "240.0.0.1", "0.0.0.0", "::1", "fe80::1", "fc00::1", "ff02::1", "::",
    ...          "::ffff:127.0.0.1", "64:ff9b::a00:1", "2002:c0a8:101::1")
    >>> [a for a in texts if public_address(ipaddress.ip_address(a))]
    []
    """
    if isinstance(address, ipaddress.IPv6Address):
        inner: ipaddress.IPv4Address | None = address.ipv4_mapped or address.sixtofour
        if address.teredo is not None:
            inner = address.teredo[1]
        if address in NAT64:
            inner = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if inner is not None and not public_address(inner):
            return False
        if address.is_site_local:
            return False
    special = (
        address.is_private,
        address.is_loopback,
        address.is_link_local,
        address.is_multicast,
        address.is_reserved,
        address.is_unspecified,
    )
    denied = any(address in net for net in DENIED if net.version == address.version)
    return address.is_global and not any(special) and not denied


def _literal(host: str) -> Address | None:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def system_resolver(host: str, port: int) -> list[str]:
    """The addresses of ``host`` from the system's resolver (``getaddrinfo``)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def endpoint_address(
    endpoint: str, allow_private: bool = False, resolve: Resolver = system_resolver
) -> str:
    """The address to send a push for ``endpoint`` to: its host resolved, every
    address it has checked with :func:`public_address` (one bad address refuses
    it: a client may be led to any of them). Raises :class:`EndpointRefused`
    (``push_unresolved``, ``push_private``). ``allow_private``: the test setting.

    >>> endpoint_address("https://push.example/x", resolve=lambda h, p: ["93.184.215.14"])
    '93.184.215.14'
    >>> two = lambda host, port: ["93.184.215.14", "10.1.2.3"]
    >>> endpoint_address("https://push.example/x", resolve=two)
    Traceback (most recent call last):
        ...
    espadas.server.push.EndpointRefused: subscription endpoint push.example is not a public address
    """
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = [ipaddress.ip_address(a.split("%", 1)[0]) for a in resolve(host, port)]
    except (OSError, UnicodeError, ValueError):
        addresses = []
    if not addresses:
        raise EndpointRefused(
            "push_unresolved", f"subscription endpoint {host} does not resolve", host
        )
    if not allow_private and not all(public_address(a) for a in addresses):
        raise EndpointRefused(
            "push_private", f"subscription endpoint {host} is not a public address", host
        )
    return str(addresses[0])


class PushGone(Exception):
    """The push service says the subscription no longer exists (404 or 410): delete it."""


class PushFailed(Exception):
    """The push could not be delivered (network error, other 4xx or 5xx); maybe try later."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class PushRefused(PushFailed):
    """The endpoint resolves (now) to an address the server does not contact: it was
    not contacted. ``code`` as in :class:`EndpointRefused`."""

    def __init__(self, refused: EndpointRefused) -> None:
        super().__init__(f"push not sent: {refused}")
        self.code = refused.code


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


def check_subscription(data: object, allow_private: bool = False) -> dict[str, Any]:
    """Validate a browser's ``PushSubscription.toJSON()`` and return its clean form.

    The result is ``{"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}``
    with the keys unpadded base64url; anything else (``expirationTime``, ...) is
    dropped. Browsers always give an ``https://`` endpoint; one that is not, or
    that names a non-public address, raises :class:`EndpointRefused` (a host
    name is resolved apart, by :func:`endpoint_address`). ``allow_private`` (the
    test setting) lets ``http://`` and any address through. Raises
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
    schemes = ("https", "http") if allow_private else ("https",)
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname
        _ = parts.port
    except ValueError:
        raise EndpointRefused("push_https", "subscription endpoint must be an https URL") from None
    if parts.scheme not in schemes or not host:
        raise EndpointRefused("push_https", "subscription endpoint must be an https URL")
    literal = _literal(host)
    if literal is not None and not allow_private and not public_address(literal):
        raise EndpointRefused(
            "push_private", f"subscription endpoint {host} is not a public address", host
        )
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


class PinnedAdapter(HTTPAdapter):
    """Connects to ``address`` whatever the URL's host resolves to, the host still
    used for the ``Host`` header, TLS's server name and the certificate check:
    the address checked is the address contacted."""

    def __init__(self, address: str) -> None:
        super().__init__(max_retries=0)
        self.address = address

    def get_connection_with_tls_context(self, *args: Any, **kwargs: Any) -> Any:
        pool = super().get_connection_with_tls_context(*args, **kwargs)
        pool.ConnectionCls = _pinned(pool.ConnectionCls, self.address)  # type: ignore[arg-type]
        return pool


def _pinned(base: type[HTTPConnection], address: str) -> type[HTTPConnection]:
    class Pinned(base):  # type: ignore[valid-type,misc]
        def _new_conn(self) -> socket.socket:
            try:
                return create_connection(
                    (address, self.port),
                    self.timeout,
                    source_address=self.source_address,
                    socket_options=self.socket_options,
                )
            except TimeoutError as exc:
                raise ConnectTimeoutError(self, f"connecting to {address} timed out") from exc
            except OSError as exc:
                raise NewConnectionError(self, f"cannot connect to {address}: {exc}") from exc

    return Pinned


def _origin(endpoint: str) -> str:
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


class Push:
    """This server's VAPID identity, and the sending of pushes with it."""

    def __init__(
        self,
        vapid: Any,
        subject: str,
        allow_private: bool = False,
        resolve: Resolver = system_resolver,
    ) -> None:
        self._vapid = vapid
        self.subject = subject
        self.allow_private = allow_private
        """The test setting: pushes to loopback and private addresses, over http too."""
        self.resolve = resolve

    @classmethod
    def load(cls, data_dir: Path, subject: str, allow_private: bool = False) -> Push:
        """Load the key pair from ``data_dir / "vapid.pem"``, making it on first use.

        ``subject`` is the VAPID contact, ``mailto:admin@example.org`` or an
        ``https://`` URL; push services may write to it about this server.
        ``allow_private`` is the test setting (``Settings.push_allow_private``).
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
            return cls(vapid, subject, allow_private)
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError(f"{path} does not hold a P-256 private key")
        return cls(Vapid(private_key=key), subject, allow_private)

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
        large for one push. The endpoint is checked and resolved again first
        (:func:`check_subscription`, :func:`endpoint_address`): one that is
        refused now raises :class:`PushRefused` and nothing is contacted.
        """
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        if len(data.encode("utf-8")) > MAX_PAYLOAD:
            raise ValueError(f"push payload is larger than {MAX_PAYLOAD} bytes")
        endpoint = str(subscription.get("endpoint", ""))
        try:
            check_subscription(subscription, self.allow_private)
            address = endpoint_address(endpoint, self.allow_private, self.resolve)
        except EndpointRefused as refused:
            raise PushRefused(refused) from refused
        claims = {"sub": self.subject, "aud": _origin(endpoint)}  # webpush adds "exp"
        # imported at the first notice, not with the server: pywebpush brings aiohttp,
        # about 0.18 s of every start of `espadas serve`
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

        session = requests.Session()
        session.trust_env = False  # no proxy from the environment: it would resolve anew
        session.mount("https://", PinnedAdapter(address))
        session.mount("http://", PinnedAdapter(address))
        try:
            webpush(
                subscription_info=subscription,
                data=data,
                vapid_private_key=self._vapid,
                vapid_claims=claims,
                content_encoding="aes128gcm",
                ttl=ttl,
                timeout=TIMEOUT,
                requests_session=session,
            )
        except WebPushException as error:
            status = error.status_code
            if status in (404, 410):
                raise PushGone(f"push subscription is gone ({status})") from error
            raise PushFailed(f"push failed ({status}): {error.message}", status) from error
        except requests.RequestException as error:
            raise PushFailed(f"push service unreachable: {error}") from error
