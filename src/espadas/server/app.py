"""The ASGI application: :func:`create_app` wires store, robots, hub, guard and API.

On start it applies the database migrations and lets the robots of every game
in progress play on (a restarted server resumes every table).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from espadas.engine import EspadasError
from espadas.i18n import translate
from espadas.server.api import ApiError, error_body, router, status_of
from espadas.server.guard import Guard, TokenBucket
from espadas.server.hub import Hub
from espadas.server.identity import Identity
from espadas.server.language import request_lang
from espadas.server.notices_api import router as notices_router
from espadas.server.notifier import Notifier
from espadas.server.push import Push
from espadas.server.robot_pool import RobotPool, Robots
from espadas.server.robot_queue import QueueRobots
from espadas.server.settings import Settings
from espadas.store.store import Store, UnknownTable

log = logging.getLogger("espadas.server")


def _lang(request: Request) -> str:
    return request_lang(request.headers.get("accept-language"))


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings`` (defaults: a SQLite file in ``espadas-data``)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        settings.data.mkdir(parents=True, exist_ok=True)
        store = await Store.open(settings.db_url)
        robots: Robots
        if settings.robot_queue:
            robots = QueueRobots(
                settings.robot_queue, settings.robot_queue_name, settings.robot_timeout_s
            )
        else:
            robots = RobotPool(settings.robot_workers)
        hub = Hub(store, settings, robots)
        app.state.push = None
        try:
            app.state.push = Push.load(settings.data, settings.push_subject)
        except Exception:  # push is optional: the rest works without it
            log.exception("Web Push is off: its keys could not be made or read")
        notifier = Notifier(store, settings, hub.table, hub.looking, app.state.push)
        notifier.before_sending = hub.flush_seen
        sending = asyncio.create_task(notifier.run()) if settings.notices else None
        if sending is not None:
            hub.notifier = notifier
        app.state.store = store
        app.state.hub = hub
        app.state.settings = settings
        app.state.identity = Identity(settings.signing_key())
        warming = None
        if settings.robot_workers or settings.robot_queue:
            warming = asyncio.create_task(robots.warm_up())
        listening = (
            asyncio.create_task(store.listen(hub.changed_elsewhere)) if store.shared else None
        )
        await hub.resume()
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            if sending is not None:
                sending.cancel()
            if listening is not None:
                listening.cancel()
            await hub.close()
            await hub.flush_seen()
            robots.close()
            await store.close()

    app = FastAPI(
        title="Espadas",
        version="1",
        description="Spades tables by invitation link: JSON API and live views.",
        lifespan=lifespan,
    )
    app.include_router(router)
    app.include_router(notices_router)

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

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, Any]:
        """Alive, this process's memory (resident set, MB) and what the hub holds."""
        hub = getattr(app.state, "hub", None)
        return {"ok": True, "rss_mb": _rss_mb(), "held": hub.sizes() if hub else {}}

    # one bucket per client for HTTP requests and WebSocket actions alike
    app.state.bucket = TokenBucket(settings.rate, settings.burst)
    app.add_middleware(Guard, max_body=settings.max_body, bucket=app.state.bucket)
    return app


def _rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0
