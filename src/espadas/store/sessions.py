"""Sessions: each device signed in, so that a person can see them and sign one out.

The signed player cookie carries a session id (random, 192 bits); the database
keeps only its SHA-256 (``id_hash``, which the API also uses to name a session:
knowing it signs nobody in). A revoked session signs nobody in from then on.

Checking a session on every request is kept cheap: a valid answer, or a session
opened by this process, is trusted for :data:`CHECK_S` seconds in this process
(a sign-out made through this process forgets it at once; one made through
another instance is seen within :data:`CHECK_S`), and ``seen_at`` is written at
most once per :data:`SEEN_STEP`.

Cookies signed before sessions existed carry a player id alone; they keep
working until the person signs every other device out (``old_cookies_off``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.outbox import stamp
from espadas.store.resume_links import token_hash
from espadas.store.schema import players, sessions

CHECK_S = 60.0
"""How long a valid session is trusted without asking the database again: a
person at a table acts every few seconds to every minute or so, and with 5 s
nearly every action read the database again (16 % of the server's loop at
2,000 people)."""
SEEN_STEP = timedelta(hours=1)
"""``seen_at`` is moved on when it is older than this."""
KEPT = 50_000
"""Sessions remembered as valid in memory (dropped whole beyond)."""
HOWS = ("name", "resume", "email", "passkey")
"""How a device signed in."""


@dataclass(frozen=True)
class Device:
    """A session as its person sees it (times are :func:`stamp` strings)."""

    id: str
    created_at: str
    seen_at: str
    browser: str
    system: str
    how: str


class Sessions:
    """The sessions, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._valid: dict[str, tuple[float, str, str]] = {}
        """id_hash -> (when checked, player id, seen_at)."""
        self._old_ok: dict[str, float] = {}
        """player id -> when their old cookies were last found valid."""

    async def open(self, player_id: str, at: datetime, browser: str, system: str, how: str) -> str:
        """A new session of ``player_id``: answers its id (for the cookie)."""
        if how not in HOWS:
            raise ValueError(f"how is one of {', '.join(HOWS)}")
        session_id = secrets.token_urlsafe(24)
        async with self.engine.begin() as conn:
            await conn.execute(
                sessions.insert().values(
                    id_hash=token_hash(session_id),
                    player_id=player_id,
                    created_at=stamp(at),
                    seen_at=stamp(at),
                    browser=browser[:20],
                    system=system[:20],
                    how=how,
                )
            )
        self._remember(token_hash(session_id), player_id, stamp(at))
        return session_id

    async def valid(self, player_id: str, session_id: str, now: datetime) -> bool:
        """Whether ``session_id`` is an open session of ``player_id``."""
        key = token_hash(session_id)
        known = self._valid.get(key)
        moment = time.monotonic()
        if known is not None and known[1] == player_id and moment - known[0] < CHECK_S:
            return True
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(sessions.c.player_id, sessions.c.seen_at).where(
                        sessions.c.id_hash == key, sessions.c.revoked_at.is_(None)
                    )
                )
            ).first()
        if row is None or row.player_id != player_id:
            self._valid.pop(key, None)
            return False
        seen = row.seen_at
        if seen < stamp(now - SEEN_STEP):
            seen = stamp(now)
            async with self.engine.begin() as conn:
                await conn.execute(
                    sessions.update().where(sessions.c.id_hash == key).values(seen_at=seen)
                )
        self._remember(key, player_id, seen)
        return True

    def _remember(self, key: str, player_id: str, seen: str) -> None:
        """A session known open here (for :data:`CHECK_S`): checked, or opened here."""
        if len(self._valid) >= KEPT:
            self._valid.clear()
        self._valid[key] = (time.monotonic(), player_id, seen)

    async def old_cookie_valid(self, player_id: str) -> bool:
        """Whether a cookie of ``player_id`` signed before sessions still works."""
        moment = time.monotonic()
        if moment - self._old_ok.get(player_id, -CHECK_S) < CHECK_S:
            return True
        async with self.engine.connect() as conn:
            off = await conn.scalar(
                sa.select(players.c.old_cookies_off).where(
                    players.c.id == player_id, players.c.deleted_at.is_(None)
                )
            )
        if off is None or off:
            self._old_ok.pop(player_id, None)
            return False
        if len(self._old_ok) >= KEPT:
            self._old_ok.clear()
        self._old_ok[player_id] = moment
        return True

    async def devices(self, player_id: str) -> list[Device]:
        """The open sessions of ``player_id``, the most recently seen first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(sessions)
                .where(sessions.c.player_id == player_id, sessions.c.revoked_at.is_(None))
                .order_by(sessions.c.seen_at.desc(), sessions.c.created_at.desc())
            )
            return [
                Device(r.id_hash, r.created_at, r.seen_at, r.browser, r.system, r.how) for r in rows
            ]

    async def revoke(self, player_id: str, id_hash: str, at: datetime) -> bool:
        """Signs the device whose session is ``id_hash`` out; False when
        ``player_id`` has no such open session."""
        async with self.engine.begin() as conn:
            done = await conn.execute(
                sessions.update()
                .where(
                    sessions.c.id_hash == id_hash,
                    sessions.c.player_id == player_id,
                    sessions.c.revoked_at.is_(None),
                )
                .values(revoked_at=stamp(at))
            )
        self._valid.pop(id_hash, None)
        return bool(done.rowcount)

    async def revoke_others(self, player_id: str, keep: str | None, at: datetime) -> int:
        """Signs every device of ``player_id`` out but the session ``keep`` (an
        id hash; None: every one), cookies from before sessions included."""
        query = sessions.update().where(
            sessions.c.player_id == player_id, sessions.c.revoked_at.is_(None)
        )
        if keep is not None:
            query = query.where(sessions.c.id_hash != keep)
        async with self.engine.begin() as conn:
            done = await conn.execute(query.values(revoked_at=stamp(at)))
            await conn.execute(
                players.update().where(players.c.id == player_id).values(old_cookies_off=True)
            )
        self._old_ok.pop(player_id, None)
        for key, (_, owner, _) in list(self._valid.items()):
            if owner == player_id and key != keep:
                del self._valid[key]
        return int(done.rowcount or 0)
