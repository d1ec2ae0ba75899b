"""Accounts: unique names, one-time sign-in links sent by e-mail, and a person's
data (to download it, or to delete the account).

Names are compared by :func:`name_key` (NFKC, casefolded): "ANA" and "ana" are
one name. The key of :data:`FORMER`, what a deleted person's seats are called,
is never anybody's.

A sign-in link's token is kept as its SHA-256 only, is valid for
:data:`SIGNIN_TTL` and works once.

Deleting an account keeps the player's row (nameless, ``deleted_at``) so that
whatever refers to its id still does; removes their contacts, push
subscriptions, sessions, links, passkeys, notices and memberships; and, in the
logs of the tables they sat at (and the chat messages they wrote anywhere),
replaces their name with :data:`FORMER`. Moves, scores and the rest of every
record are untouched, so every game replays as before.

>>> name_key("ÁNA"), name_key("ﬀ") == name_key("ff")
('ána', True)
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from espadas.store.outbox import stamp
from espadas.store.resume_links import token_hash
from espadas.store.schema import (
    contacts,
    events,
    members,
    notice_modes,
    notices,
    passkey_challenges,
    passkeys,
    players,
    push_subscriptions,
    resume_links,
    resume_uses,
    seen,
    sessions,
    signin_links,
    tables,
)
from espadas.tables.names import FORMER

SIGNIN_TTL = timedelta(minutes=15)
"""How long a sign-in link works."""
NAMED = ("create", "sit", "chat")
"""Events that carry a person's name (with their id as ``creator`` or ``player``)."""


def name_key(name: str) -> str:
    """The form in which names are compared: NFKC, casefolded."""
    return unicodedata.normalize("NFKC", name).casefold()


class NameTaken(Exception):
    """Another person already has this name (in any case)."""


class SigninRefused(Exception):
    """A sign-in link that does not work: ``code`` is ``bad_signin`` (no such
    link), ``signin_used`` or ``signin_expired``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Holder:
    """A person whose confirmed e-mail is some address."""

    player_id: str
    name: str
    lang: str
    email: str


class Accounts:
    """Accounts, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # -- e-mail sign-in ------------------------------------------------------------
    async def holders(self, email: str) -> list[Holder]:
        """The people (not deleted) whose confirmed address is ``email`` (in any case)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(players.c.id, players.c.name, contacts.c.lang, contacts.c.email)
                .join(contacts, contacts.c.player_id == players.c.id)
                .where(
                    sa.func.lower(contacts.c.email) == email.lower(),
                    contacts.c.confirmed.is_(True),
                    players.c.deleted_at.is_(None),
                )
                .order_by(players.c.created_at, players.c.id)
            )
            return [Holder(r.id, r.name, r.lang, r.email) for r in rows]

    async def signin_link(self, player_id: str, at: datetime) -> str:
        """A new one-time sign-in token for ``player_id``, valid :data:`SIGNIN_TTL`."""
        token = secrets.token_urlsafe(24)
        async with self.engine.begin() as conn:
            await conn.execute(
                signin_links.insert().values(
                    token_hash=token_hash(token),
                    player_id=player_id,
                    created_at=stamp(at),
                    expires_at=stamp(at + SIGNIN_TTL),
                )
            )
        return token

    async def check_signin(self, token: str, now: datetime) -> str:
        """Whose working sign-in link ``token`` is (nothing changes). Raises
        :class:`SigninRefused`."""
        async with self.engine.connect() as conn:
            return await _check(conn, token, now)

    async def use_signin(self, token: str, now: datetime) -> str:
        """Uses sign-in link ``token``: answers its person. Raises
        :class:`SigninRefused`. Of two uses at once, one wins."""
        key = token_hash(token)
        async with self.engine.begin() as conn:
            player_id = await _check(conn, token, now)
            done = await conn.execute(
                signin_links.update()
                .where(signin_links.c.token_hash == key, signin_links.c.used_at.is_(None))
                .values(used_at=stamp(now))
            )
            if not done.rowcount:
                raise SigninRefused("signin_used")
        return player_id

    # -- the person's data -----------------------------------------------------------
    async def export(self, player_id: str) -> dict[str, Any]:
        """Everything kept about ``player_id`` that is theirs to see (no secrets:
        no tokens, hashes or public keys)."""
        async with self.engine.connect() as conn:
            player = (await conn.execute(sa.select(players).where(players.c.id == player_id))).one()
            contact = (
                await conn.execute(sa.select(contacts).where(contacts.c.player_id == player_id))
            ).first()
            devices = await conn.execute(
                sa.select(sessions)
                .where(sessions.c.player_id == player_id)
                .order_by(sessions.c.created_at)
            )
            keys = await conn.execute(
                sa.select(passkeys)
                .where(passkeys.c.player_id == player_id)
                .order_by(passkeys.c.created_at)
            )
            uses = await conn.execute(
                sa.select(resume_uses)
                .where(resume_uses.c.player_id == player_id)
                .order_by(resume_uses.c.at)
            )
            pushes = await conn.execute(
                sa.select(push_subscriptions.c.endpoint, push_subscriptions.c.created_at).where(
                    push_subscriptions.c.player_id == player_id
                )
            )
            sat = await _sat_at(conn, player_id)
        names = sorted({player.name, *(s["name"] for s in sat if s["name"])})
        return {
            "format": "espadas-account/1",
            "player": {"id": player.id, "name": player.name, "created_at": player.created_at},
            "names": names,
            "contacts": []
            if contact is None or not contact.email
            else [
                {"email": contact.email, "confirmed": bool(contact.confirmed), "lang": contact.lang}
            ],
            "push_subscriptions": [
                {"endpoint": r.endpoint, "created_at": r.created_at} for r in pushes
            ],
            "devices": [
                {
                    "created_at": r.created_at,
                    "seen_at": r.seen_at,
                    "browser": r.browser,
                    "system": r.system,
                    "how": r.how,
                    "signed_out_at": r.revoked_at,
                }
                for r in devices
            ],
            "resume_uses": [{"at": r.at, "browser": r.browser, "system": r.system} for r in uses],
            "passkeys": [
                {
                    "id": r.credential_id,
                    "label": r.label,
                    "created_at": r.created_at,
                    "used_at": r.used_at,
                    "sign_count": r.sign_count,
                }
                for r in keys
            ],
            "tables": sat,
        }

    async def delete(self, player_id: str, at: datetime) -> list[str]:
        """Deletes the account of ``player_id`` (see the module's docstring), in
        one transaction; answers the tables whose logs changed."""
        async with self.engine.begin() as conn:
            changed = await _forget_name(conn, player_id)
            for table, column in (
                (contacts, contacts.c.player_id),
                (push_subscriptions, push_subscriptions.c.player_id),
                (resume_uses, resume_uses.c.player_id),
                (resume_links, resume_links.c.player_id),
                (signin_links, signin_links.c.player_id),
                (passkeys, passkeys.c.player_id),
                (passkey_challenges, passkey_challenges.c.player_id),
                (notice_modes, notice_modes.c.player_id),
                (seen, seen.c.player_id),
                (members, members.c.player_id),
            ):
                await conn.execute(table.delete().where(column == player_id))
            await conn.execute(
                notices.update()
                .where(notices.c.player_id == player_id, notices.c.state == "pending")
                .values(state="cancelled", detail="account deleted")
            )
            await conn.execute(
                sessions.update()
                .where(sessions.c.player_id == player_id, sessions.c.revoked_at.is_(None))
                .values(revoked_at=stamp(at))
            )
            await conn.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(name=FORMER, name_key=None, deleted_at=stamp(at), old_cookies_off=True)
            )
        return changed

    async def playing(self, player_id: str) -> list[str]:
        """The tables ``player_id`` sits at whose game is being played."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(tables.c.id)
                .join(members, members.c.table_id == tables.c.id)
                .where(members.c.player_id == player_id, tables.c.status == "playing")
                .order_by(tables.c.id)
            )
            return [r.id for r in rows]


async def _check(conn: AsyncConnection, token: str, now: datetime) -> str:
    row = (
        await conn.execute(
            sa.select(signin_links, players.c.deleted_at)
            .join(players, players.c.id == signin_links.c.player_id)
            .where(signin_links.c.token_hash == token_hash(token))
        )
    ).first()
    if not token or row is None or row.deleted_at is not None:
        raise SigninRefused("bad_signin")
    if row.used_at is not None:
        raise SigninRefused("signin_used")
    if row.expires_at <= stamp(now):
        raise SigninRefused("signin_expired")
    return str(row.player_id)


def _theirs(data: dict[str, Any], type_: str, player_id: str) -> bool:
    """Whether an event of ``type_`` names ``player_id`` as its person."""
    who = data.get("creator") if type_ == "create" else data.get("player")
    return who == player_id


async def _sat_at(conn: AsyncConnection, player_id: str) -> list[dict[str, Any]]:
    """The tables ``player_id`` created or sat at: id, status, seat and name there."""
    rows = await conn.execute(
        sa.select(tables.c.id, tables.c.status, tables.c.created_at, events.c.type, events.c.data)
        .join(members, members.c.table_id == tables.c.id)
        .join(events, events.c.table_id == tables.c.id)
        .where(members.c.player_id == player_id, events.c.type.in_(("create", "sit")))
        .order_by(tables.c.created_at, tables.c.id, events.c.seq)
    )
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        data = json.loads(row.data)
        if _theirs(data, row.type, player_id):
            found[row.id] = {
                "id": row.id,
                "status": row.status,
                "created_at": row.created_at,
                "seat": 0 if row.type == "create" else data.get("seat"),
                "name": data.get("name", ""),
            }
    return list(found.values())


async def _forget_name(conn: AsyncConnection, player_id: str) -> list[str]:
    """Writes :data:`FORMER` for ``player_id``'s name in every event that carries
    it: those of the tables they are a member of, and chat messages anywhere
    (a spectator's are found by a scan of chat events: deleting is rare)."""
    theirs = sa.select(members.c.table_id).where(members.c.player_id == player_id)
    pattern = "%" + player_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = await conn.execute(
        sa.select(events.c.table_id, events.c.seq, events.c.type, events.c.data).where(
            sa.or_(
                sa.and_(events.c.table_id.in_(theirs), events.c.type.in_(NAMED)),
                sa.and_(events.c.type == "chat", events.c.data.like(pattern, escape="\\")),
            )
        )
    )
    changed: set[str] = set()
    for row in rows.all():
        data = json.loads(row.data)
        if not _theirs(data, row.type, player_id) or data.get("name") == FORMER:
            continue
        data["name"] = FORMER
        await conn.execute(
            events.update()
            .where(events.c.table_id == row.table_id, events.c.seq == row.seq)
            .values(data=json.dumps(data, separators=(",", ":")))
        )
        changed.add(row.table_id)
    return sorted(changed)
