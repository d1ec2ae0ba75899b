"""How a table deals its next hand: a daily challenge's boards, an event's boards,
or the cryptographic source (every other table). The table routes and the live
socket ask this one object."""

from __future__ import annotations

from typing import Protocol

from espadas.tables.table import Dealer, Table
from espadas.tables.tournament import event_of_table


class Source(Protocol):
    async def ready(self, table_id: str) -> None: ...

    def dealer_for(self, table: Table) -> Dealer: ...


class Dealing:
    """The challenge's dealing for its tables, the events' for theirs."""

    def __init__(self, challenges: Source, events: Source) -> None:
        self.challenges = challenges
        self.events = events

    async def ready(self, table_id: str) -> None:
        if event_of_table(table_id) is not None:
            await self.events.ready(table_id)
        else:
            await self.challenges.ready(table_id)

    def dealer_for(self, table: Table) -> Dealer:
        if event_of_table(table.id) is not None:
            return self.events.dealer_for(table)
        return self.challenges.dealer_for(table)
