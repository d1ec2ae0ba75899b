"""``espadas ratings rebuild`` and ``espadas bench club``: their output contracts
(the bench's speed is reported, not asserted), on SQLite files."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from club_helpers import played_table
from espadas.cli.main import main
from espadas.store.store import Store
from espadas.tables.finish import finished_game


async def two_games(url: str, counted: bool) -> None:
    store = await Store.open(url)
    try:
        for i, seats in enumerate(
            (["ana", "bea", "robot:normal", "carla"], ["ana", "bea", "dani"])
        ):
            options: dict[str, Any] = {"players": 3} if len(seats) == 3 else {}
            table, log, ended = played_table(f"c{i}", seats, i, rated=i == 0, **options)
            await store.append(table.id, 0, log[:ended], "playing", "ana")
            finished = finished_game(table) if counted else None
            await store.append(table.id, ended, log[ended:], "finished", finished=finished)
    finally:
        await store.close()


async def profile(url: str, subject: str) -> dict[str, object] | None:
    store = await Store.open(url)
    try:
        return await store.club.profile(subject, ())
    finally:
        await store.close()


def test_ratings_rebuild_counts_the_stored_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/espadas.db"
    asyncio.run(two_games(url, counted=False))  # stored before the club counted games
    assert asyncio.run(profile(url, "ana")) is None
    assert main(["ratings", "rebuild", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "games=2 rated=1 skipped=0"
    ana = asyncio.run(profile(url, "ana"))
    assert ana is not None and ana["stats"]["games"] == 2  # type: ignore[index]
    assert ana["ratings"]["partnership"]["games"] == 1  # type: ignore[index]
    assert ana["ratings"]["individual"] is None  # type: ignore[index]


def test_bench_club_prints_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "club", "--players", "40", "--games", "300", "--requests", "5", "--json"]
    assert main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("p95_max_ms=")
    data = json.loads(lines[-2])
    assert (data["players"], data["games"], data["database"]) == (40, 300, "sqlite")
    assert data["rows"]["club_games"] == 300 and data["rows"]["players"] == 40
    assert set(data["figures"]) >= {"profile", "history", "leaderboard", "leaderboard_pairs"}
    worst = max(f["p95_ms"] for f in data["figures"].values())
    assert float(lines[-1].split("=")[1]) == worst > 0
