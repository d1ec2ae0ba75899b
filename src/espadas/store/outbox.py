"""The outbox of turn notices, and what notices need: contacts (e-mail),
Web Push subscriptions, per-table modes and what each person has seen.

Timers live here, in the database: a notice is a row with a ``due_at``. A
sender claims a due row by moving it from ``pending`` to ``sending`` in one
conditional update, so two instances never send the same notice; a row left
in ``sending`` by a crash is put back after a while.

A row's ``state`` is ``pending`` (due at ``due_at``; after a failed attempt,
``attempts`` counts the failures and ``detail`` holds the last reason),
``sending`` (claimed), then ``sent``, ``skipped``, ``cancelled`` or, after the
last attempt the notifier allows, ``failed`` for good.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from espadas.store.schema import contacts, notice_modes, notices, push_subscriptions, seen
from espadas.tables.notice import Notice

MODES = ("on", "off", "digest")


def stamp(at: datetime) -> str:
    """A UTC time in one fixed form, so that text order is time order.

    >>> stamp(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000Z'
    """
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def unstamp(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def _insert(conn: AsyncConnection | sa.Connection, table: sa.Table) -> Any:
    """``INSERT`` in the connection's dialect (which has ``ON CONFLICT``)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def _insert_ignoring(conn: AsyncConnection | sa.Connection, table: sa.Table) -> Any:
    """``INSERT … ON CONFLICT DO NOTHING`` in the connection's dialect."""
    return _insert(conn, table).on_conflict_do_nothing()


def notice_rows(planned: Sequence[Notice]) -> list[dict[str, Any]]:
    """The ``notices`` rows of planned notices."""
    return [
        {
            "key": n.key,
            "table_id": n.table,
            "player_id": n.player,
            "kind": n.kind,
            "version": n.version,
            "due_at": stamp(n.due_at),
            "state": "pending",
            "attempts": 0,
        }
        for n in planned
    ]


def insert_notices(conn: sa.Connection, planned: Sequence[Notice]) -> None:
    """Adds planned notices; one already planned (same key) is left as it is."""
    insert_notice_rows(conn, notice_rows(planned))


def insert_notice_rows(conn: sa.Connection, rows: list[dict[str, Any]]) -> None:
    """Adds notices given as rows (see :func:`notice_rows`), keeping those already
    planned under the same key."""
    if rows:
        conn.execute(_insert_ignoring(conn, notices), rows)


@dataclass(frozen=True)
class Contact:
    """A person's e-mail for notices (``confirmed`` once the link was opened)."""

    player: str
    email: str | None
    confirmed: bool
    lang: str
    unsubscribe_token: str


@dataclass(frozen=True)
class Due:
    """A claimed notice, ready to be sent."""

    id: int
    notice: Notice
    attempts: int


class Outbox:
    """Notices and what they need, in the store's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def _scalar(self, query: Any) -> Any:
        """The single value ``query`` selects (``None`` when no row)."""
        async with self.engine.connect() as conn:
            return (await conn.execute(query)).scalar()

    # -- notices ----------------------------------------------------------------
    async def add(self, planned: list[Notice]) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(insert_notices, planned)

    async def claim_due(self, now: datetime, limit: int = 200) -> list[Due]:
        """Claims up to ``limit`` due notices for this sender, in one statement: a
        row another sender claimed first is not returned."""
        async with self.engine.begin() as conn:
            due = (
                sa.select(notices.c.id)
                .where(notices.c.state == "pending", notices.c.due_at <= stamp(now))
                .order_by(notices.c.due_at)
                .limit(limit)
                .scalar_subquery()
            )
            rows = (
                await conn.execute(
                    notices.update()
                    .where(notices.c.id.in_(due), notices.c.state == "pending")
                    .values(state="sending", claimed_at=stamp(now))
                    .returning(
                        notices.c.id,
                        notices.c.key,
                        notices.c.table_id,
                        notices.c.player_id,
                        notices.c.kind,
                        notices.c.version,
                        notices.c.due_at,
                        notices.c.attempts,
                    )
                )
            ).all()
        return [
            Due(
                row.id,
                Notice(
                    row.key, row.table_id, row.player_id, row.kind, row.version, unstamp(row.due_at)
                ),
                row.attempts,
            )
            for row in sorted(rows, key=lambda r: r.due_at)
        ]

    async def finish_many(self, ended: list[tuple[int, str, str]], now: datetime) -> None:
        """Ends several claimed notices in one transaction: (id, state, detail)."""
        if not ended:
            return
        async with self.engine.begin() as conn:
            for notice_id, state, detail in ended:
                await conn.execute(
                    notices.update()
                    .where(notices.c.id == notice_id)
                    .values(
                        state=state,
                        sent_at=stamp(now) if state == "sent" else None,
                        detail=detail[:300],
                    )
                )

    async def finish(self, notice_id: int, state: str, now: datetime, detail: str = "") -> None:
        """Ends a claimed notice: ``sent``, ``skipped``, ``cancelled`` or ``failed``."""
        await self.finish_many([(notice_id, state, detail)], now)

    async def retry(self, notice_id: int, at: datetime | None, detail: str) -> None:
        """Records a failed attempt of a claimed notice: ``attempts`` goes up by
        one and ``detail`` says why; the notice is due again at ``at``, or
        ``failed`` for good when ``at`` is ``None``."""
        values: dict[str, Any] = {"attempts": notices.c.attempts + 1, "detail": detail[:300]}
        if at is None:
            values["state"] = "failed"
        else:
            values.update(state="pending", due_at=stamp(at))
        async with self.engine.begin() as conn:
            await conn.execute(notices.update().where(notices.c.id == notice_id).values(**values))

    async def requeue_stale(self, before: datetime, max_attempts: int | None = None) -> int:
        """Puts back notices claimed before ``before`` by a sender that stopped.
        With ``max_attempts``, that counts as an attempt, and a notice that has
        had ``max_attempts`` is left ``failed`` instead (a notice that stops
        its sender every time is not tried for ever)."""
        values: dict[str, Any] = {"state": "pending"}
        if max_attempts is not None:
            values = {
                "attempts": notices.c.attempts + 1,
                "state": sa.case(
                    (notices.c.attempts + 1 >= max_attempts, "failed"), else_="pending"
                ),
                "detail": "claimed by a sender that stopped",
            }
        async with self.engine.begin() as conn:
            done = await conn.execute(
                notices.update()
                .where(notices.c.state == "sending", notices.c.claimed_at < stamp(before))
                .values(**values)
            )
        return int(done.rowcount)

    async def last_sent(self, player: str, table: str) -> datetime | None:
        value = await self._scalar(
            sa.select(sa.func.max(notices.c.sent_at)).where(
                notices.c.player_id == player,
                notices.c.table_id == table,
                notices.c.state == "sent",
            )
        )
        return None if value is None else unstamp(value)

    async def history(self, player: str | None = None) -> list[dict[str, Any]]:
        """Every notice (of ``player``), oldest first: for tests and operators."""
        query = sa.select(notices).order_by(notices.c.id)
        if player is not None:
            query = query.where(notices.c.player_id == player)
        async with self.engine.connect() as conn:
            return [dict(r._mapping) for r in await conn.execute(query)]

    # -- contacts -----------------------------------------------------------------
    async def contact(self, player: str) -> Contact | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(contacts).where(contacts.c.player_id == player))
            ).first()
        if row is None:
            return None
        return Contact(
            row.player_id, row.email, bool(row.confirmed), row.lang, row.unsubscribe_token
        )

    async def set_email(self, player: str, email: str | None, lang: str, now: datetime) -> str:
        """Sets (or clears) the address, unconfirmed; returns the confirmation token."""
        token = secrets.token_urlsafe(24)
        current = await self.contact(player)
        values = {
            "email": email,
            "confirmed": False,
            "confirm_token": token if email else None,
            "lang": lang,
            "updated_at": stamp(now),
        }
        async with self.engine.begin() as conn:
            if current is None:
                await conn.execute(
                    contacts.insert().values(
                        player_id=player, unsubscribe_token=secrets.token_urlsafe(24), **values
                    )
                )
            else:
                await conn.execute(
                    contacts.update().where(contacts.c.player_id == player).values(**values)
                )
        return token

    async def set_lang(self, player: str, lang: str, now: datetime) -> None:
        if await self.contact(player) is None:
            await self.set_email(player, None, lang, now)
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                contacts.update().where(contacts.c.player_id == player).values(lang=lang)
            )

    async def confirm(self, token: str) -> str | None:
        """Confirms the address whose link carries ``token``; the player, or None."""
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(contacts.c.player_id).where(contacts.c.confirm_token == token)
                )
            ).first()
            if row is None:
                return None
            await conn.execute(
                contacts.update()
                .where(contacts.c.player_id == row.player_id)
                .values(confirmed=True, confirm_token=None)
            )
        return str(row.player_id)

    async def unsubscribe(self, token: str, table: str | None) -> str | None:
        """Turns notices off for ``table`` (or every e-mail notice when ``None``)
        for the person whose unsubscribe link carries ``token``."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(contacts.c.player_id).where(contacts.c.unsubscribe_token == token)
                )
            ).first()
        if row is None:
            return None
        player = str(row.player_id)
        if table is None:
            async with self.engine.begin() as conn:
                await conn.execute(
                    contacts.update()
                    .where(contacts.c.player_id == player)
                    .values(email=None, confirmed=False)
                )
        else:
            await self.set_mode(player, table, "off")
        return player

    # -- modes and push ---------------------------------------------------------------
    async def set_mode(self, player: str, table: str, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}")
        async with self.engine.begin() as conn:
            await conn.execute(
                notice_modes.delete().where(
                    notice_modes.c.player_id == player, notice_modes.c.table_id == table
                )
            )
            await conn.execute(
                notice_modes.insert().values(player_id=player, table_id=table, mode=mode)
            )

    async def mode(self, player: str, table: str) -> str:
        value = await self._scalar(
            sa.select(notice_modes.c.mode).where(
                notice_modes.c.player_id == player, notice_modes.c.table_id == table
            )
        )
        return str(value) if value else "on"

    async def add_subscription(
        self, player: str, subscription: dict[str, Any], now: datetime
    ) -> None:
        endpoint = subscription["endpoint"]
        async with self.engine.begin() as conn:
            await conn.execute(
                push_subscriptions.delete().where(push_subscriptions.c.endpoint == endpoint)
            )
            await conn.execute(
                push_subscriptions.insert().values(
                    endpoint=endpoint,
                    player_id=player,
                    data=json.dumps(subscription),
                    created_at=stamp(now),
                )
            )

    async def remove_subscription(self, endpoint: str, player: str | None = None) -> None:
        query = push_subscriptions.delete().where(push_subscriptions.c.endpoint == endpoint)
        if player is not None:
            query = query.where(push_subscriptions.c.player_id == player)
        async with self.engine.begin() as conn:
            await conn.execute(query)

    async def subscriptions(self, player: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(push_subscriptions.c.data).where(push_subscriptions.c.player_id == player)
            )
            return [json.loads(r.data) for r in rows]

    # -- seen -------------------------------------------------------------------------
    async def mark_seen(self, marks: list[tuple[str, str, int]]) -> None:
        """Records what people were shown, ``(player, table, version)`` each, in one
        transaction; a version never goes back."""
        if not marks:
            return
        async with self.engine.begin() as conn:
            insert = _insert(conn, seen)
            newest = sa.func.max if conn.dialect.name == "sqlite" else sa.func.greatest
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=[seen.c.player_id, seen.c.table_id],
                    set_={"version": newest(seen.c.version, insert.excluded.version)},
                ),
                [{"player_id": p, "table_id": t, "version": v} for p, t, v in marks],
            )

    async def seen_version(self, player: str, table: str) -> int:
        value = await self._scalar(
            sa.select(seen.c.version).where(seen.c.player_id == player, seen.c.table_id == table)
        )
        return int(value or 0)
