"""Ratings tell robot levels apart: after a few hundred games between levels the
stronger level is rated above the weaker one (OpenSkill through the store's own
counting, on a SQLite file). ``normal`` against ``aleatorio`` always runs;
``experto`` (a search: slow on a shared machine) only with ``ESPADAS_SLOW=1``."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection

from club_helpers import T0, robot_game
from espadas.store.club_writes import CoreDb, count_game
from espadas.store.store import Store
from espadas.tables.finish import FinishedGame


def counter(game: FinishedGame) -> Callable[[Connection], bool]:
    """Counts ``game`` on a synchronous connection (for ``run_sync``)."""

    def count(conn: Connection) -> bool:
        return count_game(CoreDb(conn), game)

    return count


def rate_matches(path: Path, pairings: list[tuple[str, str]], games: int) -> dict[str, int]:
    """Plays ``games`` partnership games of each pairing (sides swapped every other
    game) and counts them; the levels' ratings."""

    async def run() -> dict[str, int]:
        store = await Store.open(f"sqlite:///{path}")
        try:
            n = 0
            for a, b in pairings:
                for i in range(games):
                    first, second = (a, b) if i % 2 == 0 else (b, a)
                    n += 1
                    game = robot_game(
                        f"r{n}", [first, second, first, second], n, T0 + timedelta(minutes=n)
                    )
                    async with store.engine.begin() as conn:
                        assert await conn.run_sync(counter(game))
            # robots are left out of the players' leaderboard: their profiles say it
            levels = {level for pair in pairings for level in pair}
            profiles = {lv: await store.club.profile(f"robot-{lv}", ()) for lv in levels}
        finally:
            await store.close()
        return {lv: p["ratings"]["partnership"]["rating"] for lv, p in profiles.items() if p}

    return asyncio.run(run())


def test_normal_is_rated_above_aleatorio(tmp_path: Path) -> None:
    ratings = rate_matches(tmp_path / "r.db", [("normal", "aleatorio")], 200)
    print(ratings)
    assert ratings["normal"] > ratings["aleatorio"] + 100, ratings


@pytest.mark.skipif(not os.environ.get("ESPADAS_SLOW"), reason="slow: set ESPADAS_SLOW=1")
def test_experto_above_normal_above_aleatorio(tmp_path: Path) -> None:
    pairings = [("normal", "aleatorio"), ("experto", "normal"), ("experto", "aleatorio")]
    ratings = rate_matches(tmp_path / "r.db", pairings, 100)
    print(ratings)
    assert ratings["experto"] > ratings["normal"] > ratings["aleatorio"], ratings
