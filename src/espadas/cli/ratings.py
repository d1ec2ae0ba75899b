"""``espadas ratings rebuild [--db URL] [--data DIR]``: counts every finished game
again for the club (ratings, history, statistics, partners, leaderboards) from
the stored logs, as the live counts did (:mod:`espadas.store.club_rebuild`).

Prints ``challenge_days=D challenge_players=P`` (the daily challenge's own
rating, counted again from each closed day's results:
:mod:`espadas.store.challenge_ratings`), then ``games=N rated=M skipped=K``
(``skipped``: finished tables whose log makes no finished game). Run it once
after upgrading to count the games that finished before the club counted games.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from espadas.server.settings import Settings


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "ratings", help="the club's ratings: rebuild them from the stored games"
    )
    p.add_argument("action", choices=["rebuild"], help="rebuild: count every finished game again")
    p.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///FILE (default: DATA/espadas.db) or postgresql://...",
    )
    p.add_argument("--data", default="espadas-data", help="the server's data folder")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from espadas.server.challenges import start_time
    from espadas.store.club_rebuild import rebuild
    from espadas.store.store import Store
    from espadas.tables.challenge import day_of

    settings = Settings(data=Path(args.data), db=args.db)
    url = settings.db_url

    async def main() -> str:
        store = await Store.open(url)
        try:
            done = await rebuild(store)
            now = settings.clock.now()
            today = day_of(now, start_time(settings.challenge_start))
            days = await store.challenge_ratings.rebuild(today, now)
        finally:
            await store.close()
        return (
            f"challenge_days={days.days} challenge_players={days.players}\n"
            f"games={done.games} rated={done.rated} skipped={done.skipped}"
        )

    print(asyncio.run(main()), flush=True)
    return 0
