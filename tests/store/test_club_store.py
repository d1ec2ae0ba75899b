"""The club's numbers in the store: counted in the transaction of a game's end,
once per table, and the same again after ``rebuild``, on SQLite and PostgreSQL.

Games are whole games played by robots at real tables (tests/club_helpers.py),
stored through :meth:`Store.append` as the hub stores them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from club_helpers import T0, played_table
from espadas.store.club_rebuild import rebuild
from espadas.store.club_writes import CLUB_TABLES, CoreDb, count_game
from espadas.store.store import Conflict, Store
from espadas.tables.finish import finished_game
from server_helpers import fresh_postgres

Runner = tuple[Store, asyncio.Runner]


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Runner]:
    with ExitStack() as stack:
        url = (
            f"sqlite:///{tmp_path}/club.db"
            if request.param == "sqlite"
            else stack.enter_context(fresh_postgres())
        )
        runner = stack.enter_context(asyncio.Runner())
        store = runner.run(Store.open(url))
        try:
            yield store, runner
        finally:
            runner.run(store.close())


async def store_game(store: Store, table_id: str, seats: list[str], seed: int, **kw: Any) -> None:
    """Plays a game and stores it as the hub does: its log up to the last move,
    then the move that ends it with the club's account of the game."""
    table, log, ended = played_table(table_id, seats, seed, **kw)
    await store.append(table_id, 0, log[:ended], "playing", seats[0])
    await store.append(table_id, ended, log[ended:], "finished", finished=finished_game(table))


async def snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row the club keeps, without the counting order ``n`` (a PostgreSQL
    sequence goes on counting after a rebuild; the order itself is compared)."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    async with store.engine.connect() as conn:
        for name in CLUB_TABLES:
            result = await conn.execute(sa.text(f"SELECT * FROM {name}"))
            keys = list(result.keys())
            rows = [tuple(v for k, v in zip(keys, r, strict=True) if k != "n") for r in result]
            out[name] = sorted(rows, key=repr)
        history = await conn.execute(
            sa.text("SELECT subject, kind, table_id FROM club_history ORDER BY subject, kind, n")
        )
        out["history order"] = [tuple(r) for r in history]
    return out


GAMES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("g1", ["ana", "bea", "robot:normal", "robot:aleatorio"], {}),
    ("g2", ["ana", "carla", "bea", "robot:normal"], {"preset": "estandar"}),
    ("g3", ["bea", "ana", "carla"], {"players": 3}),
    ("g4", ["carla", "robot:normal", "ana", "robot:normal", "bea"], {"players": 5}),
    ("g5", ["ana", "bea", "carla", "dani"], {"rated": False}),
    ("g6", ["dani", "ana", "robot:aleatorio", "bea"], {"leave": 1}),
    ("g7", ["ana", "robot:normal", "robot:normal", "robot:normal", "robot:aleatorio", "bea"],
     {"players": 6}),
]  # fmt: skip


async def store_all(store: Store) -> None:
    for i, (table_id, seats, options) in enumerate(GAMES):
        start = T0 + timedelta(days=i)
        await store_game(store, table_id, seats, 10 + i, start=start, **options)


def test_game_end_counts_ratings_and_statistics(db: Runner) -> None:
    store, runner = db
    runner.run(store_game(store, "g1", ["ana", "bea", "robot:normal", "robot:aleatorio"], 3))
    ana = runner.run(store.club.profile("ana", ()))
    assert ana is not None and ana["stats"]["games"] == 1 and ana["stats"]["hands"] > 0
    rating = ana["ratings"]["partnership"]
    assert rating["games"] == 1 and rating["provisional"] and len(rating["history"]) == 1
    assert ana["ratings"]["individual"] is None
    assert ana["partners"][0]["id"] == "robot-normal"
    board = runner.run(store.club.leaderboard("partnership", None, "all", 10))
    assert {r["id"] for r in board} == {"ana", "bea"}  # robots are left out of it
    winners = [r for r in board if r["won"]]
    assert {r["id"] for r in winners} in ({"ana"}, {"bea"})
    assert min(r["rating"] for r in winners) > max(r["rating"] for r in board if not r["won"])


def test_a_retried_end_counts_once(db: Runner) -> None:
    store, runner = db
    table, log, ended = played_table("g1", ["ana", "bea", "robot:normal", "robot:aleatorio"], 4)
    game = finished_game(table)
    runner.run(store.append("g1", 0, log[:ended], "playing", "ana"))
    runner.run(store.append("g1", ended, log[ended:], "finished", finished=game))
    counted = runner.run(snapshot(store))
    with pytest.raises(Conflict):  # the same end stored again: refused whole
        runner.run(store.append("g1", ended, log[ended:], "finished", finished=game))

    async def count_again() -> bool:
        async with store.engine.begin() as conn:
            return await conn.run_sync(lambda c: count_game(CoreDb(c), game))

    assert runner.run(count_again()) is False  # counted by table id: not twice
    assert runner.run(snapshot(store)) == counted
    assert runner.run(store.club.profile("ana", ()))["stats"]["games"] == 1  # type: ignore[index]


def test_rebuild_gives_what_the_live_counts_gave(db: Runner) -> None:
    store, runner = db
    runner.run(store_all(store))
    live = runner.run(snapshot(store))
    assert len(live["club_games"]) == len(GAMES)
    assert {r[0] for r in live["club_ratings"]} >= {"ana", "robot-normal", "robot-aleatorio"}
    done = runner.run(rebuild(store))
    assert (done.games, done.rated, done.skipped) == (len(GAMES), len(GAMES) - 1, 0)
    assert runner.run(snapshot(store)) == live
    runner.run(rebuild(store))
    assert runner.run(snapshot(store)) == live


def test_rebuild_counts_games_never_counted(db: Runner) -> None:
    """Games stored before the club counted them (no ``finished``) are counted by
    a rebuild as if they had been counted live."""
    store, runner = db
    runner.run(store_all(store))
    live = runner.run(snapshot(store))

    async def empty() -> None:
        async with store.engine.begin() as conn:
            for name in CLUB_TABLES:
                await conn.execute(sa.text(f"DELETE FROM {name}"))

    runner.run(empty())
    runner.run(rebuild(store))
    assert runner.run(snapshot(store)) == live


def test_games_that_end_together_both_count(db: Runner) -> None:
    store, runner = db
    one = played_table("e1", ["ana", "bea", "robot:normal", "robot:normal"], 5)
    two = played_table("e2", ["ana", "carla", "robot:normal", "robot:aleatorio"], 6)

    async def together() -> None:
        for table_id, (_, log, ended) in (("e1", one), ("e2", two)):
            await store.append(table_id, 0, log[:ended], "playing", "ana")
        await asyncio.gather(
            *(
                store.append(t, ended, log[ended:], "finished", finished=finished_game(table))
                for t, (table, log, ended) in (("e1", one), ("e2", two))
            )
        )

    runner.run(together())
    ana = runner.run(store.club.profile("ana", ()))
    assert ana is not None and ana["ratings"]["partnership"]["games"] == 2
    live = runner.run(snapshot(store))
    runner.run(rebuild(store))
    assert runner.run(snapshot(store)) == live


def test_unrated_games_keep_statistics_only(db: Runner) -> None:
    store, runner = db
    runner.run(store_game(store, "u1", ["ana", "bea", "carla", "dani"], 7, rated=False))
    ana = runner.run(store.club.profile("ana", ()))
    assert ana is not None and ana["stats"]["games"] == 1
    assert ana["ratings"] == {"partnership": None, "individual": None}
    assert runner.run(store.club.leaderboard("partnership", None, "all", 10)) == []
    games, following = runner.run(store.club.games("ana", 10, None))
    assert [g["rated"] for g in games] == [False] and following is None


def test_hidden_players_are_left_out(db: Runner) -> None:
    store, runner = db
    runner.run(store_all(store))
    board = runner.run(store.club.leaderboard("partnership", None, "all", 50))
    assert "ana" in {r["id"] for r in board}
    runner.run(store.club.set_hidden("ana", True, T0))
    assert runner.run(store.club.hidden("ana"))
    for kind in ("partnership", "individual"):
        for preset, period in ((None, "all"), ("pagat", "all"), (None, "y2026")):
            rows = runner.run(store.club.leaderboard(kind, preset, period, 50))
            assert rows and "ana" not in {r["id"] for r in rows}
    pairs = runner.run(store.club.pairs(None, "all", 50))
    assert all("ana" not in {p["id"] for p in r["players"]} for r in pairs)
    runner.run(store.club.set_hidden("ana", False, T0))
    assert "ana" in {
        r["id"] for r in runner.run(store.club.leaderboard("individual", None, "all", 50))
    }


def test_names_come_from_the_players_and_former_players_are_marked(db: Runner) -> None:
    store, runner = db

    async def play() -> tuple[str, str]:
        ana = await store.create_player("Ana", T0)
        bea = await store.create_player("Bea", T0)
        table, log, ended = played_table("f1", [ana.id, bea.id, "robot:normal", "carla"], 8)
        await store.append("f1", 0, log[:ended], "playing", ana.id)
        await store.append("f1", ended, log[ended:], "finished", finished=finished_game(table))
        await store.delete_player(bea.id, T0)  # Bea deletes her account
        return ana.id, bea.id

    ana, bea = runner.run(play())
    profile = runner.run(store.club.profile(ana, ()))
    assert profile is not None and (profile["name"], profile["former"]) == ("Ana", False)
    gone = runner.run(store.club.profile(bea, ()))
    assert gone is not None and gone["former"] is True and gone["stats"]["games"] == 1
    games, _ = runner.run(store.club.games(ana, 5, None))
    names = {p["id"]: p["name"] for p in games[0]["partners"] + games[0]["opponents"]}
    assert names[bea] == "former:player" and names["robot-normal"] == "robot:normal"
    assert names["carla"] == ""  # no row, and the seat's name is not kept for people

    async def kept() -> list[str]:
        async with store.engine.connect() as conn:
            rows = await conn.execute(sa.text("SELECT name FROM club_seats ORDER BY seat"))
            return [r.name for r in rows]

    assert runner.run(kept()) == ["", "", "robot:normal", ""]


def test_a_robot_level_counts_per_seat_and_is_not_its_own_partner(
    db: Runner,
) -> None:
    store, runner = db
    # seats 1 and 3 are partners: robot:normal partners itself, ana partners bea
    runner.run(store_game(store, "t1", ["ana", "robot:normal", "bea", "robot:normal"], 11))
    robot = runner.run(store.club.profile("robot-normal", ()))
    # two seats, two games (as its list of games shows the game twice), won together
    assert robot is not None and robot["stats"]["games"] == 2
    assert robot["stats"]["won"] in (0, 2) and robot["partners"] == []
    assert robot["ratings"]["partnership"]["games"] == 2
    assert robot["stats"]["hands"] >= 2
    listed, _ = runner.run(store.club.games("robot-normal", 10, None))
    assert len(listed) == robot["stats"]["games"]
    ana = runner.run(store.club.profile("ana", ()))
    assert ana is not None and [p["id"] for p in ana["partners"]] == ["bea"]
    pairs = runner.run(store.club.pairs(None, "all", 10))
    assert all(len({p["id"] for p in row["players"]}) == 2 for row in pairs)
