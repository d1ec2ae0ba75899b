"""Duplicate events in the store: the event, who joined, each round's tables.

Races are settled by the database: a player joining twice (the key on
``(event_id, player_id)``), two instances opening the same round (the round moves
on only from the one it was at: :meth:`Tournaments.open_round` returns False to the
one that lost, and its tables are not written).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from espadas.store.accounts import name_key
from espadas.store.schema import players
from espadas.store.schema import tournament_entrants as event_entrants
from espadas.store.schema import tournament_tables as event_tables
from espadas.store.schema import tournaments as events
from espadas.tables.table import Table as GameTable
from espadas.tables.tournament import seat_entrants

if TYPE_CHECKING:
    from espadas.store.store import Store


@dataclass(frozen=True)
class EventRow:
    id: str
    name: str
    organiser_id: str
    organiser_name: str
    spec: dict[str, Any]
    commitment: str
    boards: dict[str, Any]
    """The boards file with every deal and salt: never shown before the end."""
    token: str
    status: str
    round: int
    created_at: str
    started_at: str | None
    finished_at: str | None


@dataclass(frozen=True)
class Entrant:
    player_id: str
    name: str
    joined_at: str


@dataclass(frozen=True)
class EventTable:
    round: int
    number: int
    table_id: str
    seats: list[str | None]


def _event(row: Any) -> EventRow:
    return EventRow(
        row.id,
        row.name,
        row.organiser_id,
        row.organiser_name,
        json.loads(row.spec),
        row.commitment,
        json.loads(row.boards),
        row.token,
        row.status,
        int(row.round),
        row.created_at,
        row.started_at,
        row.finished_at,
    )


class Tournaments:
    """Events, entrants and tables in one database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def create(
        self,
        event_id: str,
        spec: dict[str, Any],
        organiser: tuple[str, str],
        commitment: str,
        boards: dict[str, Any],
        token: str,
        at: datetime,
    ) -> EventRow:
        async with self.engine.begin() as conn:
            await conn.execute(
                events.insert().values(
                    id=event_id,
                    name=spec["name"],
                    organiser_id=organiser[0],
                    organiser_name=organiser[1],
                    spec=json.dumps(spec, ensure_ascii=False),
                    commitment=commitment,
                    boards=json.dumps(boards),
                    token=token,
                    status="open",
                    round=0,
                    created_at=at.isoformat(),
                )
            )
        found = await self.get(event_id)
        assert found is not None
        return found

    async def get(self, event_id: str) -> EventRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(events).where(events.c.id == event_id))).first()
        return None if row is None else _event(row)

    async def newest(self, limit: int = 100) -> list[EventRow]:
        """The newest events first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(events).order_by(events.c.created_at.desc(), events.c.id).limit(limit)
            )
            return [_event(r) for r in rows]

    async def unfinished(self) -> list[str]:
        """The ids of the events not finished (to start or close them on time)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(events.c.id).where(events.c.status != "finished"))
            return [r.id for r in rows]

    async def join(self, event_id: str, player_id: str, name: str, at: datetime) -> bool:
        """Adds the entrant; False if they had joined already."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    event_entrants.insert().values(
                        event_id=event_id, player_id=player_id, name=name, joined_at=at.isoformat()
                    )
                )
        except IntegrityError:
            return False
        return True

    async def leave(self, event_id: str, player_id: str) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                event_entrants.delete().where(
                    event_entrants.c.event_id == event_id,
                    event_entrants.c.player_id == player_id,
                )
            )
            return bool(done.rowcount)

    async def entrants(self, event_id: str) -> list[Entrant]:
        """In the order they joined."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(event_entrants)
                .where(event_entrants.c.event_id == event_id)
                .order_by(event_entrants.c.joined_at, event_entrants.c.player_id)
            )
            return [Entrant(r.player_id, r.name, r.joined_at) for r in rows]

    async def open_round(
        self, event_id: str, round_: int, tables: list[EventTable], at: datetime
    ) -> bool:
        """Moves the event from round ``round_ - 1`` to ``round_`` with these tables
        (the first round starts the event). False if another caller did first."""
        values: dict[str, Any] = {"round": round_, "status": "playing"}
        if round_ == 1:
            values["started_at"] = at.isoformat()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                events.update()
                .where(events.c.id == event_id, events.c.round == round_ - 1)
                .values(**values)
            )
            if not done.rowcount:
                return False
            for t in tables:
                await conn.execute(
                    event_tables.insert().values(
                        event_id=event_id,
                        round=t.round,
                        number=t.number,
                        table_id=t.table_id,
                        seats=json.dumps(t.seats),
                    )
                )
        return True

    async def finish(self, event_id: str, at: datetime) -> bool:
        async with self.engine.begin() as conn:
            done = await conn.execute(
                events.update()
                .where(events.c.id == event_id, events.c.status != "finished")
                .values(status="finished", finished_at=at.isoformat())
            )
            return bool(done.rowcount)

    async def tables(self, event_id: str) -> list[EventTable]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(event_tables)
                .where(event_tables.c.event_id == event_id)
                .order_by(event_tables.c.round, event_tables.c.number)
            )
            return [EventTable(r.round, r.number, r.table_id, json.loads(r.seats)) for r in rows]

    async def player_named(self, who: str) -> tuple[str, str] | None:
        """A player's ``(id, name)`` by id, or by name (any case) when only one
        player has it."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(players.c.id, players.c.name).where(
                        sa.or_(
                            players.c.id == who,
                            players.c.name_key == name_key(who),
                            sa.func.lower(players.c.name) == who.lower(),
                        ),
                        players.c.deleted_at.is_(None),
                    )
                )
            ).all()
        exact = [r for r in rows if r.id == who]
        found = exact or rows
        return (found[0].id, found[0].name) if len(found) == 1 else None


async def stored_records(store: Store, event_id: str) -> list[tuple[EventTable, dict[str, Any]]]:
    """Each table of an event and its record, rebuilt from the stored logs alone,
    with the names the event seated there (``entrants``, as the server's)."""
    out = []
    from espadas.store.store import UnknownTable

    db = Tournaments(store.engine)
    names = {e.player_id: e.name for e in await db.entrants(event_id)}
    for row in await db.tables(event_id):
        try:
            events_ = await store.events(row.table_id)
        except UnknownTable:  # written, not opened yet (no board played there)
            continue
        if events_:
            record = GameTable.rebuild(row.table_id, events_).record()
            out.append((row, record | {"entrants": seat_entrants(row.seats, names)}))
    return out
