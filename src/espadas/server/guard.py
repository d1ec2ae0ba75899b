"""Guards every request before the API sees it: rate, origin, CSRF, body size and
the number of live sockets.

- Each client (the player of its verified cookie, else its address; always the
  address for ``POST /api/session``) may make ``burst`` requests at once and
  about ``rate`` a second after that (:class:`~espadas.server.limiter.RateLimit`);
  beyond, 429. A WebSocket handshake counts as a request (beyond: closed at
  once with code 4429).
- A request that changes something (not GET/HEAD/OPTIONS), and every WebSocket
  handshake, is refused (403) if its ``Origin`` is not this server's: scheme,
  host and port of the public URL when one is configured, else of the request
  itself.
- A change that carries the player cookie must carry the CSRF header equal to
  the CSRF cookie; else 403.
- Bodies over ``max_body`` bytes are refused with 413 (declared or streamed).
- A player may keep ``sockets_per_player`` live sockets open, an address
  ``sockets_per_address``; one more is closed at once with code 4429.

>>> origin_of("HTTPS://Espadas.example.org/"), origin_of("ws://[::1]:8000")
(('https', 'espadas.example.org', 443), ('http', '::1', 8000))
>>> same_origin({"origin": "https://a.example", "host": "a.example"}, "http", None)
False
>>> same_origin({"origin": "https://a.example"}, "http", "https://a.example:443")
True
"""

from __future__ import annotations

import json
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from espadas.i18n import translate
from espadas.server.body import resent
from espadas.server.identity import CSRF_COOKIE, CSRF_HEADER, PLAYER_COOKIE, Identity
from espadas.server.language import request_lang
from espadas.server.limiter import RateLimit, Sockets, address_key

SAFE = {"GET", "HEAD", "OPTIONS"}
DEFAULT_PORTS = {"http": 80, "https": 443}
SESSION_PATH = "/api/session"
"""Sessions are made per address, whatever cookie comes with the request."""


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def cookies(headers: dict[str, str]) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header: no cookies
        return {}
    return {k: m.value for k, m in jar.items()}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of ``url`` (``ws``/``wss`` as ``http``/``https``),
    ``None`` if it is not an http(s) address."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme]


def same_origin(headers: dict[str, str], scheme: str, public_url: str | None) -> bool:
    """True when there is no ``Origin`` header or it is this server: the scheme,
    host and port of ``public_url``, or without one of the request itself
    (``scheme`` from the ASGI scope, its ``Host`` header)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    own = origin_of(public_url or f"{scheme}://{headers.get('host', '')}")
    return own is not None and origin_of(origin) == own


class Guard:
    """ASGI middleware applying the limits above."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int,
        limit: RateLimit,
        sockets: Sockets,
        public_url: str | None = None,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.limit = limit
        self.sockets = sockets
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        lang = request_lang(headers.get("accept-language"))
        jar = cookies(headers)
        player = _verified_player(scope, jar.get(PLAYER_COOKIE))
        client = scope.get("client") or ("?", 0)
        address = address_key(str(client[0]))
        websocket = scope["type"] == "websocket"
        method = "GET" if websocket else scope["method"]
        if player is None or (method == "POST" and scope["path"] == SESSION_PATH):
            key = "address:" + address
        else:
            key = "player:" + player
        if not await self.limit.hit(key):
            await _refuse(scope, receive, send, 429, "too_many", lang)
            return
        if (websocket or method not in SAFE) and not same_origin(
            headers, scope.get("scheme", "http"), self.public_url
        ):
            await _refuse(scope, receive, send, 403, "bad_origin", lang)
            return
        if websocket:
            if not self.sockets.open(player, address):
                await _refuse(scope, receive, send, 429, "too_many_sockets", lang)
                return
            try:
                await self.app(scope, receive, send)
            finally:
                self.sockets.close(player, address)
            return
        if (
            method not in SAFE
            and PLAYER_COOKIE in jar
            and (not jar.get(CSRF_COOKIE) or headers.get(CSRF_HEADER) != jar.get(CSRF_COOKIE))
        ):
            await _refuse(scope, receive, send, 403, "csrf", lang)
            return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _refuse(scope, receive, send, 413, "too_big", lang)
            return
        # bodies are small: read the whole body first, so that one over the limit
        # is refused before the application sees any of it
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_body:
                await _refuse(scope, receive, send, 413, "too_big", lang)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        await self.app(scope, resent(body, receive), send)


def _verified_player(scope: Scope, cookie: str | None) -> str | None:
    """The player id of a genuine signed cookie, as the routes read it; ``None``
    for no cookie, a forged one, or before the application has started."""
    app = scope.get("app")
    identity: Identity | None = getattr(getattr(app, "state", None), "identity", None)
    return None if identity is None else identity.read(cookie)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, lang: str
) -> None:
    """Answers ``status`` with ``{"error": code, "message": TEXT}``. A WebSocket
    handshake from another site is refused before the upgrade (403); one over a
    limit is accepted and closed at once with code ``4000 + status`` and the
    error code as reason, which a page's script can read (a browser hides the
    status of a refused upgrade)."""
    if scope["type"] == "websocket":
        if status == 403:
            await send({"type": "websocket.close", "code": 1008})
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 4000 + status, "reason": code})
        return
    body: dict[str, Any] = {"error": code, "message": translate("api." + code, lang)}
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
