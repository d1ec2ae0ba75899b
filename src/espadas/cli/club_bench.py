"""``espadas bench club [--players N] [--games G] [--db URL]``: how fast the
club's pages' data answers with a big club.

A fresh database (a SQLite file in a temporary folder unless ``--db`` names an
empty PostgreSQL one) is migrated and filled quickly with bulk inserts, not by
playing: ``N`` players with circles of usual partners, ``G`` finished games over
the last year (partnership and individual, every preset, some robots, most of
them rated), and every row the club keeps for them (seats with statistics,
ratings and their history, sums, partners, leaderboard buckets and pairs), in
the shapes the live counting writes. Then the application itself (the FastAPI
app with its store, in this process, through ASGI: no network in the times)
answers profiles, game histories and leaderboards of every kind and filter, and
the command prints each one's p50 and p95 in milliseconds; last line
``p95_max_ms=X``.
"""

from __future__ import annotations

import asyncio
import functools
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from espadas.engine.rules import PRESETS
from espadas.store.club_writes import periods as periods_of
from espadas.store.schema import STAT_COLUMNS
from espadas.tables.rating import SIGMA, Skill, display, kind_of

LEVELS = ("aleatorio", "normal", "experto")


@functools.lru_cache(maxsize=4096)
def _periods(day: str) -> tuple[str, ...]:
    return periods_of(day + "T12:00:00+00:00")


def periods(at: str) -> tuple[str, ...]:
    """The periods of a game finished at ``at`` (by its UTC day)."""
    return _periods(at[:10])


CIRCLE = 6
"""Usual partners and opponents of each player (real clubs repeat pairs)."""


class Filler:
    """Makes the rows of a synthetic club, deterministic for a seed."""

    def __init__(self, players: int, games: int, seed: int, now: datetime) -> None:
        self.rng = random.Random(seed)
        self.players = players
        self.games = games
        self.now = now
        self.rows: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
        self.skill: dict[tuple[str, str], list[float]] = {}
        self.stats: dict[str, list[int]] = defaultdict(lambda: [0] * len(STAT_COLUMNS))
        self.partners: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.buckets: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.pairs: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
        self.strength = [self.rng.gauss(25, 4) for _ in range(players)]

    def person(self, i: int) -> str:
        return f"p{i:06d}"

    def seats_of(self, players: int) -> list[str]:
        rng = self.rng
        first = rng.randrange(self.players)
        circle = [(first + k * 7919) % self.players for k in range(1, CIRCLE + 1)]
        chosen = [first, *rng.sample(circle, players - 1)]
        out = [self.person(i) for i in chosen]
        if rng.random() < 0.15:  # robots in some seats
            for seat in range(1, players):
                if rng.random() < 0.5:
                    out[seat] = "robot-" + rng.choice(LEVELS)
        return out

    def fill(self) -> None:
        rng = self.rng
        span = timedelta(days=365)
        for g in range(1, self.games + 1):
            at = (self.now - span + span * (g / self.games)).isoformat()
            partnership = rng.random() < 0.8
            players = 4 if partnership else rng.choice((3, 4, 5, 6))
            preset = rng.choice(PRESETS)
            rated = rng.random() < 0.9
            table = f"b{g:07d}"
            seats = self.seats_of(players)
            self.rows["club_games"].append(
                (g, table, at, preset, kind_of(partnership), rated, players, "target")
            )
            self.game(g, table, at, preset, partnership, rated, seats)

    def game(
        self,
        n: int,
        table: str,
        at: str,
        preset: str,
        partnership: bool,
        rated: bool,
        seats: list[str],
    ) -> None:
        rng = self.rng
        sides = 2 if partnership else len(seats)
        order = list(range(sides))
        rng.shuffle(order)
        place = {side: i + 1 for i, side in enumerate(order)}
        kind = kind_of(partnership)
        hands = rng.randrange(4, 14)
        scores = [rng.randrange(-100, 520) for _ in range(sides)]
        won_by: dict[str, int] = {}
        for seat, subject in enumerate(seats):
            side = seat % 2 if partnership else seat
            won = int(place[side] == 1)
            won_by[subject] = max(won_by.get(subject, 0), won)
            contracts = rng.randrange(hands // 2, hands + 1)
            nil = rng.randrange(0, max(1, hands - contracts + 1))
            stats = [
                1,
                won,
                hands,
                contracts,
                rng.randrange(contracts // 2, contracts + 1),
                nil,
                rng.randrange(0, nil + 1),
                0,
                0,
                rng.randrange(0, 2 * hands),
                rng.randrange(0, 2 * hands),
                rng.randrange(0, hands),
                int(rng.random() < 0.05),
                0,
                0,
                scores[side],
            ]
            total = self.stats[subject]
            for i, v in enumerate(stats):
                total[i] += v
            self.rows["club_seats"].append(
                (table, seat, n, subject, subject, side, place[side], scores[side], *stats)
            )
            if partnership:
                partner = seats[(seat + 2) % 4]
                one = self.partners[subject, partner]
                one[0] += 1
                one[1] += won
        if not rated:
            return
        for subject, won in won_by.items():
            mu, sigma = self.skill.get((subject, kind), [25.0, SIGMA])
            target = self.strength[int(subject[1:])] if subject[0] == "p" else 25.0
            mu += (target - mu) * 0.1 + rng.gauss(0, 0.5) + (0.3 if won else -0.3)
            sigma = max(0.8, sigma * 0.97)
            self.skill[subject, kind] = [mu, sigma]
            shown, spread = display(Skill(mu, sigma))
            self.rows["club_history"].append(
                (subject, kind, n, table, at, mu, sigma, shown, spread)
            )
            for p in ("*", preset):
                for q in periods(at):
                    bucket = self.buckets[kind, p, q, subject]
                    bucket[0] += 1
                    bucket[1] += won
        if partnership:
            for side in (0, 1):
                a, b = sorted((seats[side], seats[side + 2]))
                won = int(place[side] == 1)
                for p in ("*", preset):
                    for q in periods(at):
                        pair = self.pairs[p, q, a, b]
                        pair[0] += 1
                        pair[1] += won

    def sums(self) -> None:
        """The rows of the sums, once every game is made."""
        rows = self.rows
        wins: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
        for (kind, preset, period, subject), (g, w) in self.buckets.items():
            rows["club_buckets"].append((kind, preset, period, subject, g, w))
            if preset == "*" and period == "all":
                wins[subject, kind] = [g, w]
        for (subject, kind), (mu, sigma) in self.skill.items():
            shown, spread = display(Skill(mu, sigma))
            g, w = wins[subject, kind]
            rows["club_ratings"].append((subject, kind, mu, sigma, shown, spread, g, w))
        rows["club_stats"] = [(s, *v) for s, v in self.stats.items()]
        rows["club_partners"] = [(a, b, g, w) for (a, b), (g, w) in self.partners.items()]
        rows["club_pairs"] = [
            (p, q, a, b, g, w, w / g if g >= 3 else -1.0)
            for (p, q, a, b), (g, w) in self.pairs.items()
        ]
        created = self.now.isoformat()
        rows["players"] = [(self.person(i), f"Jugador {i}", created) for i in range(self.players)]


COLUMNS = {
    "players": ("id", "name", "created_at"),
    "club_games": ("n", "table_id", "finished_at", "preset", "kind", "rated", "players", "reason"),
    "club_seats": (
        "table_id",
        "seat",
        "n",
        "subject",
        "name",
        "side",
        "place",
        "score",
        *STAT_COLUMNS,
    ),
    "club_history": (
        "subject",
        "kind",
        "n",
        "table_id",
        "at",
        "mu",
        "sigma",
        "rating",
        "uncertainty",
    ),
    "club_ratings": ("subject", "kind", "mu", "sigma", "rating", "uncertainty", "games", "won"),
    "club_stats": ("subject", *STAT_COLUMNS),
    "club_partners": ("subject", "partner", "games", "won"),
    "club_buckets": ("kind", "preset", "period", "subject", "games", "won"),
    "club_pairs": ("preset", "period", "first", "second", "games", "won", "share"),
}


def insert_sqlite(path: str, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for name, columns in COLUMNS.items():
        marks = ", ".join("?" for _ in columns)
        conn.executemany(f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})", rows[name])
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.close()


async def insert_postgres(url: str, rows: dict[str, list[tuple[Any, ...]]]) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        for name, columns in COLUMNS.items():
            await conn.copy_records_to_table(name, records=rows[name], columns=list(columns))
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    (2.0, 4.0)
    """
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


async def measure(url: str, data: Path, players: int, rounds: int, seed: int) -> dict[str, Any]:
    """p50 and p95 (ms) of each kind of request through the app."""
    import httpx

    from espadas.server.app import create_app
    from espadas.server.settings import Settings

    settings = Settings(
        data=data, db=url, robot_workers=0, notices=False, rate=1e9, burst=1_000_000_000
    )
    app = create_app(settings)
    rng = random.Random(seed)

    def someone() -> str:
        return f"p{rng.randrange(players):06d}"

    kinds: dict[str, Callable[[], str]] = {
        "profile": lambda: f"/api/club/players/{someone()}",
        "profile_robot": lambda: f"/api/club/players/robot-{rng.choice(LEVELS)}",
        "history": lambda: f"/api/club/players/{someone()}/games?limit=20",
        "history_robot": lambda: f"/api/club/players/robot-{rng.choice(LEVELS)}/games?limit=20",
        "leaderboard": lambda: "/api/club/leaderboard?kind=partnership",
        "leaderboard_individual": lambda: "/api/club/leaderboard?kind=individual",
        "leaderboard_filtered": lambda: (
            "/api/club/leaderboard?kind=partnership&preset="
            + rng.choice(PRESETS)
            + "&period="
            + rng.choice(("all", "year", "month", "week"))
        ),
        "leaderboard_pairs": lambda: (
            "/api/club/leaderboard?kind=pairs&period="
            + rng.choice(("all", "year", "month", "week"))
        ),
    }
    times: dict[str, list[float]] = defaultdict(list)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as http:
            for path in [make() for make in kinds.values()]:  # warm up
                assert (await http.get(path)).status_code == 200, path
            for _ in range(rounds):
                for name, make in kinds.items():
                    path = make()
                    started = time.perf_counter()
                    answer = await http.get(path)
                    times[name].append((time.perf_counter() - started) * 1000)
                    if answer.status_code != 200:
                        raise RuntimeError(f"{path}: {answer.status_code} {answer.text[:200]}")
    return {
        name: {
            "p50_ms": round(statistics.median(v), 2),
            "p95_ms": round(percentile(v, 0.95), 2),
        }
        for name, v in times.items()
    }


def run_bench(
    players: int, games: int, db: str | None, rounds: int, seed: int, say: Any
) -> dict[str, Any]:
    """Fills a fresh database and measures; the figures."""
    from espadas.store.store import Store

    with tempfile.TemporaryDirectory(prefix="espadas-club-bench-") as tmp:
        url = db or f"sqlite:///{tmp}/club.db"

        async def migrate() -> None:
            store = await Store.open(url)
            await store.close()

        asyncio.run(migrate())
        started = time.perf_counter()
        filler = Filler(players, games, seed, datetime.now(UTC))
        filler.fill()
        filler.sums()
        made = time.perf_counter() - started
        say(f"made {sum(len(r) for r in filler.rows.values())} rows in {made:.1f} s")
        if url.startswith("sqlite"):
            insert_sqlite(url.removeprefix("sqlite:///"), filler.rows)
        else:
            asyncio.run(insert_postgres(url, filler.rows))
        filled = time.perf_counter() - started
        say(f"filled the database in {filled:.1f} s")
        figures = asyncio.run(measure(url, Path(tmp), players, rounds, seed))
    return {
        "players": players,
        "games": games,
        "database": "postgresql" if db else "sqlite",
        "rows": {name: len(r) for name, r in filler.rows.items()},
        "fill_s": round(filled, 1),
        "requests": rounds,
        "figures": figures,
    }
