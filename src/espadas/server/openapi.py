"""The API's description (``/openapi.json``) as the API answers: every status a
route can answer, each refusal with the one :class:`~espadas.server.models.Error`
body, and links from opening a table to what can be done with it.

A route declares in its decorator the body it answers and the refusals of its
own (``responses=answer(ViewOut) | refusals(401, 404)``); :func:`describe` adds
those every route shares, which the middleware answers before any route runs:

- 413 (a body over the size limit) and 429 (over the rate limit): every route;
- 400 (a body that is not JSON) and 403 (no CSRF token, another site's
  ``Origin``): every change (POST, PUT, PATCH, DELETE).

422 is the :class:`~espadas.server.models.Error` body (``"error":
"bad_request"``), not FastAPI's ``{"detail": ...}``.

>>> sorted(refusals(401, 404))
[401, 404]
>>> refusals(409)[409]["description"]
'Not allowed by the rules or at this moment (not your turn, the game is over...).'
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from espadas.server.models import Error

WHY = {
    400: "The body is not JSON: not UTF-8, malformed, or nested more than 32 levels.",
    401: "No session: choose a name first (POST /api/session), or this device was signed out.",
    403: "Refused: a change without the X-CSRF-Token header equal to the espadas_csrf "
    "cookie or from another site's Origin, or something only seated people or the "
    "table's creator may do.",
    404: "Unknown table or link (or the server does not offer this).",
    409: "Not allowed by the rules or at this moment (not your turn, the game is over...).",
    410: "The resume link was revoked (link_revoked), or the sign-in link was used"
    " (signin_used) or has expired (signin_expired).",
    413: "The request's body is over the size limit (16 KiB by default).",
    422: "JSON that does not fit: a missing or unknown field, a value of the wrong type "
    'or out of range, or a path value that is not a table id ("error": "bad_request").',
    429: "Too many requests from this client, or too many chat messages from this person"
    " at this table (chat_too_fast: 5 in 10 seconds, 30 in 10 minutes): wait a moment.",
    503: "Too busy for this now (analysis_busy: too many analyses wait): try again later.",
}
"""What each refusal status means, as the document says it."""

EVERY_ROUTE = (413, 429)
EVERY_CHANGE = (400, 403)
CHANGES = {"post", "put", "patch", "delete"}
ERROR_REF = {"$ref": "#/components/schemas/Error"}

OPENS_A_TABLE = ("/api/tables", "/api/tables/{table_id}/rematch")
"""Routes that answer 201 with a new table's ``id``: the stateful document links
them to every route of a table."""


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """A route's own refusals, for its decorator's ``responses=``."""
    return {status: {"model": Error, "description": WHY[status]} for status in statuses}


def answer(model: type[BaseModel], status: int = 200) -> dict[int | str, dict[str, Any]]:
    """The body a route answers when it succeeds (documented, not enforced: a
    route's ``dict`` is sent as it is, and the tests compare it with this)."""
    return {status: {"model": model}}


def _refusal(status: int) -> dict[str, Any]:
    return {"description": WHY[status], "content": {"application/json": {"schema": ERROR_REF}}}


def _complete(schema: dict[str, Any]) -> dict[str, Any]:
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Error", Error.model_json_schema())
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    table_routes: dict[str, dict[str, str]] = {}
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            responses = operation.setdefault("responses", {})
            shared = EVERY_ROUTE + (EVERY_CHANGE if method in CHANGES else ())
            for status in shared:
                responses.setdefault(str(status), _refusal(status))
            for response in responses.values():
                # an answer(...) merged into FastAPI's "any object": the model alone
                body = response.get("content", {}).get("application/json", {})
                if "$ref" in body.get("schema", {}):
                    body["schema"] = {"$ref": body["schema"]["$ref"]}
            fastapi_422 = responses.get("422", {}).get("content", {}).get("application/json", {})
            if fastapi_422.get("schema", {}).get("$ref", "").endswith("HTTPValidationError"):
                responses["422"] = _refusal(422)
            if "{table_id}" in path and path not in OPENS_A_TABLE:
                pointer = path.replace("~", "~0").replace("/", "~1")
                name = f"{method}_{path.removeprefix('/api/tables/{table_id}').strip('/')}"
                table_routes[name.rstrip("_") or method] = {
                    "operationRef": f"#/paths/{pointer}/{method}",
                }
    for path in OPENS_A_TABLE:
        created = schema.get("paths", {}).get(path, {}).get("post", {}).get("responses", {})
        if "201" in created:
            created["201"]["links"] = {
                name: {**ref, "parameters": {"table_id": "$response.body#/id"}}
                for name, ref in sorted(table_routes.items())
            }
    return schema


def describe(app: FastAPI) -> None:
    """Makes ``app``'s OpenAPI document list the statuses every route shares, the
    Error body for 422 and the links from a new table."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _complete(plain())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
