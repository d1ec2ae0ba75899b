"""Guards every request before the API sees it: body size, rate and CSRF.

- Bodies over ``max_body`` bytes are refused with 413 (declared or streamed).
- Each client (its player cookie, else its address) has a token bucket:
  ``burst`` requests at once, ``rate`` per second after that; beyond, 429.
- A request that changes something (not GET/HEAD/OPTIONS) and carries the
  player cookie must carry the CSRF header equal to the CSRF cookie, and its
  ``Origin``, when present, must be this server; else 403.
"""

from __future__ import annotations

import json
import time
from http.cookies import SimpleCookie
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from espadas.i18n import translate
from espadas.server.identity import CSRF_COOKIE, CSRF_HEADER, PLAYER_COOKIE
from espadas.server.language import request_lang

SAFE = {"GET", "HEAD", "OPTIONS"}


class TokenBucket:
    """Requests allowed per key: ``burst`` at once, refilled at ``rate`` per second.

    >>> bucket = TokenBucket(rate=1, burst=2)
    >>> [bucket.take("a", now=0.0) for _ in range(3)], bucket.take("a", now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._state: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, last = self._state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if len(self._state) > 50_000:
            self._state.clear()
        if tokens < 1:
            self._state[key] = (tokens, now)
            return False
        self._state[key] = (tokens - 1, now)
        return True


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def cookies(headers: dict[str, str]) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header: no cookies
        return {}
    return {k: m.value for k, m in jar.items()}


def same_origin(headers: dict[str, str]) -> bool:
    """True when there is no ``Origin`` header or it names this host."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") == host


class Guard:
    """ASGI middleware applying the limits above."""

    def __init__(self, app: ASGIApp, *, max_body: int, bucket: TokenBucket) -> None:
        self.app = app
        self.max_body = max_body
        self.bucket = bucket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        lang = request_lang(headers.get("accept-language"))
        jar = cookies(headers)
        client = scope.get("client") or ("?", 0)
        key = jar.get(PLAYER_COOKIE) or str(client[0])
        if not self.bucket.take(key[:600]):
            await _refuse(scope, send, 429, "too_many", lang)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        if method not in SAFE:
            if not same_origin(headers):
                await _refuse(scope, send, 403, "bad_origin", lang)
                return
            if PLAYER_COOKIE in jar and (
                not jar.get(CSRF_COOKIE) or headers.get(CSRF_HEADER) != jar.get(CSRF_COOKIE)
            ):
                await _refuse(scope, send, 403, "csrf", lang)
                return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _refuse(scope, send, 413, "too_big", lang)
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
                await _refuse(scope, send, 413, "too_big", lang)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(scope: Scope, send: Send, status: int, code: str, lang: str) -> None:
    body: dict[str, Any] = {"error": code, "message": translate("api." + code, lang)}
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
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
