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

from fastapi import FastAPI

from espadas.server.account_api import router as account_router
from espadas.server.account_api import signin_limits
from espadas.server.analyst import Analyst
from espadas.server.api import router
from espadas.server.body import JsonBody
from espadas.server.challenge_api import router as challenge_router
from espadas.server.challenges import Challenges
from espadas.server.dealing import Dealing
from espadas.server.errors import add_handlers
from espadas.server.guard import Guard
from espadas.server.hub import Hub
from espadas.server.identity import Identity
from espadas.server.limiter import RateLimit, Sockets
from espadas.server.lobby import LobbyService
from espadas.server.lobby_api import LOBBY_BURST, LOBBY_RATE
from espadas.server.notices_api import router as notices_router
from espadas.server.notifier import Notifier
from espadas.server.openapi import describe
from espadas.server.passkey_api import router as passkey_router
from espadas.server.presence import Presence
from espadas.server.push import Push
from espadas.server.robot_pool import RobotPool, Robots
from espadas.server.robot_queue import QueueRobots
from espadas.server.settings import Settings
from espadas.server.tournament_api import router as tournament_router
from espadas.server.tournaments import EventService
from espadas.store.store import Store

log = logging.getLogger("espadas.server")


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
        app.state.challenges = Challenges(store, hub, settings)
        app.state.events = EventService(store, hub, settings)
        app.state.events.run()
        app.state.presence = Presence(hub, settings)
        app.state.lobby = LobbyService(store, hub, settings)
        app.state.lobby.presence = app.state.presence
        app.state.lobby.run()
        app.state.dealing = Dealing(app.state.challenges, app.state.events)
        app.state.push = None
        try:
            app.state.push = Push.load(
                settings.data, settings.push_subject, settings.push_allow_private
            )
        except Exception:  # push is optional: the rest works without it
            log.exception("Web Push is off: its keys could not be made or read")
        notifier = Notifier(store, settings, hub.table, hub.looking, app.state.push)
        notifier.before_sending = hub.flush_seen
        sending = asyncio.create_task(notifier.run()) if settings.notices else None
        if sending is not None:
            hub.notifier = notifier
        app.state.store = store
        app.state.hub = hub
        app.state.analyst = analyst = Analyst(store, robots, settings)
        app.state.settings = settings
        app.state.identity = Identity(settings.signing_key())
        warming = None
        if settings.robot_workers or settings.robot_queue:
            warming = hub.warming = asyncio.create_task(robots.warm_up())
        listening = (
            asyncio.create_task(store.listen(hub.changed_elsewhere)) if store.shared else None
        )
        await hub.resume()
        await app.state.presence.resume()
        try:
            yield
        finally:
            if warming is not None:
                warming.cancel()
            if sending is not None:
                sending.cancel()
            if listening is not None:
                listening.cancel()
            await analyst.close()
            await app.state.challenges.close()
            await app.state.events.close()
            await app.state.lobby.close()
            await app.state.presence.close()
            await hub.close()
            await hub.flush_seen()
            robots.close()
            await store.close()

    app = FastAPI(
        title="Espadas",
        version="1",
        description="Spades tables by invitation link: JSON API and live views.",
        lifespan=lifespan,
        # the document is at /openapi.json; no Swagger UI or ReDoc pages, which
        # would load a CDN's scripts on this origin
        docs_url=None,
        redoc_url=None,
    )
    app.include_router(router)
    app.include_router(notices_router)
    app.include_router(account_router)
    app.include_router(passkey_router)
    app.include_router(challenge_router)
    app.include_router(tournament_router)

    add_handlers(app)
    describe(app)

    @app.get("/health", include_in_schema=False)
    async def health() -> dict[str, Any]:
        """Alive, this process's memory (resident set, MB) and what the hub holds."""
        hub = getattr(app.state, "hub", None)
        return {"ok": True, "rss_mb": _rss_mb(), "held": hub.sizes() if hub else {}}

    # one rate limit per client for HTTP requests and WebSocket actions alike
    app.state.limit = RateLimit(settings.rate, settings.burst, settings.rate_store)
    app.state.signin_limits = signin_limits(settings)
    app.state.lobby_limit = RateLimit(LOBBY_RATE, LOBBY_BURST, settings.rate_store)
    app.state.sockets = Sockets(settings.sockets_per_player, settings.sockets_per_address)
    app.add_middleware(JsonBody)  # inside the guard: only bodies within the size limit
    app.add_middleware(
        Guard,
        max_body=settings.max_body,
        limit=app.state.limit,
        sockets=app.state.sockets,
        public_url=settings.public_url,
    )
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
