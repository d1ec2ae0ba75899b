"""What a request body must be before any route reads it: JSON text in UTF-8,
nested at most :data:`MAX_DEPTH` levels deep.

Python's JSON parser recurses once per level: a 2 KB body of a thousand ``[``
raised :class:`RecursionError` wherever it was parsed (a route reading
``request.json()`` answered 500). :class:`JsonBody` checks every body of a
change (POST, PUT, PATCH, DELETE) once, for every route, before the application
sees it, counting the depth without recursion; a body that is not JSON is
refused with 400 and the usual error object. JSON that does not fit the route
(a missing field, a wrong type) is the route's to refuse, with 422.

>>> depth(b'{"a": [1, {"b": "[[[["}]}'), depth(b"[" * 1000 + b"]" * 1000), depth(b"7")
(3, 1000, 0)
>>> problem(b'{"name": "Ana"}'), problem(b"[" * 40 + b"]" * 40), problem(b'{"a": "\\xff"}')
(None, 'depth', 'utf8')
>>> problem(b"{"), problem(b"1" * 5000), problem(b""), problem(b'\\xef\\xbb\\xbf{}')
('syntax', 'syntax', None, None)
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from espadas.i18n import translate
from espadas.server.language import request_lang

MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have (ours need 2)."""

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?', re.DOTALL)
"""A string, or an unclosed one up to the end: each byte is looked at once."""
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_SAFE = {"GET", "HEAD", "OPTIONS"}


def depth(body: bytes) -> int:
    """How deeply the arrays and objects of ``body`` nest (strings skipped)."""
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", body))
    steps = (1 if b in b"[{" else -1 for b in brackets)
    return max(accumulate(steps, initial=0))


def problem(body: bytes) -> str | None:
    """Why ``body`` is not a JSON body (``"utf8"``, ``"depth"``, ``"syntax"``), or
    ``None`` when it is one (an empty body is left to the route)."""
    if not body:
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "utf8"
    if depth(body) > MAX_DEPTH:
        return "depth"
    try:
        json.loads(text.removeprefix("\ufeff"))  # a byte order mark is tolerated
    except ValueError:  # malformed, or a number of over 4,300 digits
        return "syntax"
    return None


class JsonBody:
    """ASGI middleware: refuses (400) a change whose body is not JSON."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _SAFE:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        why = problem(body)
        if why is not None:
            await _refuse(scope, send, why)
            return
        await self.app(scope, resent(body, receive), send)


def resent(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the application ``body`` (read whole by a middleware)
    as one message, then whatever the client sends next (a disconnect)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def _refuse(scope: Scope, send: Send, why: str) -> None:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    lang = request_lang(headers.get("accept-language"))
    detail = translate("api.not_json." + why, lang, depth=MAX_DEPTH)
    body = {"error": "bad_request", "message": translate("api.bad_request", lang, detail=detail)}
    data = json.dumps(body, ensure_ascii=False).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})
