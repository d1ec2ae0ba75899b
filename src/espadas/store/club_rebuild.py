"""Counting every finished game again from the stored logs (``espadas ratings
rebuild``): the same numbers as the live counts gave.

Each finished table's log is replayed (:func:`~espadas.tables.finish.finished_from_log`)
and counted by the same :func:`~espadas.store.club_writes.count_game` as when it
ended, in the same order: games counted live in their order ``n``, after the
games that never were (finished before the club counted games), in the order they
finished. It all happens in one transaction: readers see the old numbers until
the new ones are complete.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from espadas.store.club_writes import CLUB_TABLES, CoreDb, count_game
from espadas.store.schema import club_games, tables
from espadas.store.store import Store
from espadas.tables.finish import FinishedGame, finished_from_log


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild counted: games, rated games, and finished tables whose log
    does not make a finished game (counted in ``skipped``)."""

    games: int
    rated: int
    skipped: int


async def rebuild(store: Store) -> Rebuilt:
    """Empties the club's numbers (the hidden choices stay) and counts every
    finished game again."""
    async with store.engine.connect() as conn:
        ids = [
            r.id
            for r in await conn.execute(
                sa.select(tables.c.id)
                .where(tables.c.status == "finished", tables.c.id.not_like("reto-%"))
                .order_by(tables.c.id)  # a daily challenge's tables count apart
            )
        ]
        order = {
            r.table_id: r.n
            for r in await conn.execute(sa.select(club_games.c.table_id, club_games.c.n))
        }
    games: list[FinishedGame] = []
    skipped = 0
    for table_id in ids:
        game = finished_from_log(table_id, await store.events(table_id))
        if game is None:
            skipped += 1
        else:
            games.append(game)
    games.sort(key=lambda g: _order(g, order))

    def count_all(conn: sa.Connection) -> None:
        for name in CLUB_TABLES:
            conn.execute(sa.text(f"DELETE FROM {name}"))
        db = CoreDb(conn)
        for game in games:
            count_game(db, game)

    async with store.engine.begin() as conn:
        await conn.run_sync(count_all)
    return Rebuilt(len(games), sum(g.rated for g in games), skipped)


def _order(game: FinishedGame, live: dict[str, int]) -> tuple[int, int, str, str]:
    n = live.get(game.table_id)
    if n is None:
        return (0, 0, game.finished_at.isoformat(), game.table_id)
    return (1, n, "", game.table_id)
