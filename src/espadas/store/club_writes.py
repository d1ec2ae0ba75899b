"""Counting a finished game for the club: ratings, history, statistics, partners
and the leaderboards' sums, in the transaction that stores the game's end.

:func:`count_game` runs the same SQL on either of the store's two kinds of
connection (:class:`Db`: the SQLite writer's plain :mod:`sqlite3` connection or a
SQLAlchemy connection on PostgreSQL), with ``:name`` parameters both understand.
A game is counted once: its table id is unique in ``club_games`` and a second
count of it changes nothing (a retried end, a rebuild run twice). On PostgreSQL
the ratings of the game's subjects are locked (in one order, so two games never
wait for each other) before they are read, so two games that end together count
one after the other, in the order ``n`` that a rebuild follows again.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Protocol

import sqlalchemy as sa

from espadas.store.schema import STAT_COLUMNS
from espadas.tables.finish import ROBOT_PREFIX, FinishedGame
from espadas.tables.rating import Skill, display, mean, rate
from espadas.tables.statistics import SeatStats


class Db(Protocol):
    """A connection inside a transaction."""

    postgres: bool

    def rows(self, sql: str, params: dict[str, Any]) -> list[Sequence[Any]]: ...
    def many(self, sql: str, rows: list[dict[str, Any]]) -> None: ...


class SqliteDb:
    """:class:`Db` over a plain :mod:`sqlite3` connection."""

    postgres = False

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def rows(self, sql: str, params: dict[str, Any]) -> list[Sequence[Any]]:
        return self.conn.execute(sql, params).fetchall()

    def many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.conn.executemany(sql, rows)


class CoreDb:
    """:class:`Db` over a SQLAlchemy connection (PostgreSQL, or SQLite in tests)."""

    def __init__(self, conn: sa.Connection) -> None:
        self.conn = conn
        self.postgres = conn.dialect.name == "postgresql"

    def rows(self, sql: str, params: dict[str, Any]) -> list[Sequence[Any]]:
        result = self.conn.execute(sa.text(sql), params)
        return list(result.all()) if result.returns_rows else []

    def many(self, sql: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.conn.execute(sa.text(sql), rows)


def periods(at: str) -> tuple[str, ...]:
    """The leaderboard periods a game finished at ``at`` (ISO 8601, UTC) counts in.

    >>> periods("2026-12-01T19:30:00+00:00")
    ('all', 'y2026', 'm2026-12', 'w2026-49')
    """
    from datetime import datetime

    day = datetime.fromisoformat(at)
    year, week, _ = day.isocalendar()
    return ("all", f"y{day.year}", f"m{day.year}-{day.month:02d}", f"w{year}-{week:02d}")


_STATS = ", ".join(STAT_COLUMNS)
_STAT_PARAMS = ", ".join(f":{c}" for c in STAT_COLUMNS)
_STAT_SUMS = ", ".join(f"{c} = club_stats.{c} + excluded.{c}" for c in STAT_COLUMNS)

SQL = {
    "game": "INSERT INTO club_games (table_id, finished_at, preset, kind, rated, players,"
    " reason) VALUES (:table_id, :finished_at, :preset, :kind, :rated, :players, :reason)"
    " ON CONFLICT (table_id) DO NOTHING RETURNING n",
    "seat": "INSERT INTO club_seats (table_id, seat, n, subject, name, side, place, score,"
    f" {_STATS}) VALUES (:table_id, :seat, :n, :subject, :name, :side, :place, :score,"
    f" {_STAT_PARAMS})",
    "rating_row": "INSERT INTO club_ratings (subject, kind, mu, sigma, rating, uncertainty,"
    " games, won) VALUES (:subject, :kind, :mu, :sigma, :rating, :uncertainty, 0, 0)"
    " ON CONFLICT (subject, kind) DO NOTHING",
    "rating": "UPDATE club_ratings SET mu = :mu, sigma = :sigma, rating = :rating,"
    " uncertainty = :uncertainty, games = games + :games, won = won + :won"
    " WHERE subject = :subject AND kind = :kind",
    "history": "INSERT INTO club_history (subject, kind, n, table_id, at, mu, sigma, rating,"
    " uncertainty) VALUES (:subject, :kind, :n, :table_id, :at, :mu, :sigma, :rating,"
    " :uncertainty)",
    "stats": f"INSERT INTO club_stats (subject, {_STATS}) VALUES (:subject, {_STAT_PARAMS})"
    f" ON CONFLICT (subject) DO UPDATE SET {_STAT_SUMS}",
    "partner": "INSERT INTO club_partners (subject, partner, games, won)"
    " VALUES (:subject, :partner, :games, :won) ON CONFLICT (subject, partner) DO UPDATE SET"
    " games = club_partners.games + excluded.games, won = club_partners.won + excluded.won",
    "bucket": "INSERT INTO club_buckets (kind, preset, period, subject, games, won)"
    " VALUES (:kind, :preset, :period, :subject, :games, :won)"
    " ON CONFLICT (kind, preset, period, subject) DO UPDATE SET"
    " games = club_buckets.games + excluded.games, won = club_buckets.won + excluded.won",
    "pair": "INSERT INTO club_pairs (preset, period, first, second, games, won, share)"
    " VALUES (:preset, :period, :first, :second, 1, :won, -1)"
    " ON CONFLICT (preset, period, first, second) DO UPDATE SET"
    " games = club_pairs.games + 1, won = club_pairs.won + excluded.won,"
    " share = CASE WHEN club_pairs.games + 1 >= 3"
    " THEN (club_pairs.won + excluded.won) * 1.0 / (club_pairs.games + 1) ELSE -1 END",
}

RANKED_PAIR_GAMES = 3
"""A pair's games before it is ranked (``club_pairs.share``)."""


def count_game(db: Db, game: FinishedGame) -> bool:
    """Counts ``game`` for the club; False (and nothing written) if it was counted
    already."""
    subjects = sorted({s.subject for s in game.seats})
    skills: dict[str, Skill] = {}
    if game.rated:
        skills = _lock_ratings(db, game.kind, subjects)
    at = game.finished_at.isoformat()
    counted = db.rows(
        SQL["game"],
        {
            "table_id": game.table_id,
            "finished_at": at,
            "preset": game.preset,
            "kind": game.kind,
            "rated": game.rated,
            "players": game.players,
            "reason": game.reason,
        },
    )
    if not counted:
        return False
    n = int(counted[0][0])
    db.many(
        SQL["seat"],
        [
            {
                "table_id": game.table_id,
                "n": n,
                "seat": s.seat,
                "subject": s.subject,
                "name": s.name[:80] if s.subject.startswith(ROBOT_PREFIX) else "",
                "side": s.side,
                "place": s.place,
                "score": s.score,
                **s.stats.as_dict(),
            }
            for s in game.seats
        ],
    )
    _add_stats(db, game)
    if game.rated:
        _rate(db, game, skills, n, at)
        _add_buckets(db, game, at)
    return True


def _lock_ratings(db: Db, kind: str, subjects: list[str]) -> dict[str, Skill]:
    """The subjects' current skills (rows made at the start skill where missing),
    locked on PostgreSQL until the transaction ends."""
    start = Skill()
    shown, spread = display(start)
    db.many(
        SQL["rating_row"],
        [
            {
                "subject": s,
                "kind": kind,
                "mu": start.mu,
                "sigma": start.sigma,
                "rating": shown,
                "uncertainty": spread,
            }
            for s in subjects
        ],
    )
    names = ", ".join(f":s{i}" for i in range(len(subjects)))
    lock = " ORDER BY subject FOR UPDATE" if db.postgres else ""
    found = db.rows(
        f"SELECT subject, mu, sigma FROM club_ratings WHERE kind = :kind AND subject IN ({names})"
        + lock,
        {"kind": kind, **{f"s{i}": s for i, s in enumerate(subjects)}},
    )
    return {str(r[0]): Skill(float(r[1]), float(r[2])) for r in found}


def _rate(db: Db, game: FinishedGame, skills: dict[str, Skill], n: int, at: str) -> None:
    sides = len(game.ranks)
    teams = [[s for s in game.seats if s.side == side] for side in range(sides)]
    rated = rate([[skills[s.subject] for s in team] for team in teams], game.ranks)
    updates: dict[str, list[Skill]] = defaultdict(list)
    won: dict[str, int] = defaultdict(int)
    for team, new in zip(teams, rated, strict=True):
        for seat, skill in zip(team, new, strict=True):
            updates[seat.subject].append(skill)  # one seat, one game (see _add_stats)
            won[seat.subject] += int(seat.won)
    rows = []
    for subject in sorted(updates):
        skill = mean(updates[subject])
        shown, spread = display(skill)
        rows.append(
            {
                "subject": subject,
                "kind": game.kind,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "rating": shown,
                "uncertainty": spread,
                "games": len(updates[subject]),
                "won": won[subject],
                "n": n,
                "table_id": game.table_id,
                "at": at,
            }
        )
    db.many(SQL["rating"], [{k: r[k] for k in RATING_KEYS} for r in rows])
    db.many(
        SQL["history"], [{k: v for k, v in r.items() if k not in ("games", "won")} for r in rows]
    )


RATING_KEYS = ("subject", "kind", "mu", "sigma", "rating", "uncertainty", "games", "won")


def _add_stats(db: Db, game: FinishedGame) -> None:
    totals: dict[str, SeatStats] = defaultdict(SeatStats)
    partners: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for seat in game.seats:
        totals[seat.subject].add(seat.stats)
        if game.kind == "partnership":
            other = next(s for s in game.seats if s.side == seat.side and s is not seat)
            if other.subject != seat.subject:  # a robot level is not its own partner
                pair = partners[seat.subject, other.subject]
                pair[0] += 1
                pair[1] += int(seat.won)
    # a robot level counts per seat: seated three times, it played three games (and
    # won those of its seats whose side won), as its list of games shows them
    db.many(SQL["stats"], [{"subject": s, **totals[s].as_dict()} for s in sorted(totals)])
    db.many(
        SQL["partner"],
        [
            {"subject": a, "partner": b, "games": g, "won": w}
            for (a, b), (g, w) in sorted(partners.items())
        ],
    )


def _add_buckets(db: Db, game: FinishedGame, at: str) -> None:
    games: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for seat in game.seats:  # per seat, as the statistics count
        games[seat.subject] += 1
        won[seat.subject] += int(seat.won)
    keys = [(preset, period) for preset in ("*", game.preset) for period in periods(at)]
    db.many(
        SQL["bucket"],
        [
            {"kind": game.kind, "preset": p, "period": q, "subject": s, "games": games[s],
             "won": won[s]}
            for p, q in keys
            for s in sorted(won)
        ],
    )  # fmt: skip
    if game.kind != "partnership":
        return
    pairs: dict[tuple[str, str], int] = {}
    for side in range(2):
        first, second = sorted(s.subject for s in game.seats if s.side == side)
        if first != second:  # two seats of one robot level are not a pair
            pairs[first, second] = int(any(s.won for s in game.seats if s.side == side))
    db.many(
        SQL["pair"],
        [
            {"preset": p, "period": q, "first": a, "second": b, "won": w}
            for p, q in keys
            for (a, b), w in sorted(pairs.items())
        ],
    )


CLUB_TABLES = (
    "club_pairs",
    "club_buckets",
    "club_partners",
    "club_stats",
    "club_history",
    "club_ratings",
    "club_seats",
    "club_games",
)
"""What a rebuild empties (``club_hidden``, a choice of the players, stays)."""
