"""Resume links: private tokens that sign a person in on another device, and the
record of their uses (the person's devices list).

A link is stored as the SHA-256 of its token, never the token: someone who reads
the database cannot sign in as anyone. A link can be revoked (all of a person's
links at once: the page's "revoke and make a new one", which also stops the
links sent in mails); a revoked link is told apart from an unknown one so that
the page can say so. Each use keeps only when it was and the browser and system
the User-Agent named (no address, no full User-Agent), the latest
:data:`USES_KEPT` per person.

>>> token_hash("abc")[:16]
'ba7816bf8f01cfea'
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.outbox import stamp
from espadas.store.schema import resume_links, resume_uses

USES_KEPT = 20
"""Uses of resume links kept per person (older ones are deleted)."""


def token_hash(token: str) -> str:
    """The stored form of a token: its SHA-256, in hex (tokens have 192 random
    bits, so a fast hash is enough)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class LinkOwner:
    """Whose a resume link is, and whether it was revoked (``revoked_at``, or None)."""

    player_id: str
    revoked_at: str | None


@dataclass(frozen=True)
class LinkUse:
    """One use of a resume link: when (a :func:`~espadas.store.outbox.stamp`), and
    the browser and system it came from (``""`` when the User-Agent did not say)."""

    at: str
    browser: str
    system: str


class ResumeLinks:
    """The resume links and their uses, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(self, player_id: str, at: datetime, replace: bool = False) -> str:
        """A new token for ``player_id``; with ``replace``, every earlier link of
        theirs is revoked in the same transaction."""
        token = secrets.token_urlsafe(24)
        async with self.engine.begin() as conn:
            if replace:
                await conn.execute(_revoke(player_id, at))
            await conn.execute(
                resume_links.insert().values(
                    token_hash=token_hash(token),
                    player_id=player_id,
                    created_at=at.isoformat(),
                )
            )
        return token

    async def revoke(self, player_id: str, at: datetime) -> int:
        """Revokes every link of ``player_id``; answers how many were still valid."""
        async with self.engine.begin() as conn:
            return (await conn.execute(_revoke(player_id, at))).rowcount or 0

    async def owner(self, token: str) -> LinkOwner | None:
        """Whose link ``token`` is (revoked or not), or None for no link at all."""
        if not token:
            return None
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(resume_links.c.player_id, resume_links.c.revoked_at).where(
                        resume_links.c.token_hash == token_hash(token)
                    )
                )
            ).first()
        return None if row is None else LinkOwner(row.player_id, row.revoked_at)

    async def active(self, player_id: str) -> int:
        """How many links of ``player_id`` still work."""
        async with self.engine.connect() as conn:
            count = await conn.scalar(
                sa.select(sa.func.count())
                .select_from(resume_links)
                .where(resume_links.c.player_id == player_id, resume_links.c.revoked_at.is_(None))
            )
        return int(count or 0)

    async def record_use(self, player_id: str, at: datetime, browser: str, system: str) -> None:
        """Records a use of one of ``player_id``'s links, keeping the latest
        :data:`USES_KEPT`."""
        async with self.engine.begin() as conn:
            await conn.execute(
                resume_uses.insert().values(
                    player_id=player_id, at=stamp(at), browser=browser[:20], system=system[:20]
                )
            )
            kept = (
                sa.select(resume_uses.c.id)
                .where(resume_uses.c.player_id == player_id)
                .order_by(resume_uses.c.at.desc(), resume_uses.c.id.desc())
                .limit(USES_KEPT)
            )
            await conn.execute(
                resume_uses.delete().where(
                    resume_uses.c.player_id == player_id,
                    resume_uses.c.id.not_in(sa.select(kept.subquery().c.id)),
                )
            )

    async def uses(self, player_id: str) -> list[LinkUse]:
        """The recorded uses of ``player_id``'s links, the most recent first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(resume_uses)
                .where(resume_uses.c.player_id == player_id)
                .order_by(resume_uses.c.at.desc(), resume_uses.c.id.desc())
                .limit(USES_KEPT)
            )
            return [LinkUse(r.at, r.browser, r.system) for r in rows]


def _revoke(player_id: str, at: datetime) -> sa.Update:
    return (
        resume_links.update()
        .where(resume_links.c.player_id == player_id, resume_links.c.revoked_at.is_(None))
        .values(revoked_at=stamp(at))
    )
