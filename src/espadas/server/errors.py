"""How a refusal is answered: its HTTP status and its body ``{"error": CODE,
"message": TEXT}``, the text in the request's language (Spanish by default).

Rule and table refusals are :class:`~espadas.engine.EspadasError`\\ s (their
status from :func:`status_of`); refusals outside the rules (no session, unknown
table, too many requests) are :class:`ApiError`\\ s. :func:`add_handlers` answers
both, and malformed requests, over HTTP; :func:`refusal` writes the same for the
live socket.

>>> from espadas.engine import IllegalBid
>>> status_of(IllegalBid("bid_range", "a bid is 0..13")), ApiError(404, "not_found").status
(409, 404)
>>> refusal(ApiError(401, "no_session"), "en")["error"]
'no_session'
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from espadas.engine import EspadasError, InvalidRules, ParseError, RuleError
from espadas.i18n import error_text, translate
from espadas.server.language import request_lang
from espadas.store.store import UnknownTable
from espadas.tables.errors import TableError


class ApiError(Exception):
    """A refusal outside the rules (no session, unknown table): ``code`` is a
    catalog key ``api.CODE``."""

    def __init__(self, status: int, code: str, **params: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.params = params


def status_of(err: EspadasError) -> int:
    """The HTTP status that refuses ``err``."""
    if isinstance(err, TableError):
        return err.status
    if isinstance(err, ParseError | InvalidRules):
        return 422
    if isinstance(err, RuleError):
        return 409
    return 400


def error_body(err: EspadasError, lang: str, players: int = 4) -> dict[str, Any]:
    """``{"error": CODE, "message": TEXT}`` for a rule or table refusal."""
    return {"error": err.code, "message": error_text(err, lang, players=players)}


def refusal(err: EspadasError | ApiError, lang: str) -> dict[str, Any]:
    """The live socket's answer to a refused action: ``{"type": "refused",
    "status": N, "error": CODE, "message": TEXT}``."""
    if isinstance(err, ApiError):
        text = translate("api." + err.code, lang, **err.params)
        return {"type": "refused", "status": err.status, "error": err.code, "message": text}
    return {"type": "refused", "status": status_of(err), **error_body(err, lang)}


def _lang(request: Request) -> str:
    return request_lang(request.headers.get("accept-language"))


def add_handlers(app: FastAPI) -> None:
    """Makes ``app`` answer every refusal with its status and body."""

    @app.exception_handler(EspadasError)
    async def rule_refused(request: Request, err: EspadasError) -> JSONResponse:
        return JSONResponse(error_body(err, _lang(request)), status_code=status_of(err))

    @app.exception_handler(ApiError)
    async def api_refused(request: Request, err: ApiError) -> JSONResponse:
        text = translate("api." + err.code, _lang(request), **err.params)
        return JSONResponse({"error": err.code, "message": text}, status_code=err.status)

    @app.exception_handler(UnknownTable)
    async def unknown_table(request: Request, err: UnknownTable) -> JSONResponse:
        text = translate("api.not_found", _lang(request))
        return JSONResponse({"error": "not_found", "message": text}, status_code=404)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        details = []
        for problem in err.errors()[:3]:
            where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
            details.append(
                f"{where}: {problem.get('msg', '')}" if where else problem.get("msg", "")
            )
        text = translate("api.bad_request", _lang(request), detail="; ".join(details)[:300])
        return JSONResponse({"error": "bad_request", "message": text}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = "not_found_path" if err.status_code == 404 else "bad_request"
        text = translate("api." + code, _lang(request), detail=str(err.detail)[:200])
        return JSONResponse({"error": code, "message": text}, status_code=err.status_code)
