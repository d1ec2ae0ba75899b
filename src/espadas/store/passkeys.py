"""Passkeys (WebAuthn credentials) and the challenges waiting for their answer.

A credential is kept as its id and COSE public key (base64url) with its sign
count. A challenge is bound to a session (or, before signing in, to a cookie of
its own), expires after :data:`CHALLENGE_TTL` and is taken once: the row is
deleted as it is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.outbox import stamp
from espadas.store.schema import passkey_challenges, passkeys, players

CHALLENGE_TTL = timedelta(minutes=5)


@dataclass(frozen=True)
class Passkey:
    """A stored credential (times are :func:`stamp` strings)."""

    id: str
    player_id: str
    public_key: str
    sign_count: int
    label: str
    created_at: str
    used_at: str | None


@dataclass(frozen=True)
class Challenge:
    challenge: str
    player_id: str | None


class Passkeys:
    """Passkeys and challenges, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def of(self, player_id: str) -> list[Passkey]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(passkeys)
                .where(passkeys.c.player_id == player_id)
                .order_by(passkeys.c.created_at)
            )
            return [_passkey(r) for r in rows]

    async def find(self, credential_id: str) -> Passkey | None:
        """The credential ``credential_id`` of a person not deleted."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(passkeys)
                    .join(players, players.c.id == passkeys.c.player_id)
                    .where(
                        passkeys.c.credential_id == credential_id, players.c.deleted_at.is_(None)
                    )
                )
            ).first()
        return None if row is None else _passkey(row)

    async def add(
        self,
        player_id: str,
        credential_id: str,
        public_key: str,
        count: int,
        label: str,
        at: datetime,
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                passkeys.insert().values(
                    credential_id=credential_id,
                    player_id=player_id,
                    public_key=public_key,
                    sign_count=count,
                    created_at=stamp(at),
                    label=label[:50],
                )
            )

    async def used(self, credential_id: str, count: int, at: datetime) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                passkeys.update()
                .where(passkeys.c.credential_id == credential_id)
                .values(sign_count=count, used_at=stamp(at))
            )

    async def remove(self, player_id: str, credential_id: str) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                passkeys.delete().where(
                    passkeys.c.credential_id == credential_id, passkeys.c.player_id == player_id
                )
            )
        return bool(done.rowcount)

    async def challenge(
        self, key_hash: str, purpose: str, challenge: str, player_id: str | None, at: datetime
    ) -> None:
        """Keeps ``challenge`` for the session or cookie whose hash is
        ``key_hash`` (replacing an earlier one of it)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                passkey_challenges.delete().where(passkey_challenges.c.key_hash == key_hash)
            )
            await conn.execute(
                passkey_challenges.delete().where(passkey_challenges.c.expires_at < stamp(at))
            )
            await conn.execute(
                passkey_challenges.insert().values(
                    key_hash=key_hash,
                    purpose=purpose,
                    challenge=challenge,
                    player_id=player_id,
                    expires_at=stamp(at + CHALLENGE_TTL),
                )
            )

    async def take(self, key_hash: str, purpose: str, now: datetime) -> Challenge | None:
        """The waiting challenge of ``key_hash`` for ``purpose``, deleted as it is
        taken (None: none, another purpose, or expired)."""
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    passkey_challenges.delete()
                    .where(passkey_challenges.c.key_hash == key_hash)
                    .returning(
                        passkey_challenges.c.purpose,
                        passkey_challenges.c.challenge,
                        passkey_challenges.c.player_id,
                        passkey_challenges.c.expires_at,
                    )
                )
            ).first()
        if row is None or row.purpose != purpose or row.expires_at <= stamp(now):
            return None
        return Challenge(row.challenge, row.player_id)


def _passkey(row: sa.Row[tuple[object, ...]]) -> Passkey:
    return Passkey(
        str(row.credential_id),
        str(row.player_id),
        str(row.public_key),
        int(str(row.sign_count)),
        str(row.label),
        str(row.created_at),
        None if row.used_at is None else str(row.used_at),
    )
