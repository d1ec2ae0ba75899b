"""The daily challenge through the API, on SQLite and PostgreSQL: two players at
different moments of the day get exactly the same deals in the same seat; the
second one's answers (HTTP and live socket) never show a card of a board they
have not been dealt yet, over the whole challenge; one attempt only; leaving
scores the remaining boards by the robot; the leaderboard equals duplicate
scoring over the records; the boards file is published once the day closes and
verifies."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from challenge_helpers import play
from espadas.engine import Card, CardSet
from espadas.tables.boards import verify_boards
from espadas.tables.challenge import SEAT
from espadas.tables.clock import FakeClock
from espadas.tables.duplicate import Result, record_results, score
from server_helpers import Client

pytestmark = pytest.mark.databases("sqlite", "postgresql")

BOARDS = 3
DAY = "2026-12-01"


@pytest.fixture(scope="module")
def clock(database: str | None) -> FakeClock:
    """The server's clock, one per database's server (the test moves it)."""
    return FakeClock(datetime(2026, 12, 1, 7, 0, tzinfo=UTC))


@pytest.fixture(scope="module")
def server_options(clock: FakeClock) -> dict[str, Any]:
    return {
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "clock": clock,
        "challenge_boards": BOARDS,
        "challenge_partner": "aleatorio",
        "challenge_opponents": "aleatorio",
        "notices": False,
    }


def _card_sets(node: Any, out: list[int]) -> None:
    """Every set of cards written in ``node``: PBN hands and lists of cards."""
    if isinstance(node, dict):
        for value in node.values():
            _card_sets(value, out)
    elif isinstance(node, list):
        if node and all(isinstance(v, str) and len(v) == 2 for v in node):
            with contextlib.suppress(Exception):
                out.append(int(CardSet(Card.parse(v) for v in node)))
        for value in node:
            _card_sets(value, out)
    elif isinstance(node, str) and node.count(".") == 3 and len(node) <= 20:
        with contextlib.suppress(Exception):
            out.append(int(CardSet.parse(node)))


class Listener:
    """A live socket to a table, its frames gathered in a thread until closed."""

    def __init__(self, base: str, table: str, cookie: str) -> None:
        url = base.replace("http://", "ws://") + f"/api/tables/{table}/live"
        self.ws = connect(url, additional_headers={"Cookie": cookie}, legacy=True, compression=None)
        self.frames: list[dict[str, Any]] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError):
            for message in self.ws:
                self.frames.append(json.loads(message))

    def close(self) -> None:
        self.ws.close()
        self.thread.join(10)


def _wait(predicate: Any, what: str, seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(what)


def test_the_daily_challenge(base: str, clock: FakeClock) -> None:
    ana, bea, cai = Client(base), Client(base), Client(base)
    try:
        ana.sign_in("Ana")
        bea.sign_in("Bea")
        cai.sign_in("Cai")
        today = ana.ok("GET", "/api/challenge")
        assert today["day"] == DAY and len(today["boards"]) == BOARDS and today["you"] is None
        assert today["rules"]["renege"] == "prevented"
        assert all(set(b) == {"board", "dealer", "commitment"} for b in today["boards"])
        assert bea.ok("GET", "/api/challenge")["commitment"] == today["commitment"]
        assert ana.request("GET", f"/api/challenge/{DAY}/boards").json()["error"] == (
            "challenge_open"
        )
        assert ana.request("GET", "/api/challenge/2026-11-30/leaderboard").status_code == 404
        assert ana.request("GET", "/api/challenge/2026-12-09/leaderboard").status_code == 404
        assert ana.request("GET", "/api/challenge/tomorrow/leaderboard").status_code == 422

        first = ana.ok("POST", "/api/challenge/attempt")
        second = ana.request("POST", "/api/challenge/attempt")
        assert second.status_code == 409 and second.json()["error"] == "challenge_taken"
        nothing = cai.request("POST", "/api/challenge/leave")
        assert nothing.status_code == 404 and nothing.json()["error"] == "no_attempt"
        ana_views = play(ana, first["table"], BOARDS)
        clock.advance(hours=6)
        bea.frames.clear()
        started = bea.ok("POST", "/api/challenge/attempt")
        socket = Listener(base, started["table"], bea.cookie_header())
        bea_views = play(bea, started["table"], BOARDS)
        socket.close()
        cai_table = cai.ok("POST", "/api/challenge/attempt")["table"]
        play(cai, cai_table, BOARDS, leave_after=1)
        left = cai.ok("GET", "/api/challenge")["you"]
        assert left["left_board"] == 2
        again = cai.request("POST", "/api/challenge/leave")
        assert again.status_code == 409 and again.json()["error"] == "attempt_over"

        records = {
            name: client.ok("GET", f"/api/tables/{table}/record")
            for name, client, table in (
                ("Ana", ana, first["table"]),
                ("Bea", bea, started["table"]),
                ("Cai", cai, cai_table),
            )
        }
        # the same deals in the same seat, each hand committed as its board
        for name in ("Ana", "Bea"):
            hands = records[name]["hands"]
            assert len(hands) == BOARDS
            assert [h["commitment"] for h in hands] == [b["commitment"] for b in today["boards"]]
            assert records[name]["players"][SEAT] == name
        assert [h["deal"] for h in records["Ana"]["hands"]] == [
            h["deal"] for h in records["Bea"]["hands"]
        ]
        assert ana_views and bea_views

        # Bea never saw a card of a board she had not been dealt
        deals = [[int(CardSet.parse(h)) for h in hand["deal"]] for hand in records["Ana"]["hands"]]
        salts = [hand["salt"] for hand in records["Ana"]["hands"]]
        heard = [{"path": "live", "body": f.get("view", f)} for f in socket.frames]
        assert sum(1 for f in socket.frames if f.get("type") == "view") > 10
        dealt = 0
        for frame in [*bea.frames, *heard]:
            if frame["path"] == "live" and frame is heard[0]:
                dealt = 0  # the socket's frames, from the start of her attempt
            body = frame["body"]
            game = (body.get("view") or body).get("game") if isinstance(body, dict) else None
            if isinstance(game, dict) and game.get("hand_number"):
                dealt = max(dealt, game["hand_number"])
            text = json.dumps(body)
            found: list[int] = []
            _card_sets(body, found)
            for board in range(dealt, BOARDS):
                assert salts[board] not in text, (board, frame["path"])
                assert not set(deals[board]) & set(found), (board, frame["path"])
        # Cai left after board 1: the robot finished board 2 at the table, board 3 is par
        _wait(
            lambda: (
                len(cai.ok("GET", f"/api/tables/{cai_table}/record")["hands"]) >= 2
                or cai.ok("GET", f"/api/tables/{cai_table}")["game"]["phase"] == "hand_end"
            ),
            "the robot did not finish Cai's hand",
        )
        board = _wait(
            lambda: (
                (b := ana.ok("GET", f"/api/challenge/{DAY}/leaderboard"))["par"] is not None
                and sum(len(s["lines"]) for s in b["standings"]) == 3 * BOARDS
                and b
            ),
            "par and every result",
        )
        par = board["par"]
        cai_record = cai.ok("GET", f"/api/tables/{cai_table}/record")
        records["Cai"] = cai_record
        results = []
        for name, record in records.items():
            played = record_results(record, SEAT)
            for p in played:
                results.append(Result(name, p.board, SEAT, p.points, name == "Cai" and p.board > 1))
            if name == "Cai":
                for b in range(len(played) + 1, BOARDS + 1):
                    results.append(Result(name, b, SEAT, par[b - 1], True))
        expected = score(results, par={(b + 1, SEAT): p for b, p in enumerate(par)})
        assert [
            (s["rank"], s["name"], s["total"], s["matchpoints"]) for s in board["standings"]
        ] == [(s.rank, s.entrant, s.total, s.matchpoints) for s in expected.standings]
        cai_lines = next(s for s in board["standings"] if s["name"] == "Cai")["lines"]
        assert [line["robot"] for line in cai_lines] == [False, True, True]
        assert cai_lines[2]["points"] == par[2]
        mine = ana.ok("GET", f"/api/challenge/{DAY}/leaderboard")
        assert mine["standings"][mine["you"]]["name"] == "Ana"
        # the first ``limit`` standings and your own; an unchanged version answers 304
        top = ana.ok("GET", f"/api/challenge/{DAY}/leaderboard?limit=1")
        assert len(top["standings"]) == 1 and top["entrants"] == 3
        assert top["you"] == mine["you"] and top["mine"]["name"] == "Ana"
        assert top["standings"][0] == mine["standings"][0]
        path = f"/api/challenge/{DAY}/leaderboard"
        etag = ana.request("GET", path).headers["etag"]
        assert ana.http.get(path, headers={"if-none-match": etag}).status_code == 304
        other = bea.request("GET", path).headers["etag"]
        assert other != etag  # the version and who asks
        assert bea.http.get(path, headers={"if-none-match": etag}).status_code == 200

        ids = {
            n: c.ok("GET", "/api/club/me")["id"]
            for n, c in zip("ABC", (ana, bea, cai), strict=True)
        }
        # nobody's play of a board reaches anyone before the day closes
        early = ana.request("GET", f"/api/challenge/{DAY}/boards/1/plays/{ids['B']}")
        assert early.status_code == 409 and early.json()["error"] == "challenge_open"
        assert ana.ok("GET", f"/api/challenge/{DAY}")["closed"] is False

        # the day closes: the boards file is published and verifies
        clock.advance(hours=20)
        published = ana.ok("GET", f"/api/challenge/{DAY}/boards")
        checks, whole = verify_boards(published)
        assert whole == "ok" and [c.status for c in checks] == ["ok"] * BOARDS
        assert published["commitment"] == today["commitment"]
        assert [b["deal"] for b in published["boards"]] == [
            h["deal"] for h in records["Ana"]["hands"]
        ]
        assert ana.ok("GET", "/api/challenge")["day"] == "2026-12-02"
        # then each play of each board, for the side-by-side replay
        closed = ana.ok("GET", f"/api/challenge/{DAY}")
        assert closed["closed"] is True and closed["you"]["table"] == first["table"]
        for board in range(1, BOARDS + 1):
            seen = ana.ok("GET", f"/api/challenge/{DAY}/boards/{board}/plays/{ids['B']}")
            assert seen["name"] == "Bea" and seen["robot"] is False
            assert seen["table"] == started["table"]
            assert len(seen["steps"]) == 14 and sum(seen["steps"][-1]["tricks_taken"]) == 13
            assert seen["steps"][0]["hands"] == records["Bea"]["hands"][board - 1]["deal"]
            assert seen["points"] == record_results(records["Bea"], SEAT)[board - 1].points
        robot = ana.ok("GET", f"/api/challenge/{DAY}/boards/2/plays/{ids['C']}")
        assert robot["robot"] is True
        never = ana.request("GET", f"/api/challenge/{DAY}/boards/3/plays/{ids['C']}")
        assert never.status_code == 404 and never.json()["error"] == "no_play"
        assert ana.request("GET", f"/api/challenge/{DAY}/boards/9/plays/x").status_code == 404

        # the closed day is rated: the challenge rating on each one's profile, in
        # the order of the day's standings, with the points above the field

        def rated() -> dict[str, Any] | None:
            ana.ok("GET", "/api/challenge")  # reading today's challenge rates closed days
            found = {
                n: ana.ok("GET", f"/api/club/players/{i}")["challenge"] for n, i in ids.items()
            }
            return found if all(found.values()) else None

        ratings = _wait(rated, "the day's challenge ratings", 60)
        listed = ana.ok("GET", "/api/club/leaderboard?kind=challenge")
        assert listed["kind"] == "challenge" and len(listed["rows"]) == 3
        assert [r["rating"] for r in listed["rows"]] == sorted(
            (r["rating"] for r in ratings.values()), reverse=True
        )
        final = ana.ok("GET", f"/api/challenge/{DAY}/leaderboard")["standings"]
        by_rank = [ratings[s["name"][0]] for s in final]
        for standing, rating in zip(final, by_rank, strict=True):
            assert rating["days"] == 1 and rating["boards"] == BOARDS
            assert rating["above_per_board"] == round(standing["total"] / BOARDS, 2)
        for i in range(len(final) - 1):
            if final[i]["rank"] < final[i + 1]["rank"]:
                assert by_rank[i]["rating"] > by_rank[i + 1]["rating"]
    finally:
        for client in (ana, bea, cai):
            client.close()
