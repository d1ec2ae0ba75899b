"""The club's JSON API (CLUB_API.md) through a real server: games that end at
tables (here by an abandon: the side that left loses) are counted at once, and
the profile, the history, the leaderboards and the hidden choice answer them;
refusals are 404 and 422 error objects. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from server_helpers import Client

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def person(base: str, name: str, lang: str = "es") -> Client:
    client = Client(base, lang)
    client.sign_in(name)
    return client


def abandoned_game(ana: Client, bea: Client, **body: Any) -> str:
    """Ana opens a table with Bea as her partner and two normal robots; Bea leaves."""
    tid = str(ana.ok("POST", "/api/tables", {"preset": "pagat", **body})["id"])
    bea.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/partner", {"seat": 1})
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    assert bea.act(tid, "abandon").status_code == 200
    assert ana.view(tid)["status"] == "finished"
    return tid


@pytest.fixture(scope="module")
def club(base: str) -> dict[str, Any]:
    ana, bea = person(base, "Ana Club"), person(base, "Bea Club")
    tables = [abandoned_game(ana, bea) for _ in range(3)]
    friendly = abandoned_game(ana, bea, rated=False)
    return {
        "ana": ana,
        "bea": bea,
        "ana_id": ana.ok("GET", "/api/club/me")["id"],
        "bea_id": bea.ok("GET", "/api/club/me")["id"],
        "tables": tables,
        "friendly": friendly,
    }


def test_the_table_says_whether_it_is_rated(base: str, club: dict[str, Any]) -> None:
    ana = club["ana"]
    assert ana.view(club["tables"][0])["rated"] is True
    assert ana.view(club["friendly"])["rated"] is False


def test_profile_after_games_that_were_left(base: str, club: dict[str, Any]) -> None:
    ana = club["ana"]
    me = ana.ok("GET", f"/api/club/players/{club['ana_id']}")
    assert (me["name"], me["robot"], me["former"]) == ("Ana Club", None, False)
    rating = me["ratings"]["partnership"]
    assert rating["games"] == 3 and rating["provisional"] is True
    assert rating["rating"] < 1500 and rating["uncertainty"] > 0  # three losses
    assert [p["table"] for p in rating["history"]] == club["tables"]  # oldest first
    assert me["ratings"]["individual"] is None
    assert me["stats"]["games"] == 4 and me["stats"]["won"] == 0  # the friendly one too
    assert me["partners"] == [{"id": club["bea_id"], "name": "Bea Club", "games": 4, "won": 0}]
    robot = ana.ok("GET", "/api/club/players/robot-normal")
    assert (robot["robot"], robot["name"]) == ("normal", "robot:normal")
    # a robot level counts per seat: two seats in each game, three of them rated
    assert robot["ratings"]["partnership"]["games"] == 6
    assert robot["ratings"]["partnership"]["rating"] > rating["rating"]
    assert (robot["stats"]["games"], robot["stats"]["won"]) == (8, 8)
    assert robot["partners"] == []  # never its own partner
    untried = ana.ok("GET", "/api/club/players/robot-experto")
    assert untried["ratings"] == {"partnership": None, "individual": None}
    assert untried["stats"]["games"] == 0


def test_history_pages_newest_first(base: str, club: dict[str, Any]) -> None:
    ana = club["ana"]
    path = f"/api/club/players/{club['ana_id']}/games"
    first = ana.ok("GET", f"{path}?limit=2")
    newest = [club["friendly"], *reversed(club["tables"])]
    assert [g["table"] for g in first["games"]] == newest[:2] and first["next"]
    rest = ana.ok("GET", f"{path}?limit=2&before={first['next']}")
    assert [g["table"] for g in rest["games"]] == newest[2:] and rest["next"] is None
    game = first["games"][1]
    assert (game["rated"], game["won"], game["place"], game["players"]) == (True, False, 2, 4)
    assert game["partners"] == [{"id": club["bea_id"], "name": "Bea Club"}]
    assert [o["id"] for o in game["opponents"]] == ["robot-normal", "robot-normal"]
    assert game["replay"] == f"/mesa/{game['table']}/repeticion"
    assert ana.request("GET", game["record"]).status_code == 200
    assert first["games"][0]["rated"] is False


def test_leaderboards(base: str, club: dict[str, Any]) -> None:
    ana = club["ana"]
    board = ana.ok("GET", "/api/club/leaderboard?kind=partnership")
    assert (board["kind"], board["preset"], board["period"]) == ("partnership", None, "all")
    ids = [r["id"] for r in board["rows"]]
    assert set(ids) == {club["ana_id"], club["bea_id"]}  # the players' leaderboard: no robot
    assert [r["rank"] for r in board["rows"]] == list(range(1, len(ids) + 1))
    ratings = [r["rating"] for r in board["rows"]]
    assert ratings == sorted(ratings, reverse=True)
    week = ana.ok("GET", "/api/club/leaderboard?kind=partnership&preset=pagat&period=week")
    assert {r["id"] for r in week["rows"]} == set(ids)
    assert next(r for r in week["rows"] if r["id"] == club["ana_id"])["games"] == 3
    assert ana.ok("GET", "/api/club/leaderboard?preset=cien")["rows"] == []
    assert ana.ok("GET", "/api/club/leaderboard?kind=individual")["rows"] == []
    pairs = ana.ok("GET", "/api/club/leaderboard?kind=pairs&period=month")["rows"]
    # the two seats of robot:normal are no pair: only Ana and Bea are ranked
    assert [[p["id"] for p in r["players"]] for r in pairs] == [
        sorted([club["ana_id"], club["bea_id"]]),
    ]
    assert [(r["games"], r["won"]) for r in pairs] == [(3, 0)]


def test_hidden_players_leave_the_leaderboards(base: str, club: dict[str, Any]) -> None:
    bea = club["bea"]
    assert bea.ok("PUT", "/api/club/me", {"hidden": True}) == {"id": club["bea_id"], "hidden": True}
    assert bea.ok("GET", "/api/club/me")["hidden"] is True
    ids = [r["id"] for r in bea.ok("GET", "/api/club/leaderboard")["rows"]]
    assert club["bea_id"] not in ids and club["ana_id"] in ids
    pairs = bea.ok("GET", "/api/club/leaderboard?kind=pairs")["rows"]
    assert all(club["bea_id"] not in {p["id"] for p in r["players"]} for r in pairs)
    assert bea.ok("GET", f"/api/club/players/{club['bea_id']}")["name"] == "Bea Club"
    bea.ok("PUT", "/api/club/me", {"hidden": False})
    assert club["bea_id"] in [r["id"] for r in bea.ok("GET", "/api/club/leaderboard")["rows"]]


@pytest.mark.parametrize(
    "path",
    [
        "/api/club/players/nobody-here",
        "/api/club/players/robot-maestro",
        "/api/club/players/nobody-here/games",
    ],
)
def test_unknown_players_are_404(base: str, path: str) -> None:
    answer = Client(base, "en").request("GET", path)
    assert answer.status_code == 404
    assert answer.json() == {
        "error": "no_player",
        "message": "There is no such player in the club.",
    }


@pytest.mark.parametrize(
    "path",
    [
        "/api/club/players/bad%20id",
        "/api/club/players/" + "x" * 65,
        "/api/club/players/robot-normal/games?limit=0",
        "/api/club/players/robot-normal/games?before=later",
        "/api/club/leaderboard?kind=best",
        "/api/club/leaderboard?period=decade",
        "/api/club/leaderboard?limit=101",
        "/api/club/leaderboard?preset=mine",
    ],
)
def test_bad_queries_are_422(base: str, path: str) -> None:
    answer = Client(base).request("GET", path)
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] in ("bad_request", "bad_preset") and answer.json()["message"]


def test_me_needs_a_session_and_a_boolean(base: str) -> None:
    assert Client(base).request("GET", "/api/club/me").status_code == 401
    luis = person(base, "Luis Club")
    refused = luis.request("PUT", "/api/club/me", {"hidden": "yes"})
    assert (refused.status_code, refused.json()["error"]) == (422, "bad_request")
    assert luis.request("PUT", "/api/club/me", {"hidden": True, "x": 1}).status_code == 422


def test_the_club_is_in_the_openapi_document(base: str) -> None:
    document = Client(base).ok("GET", "/openapi.json")
    club = {
        p
        for p, ops in document["paths"].items()
        if any("club" in o.get("tags", []) for o in ops.values())
    }
    assert club == {
        "/api/club/players/{subject}",
        "/api/club/players/{subject}/games",
        "/api/club/leaderboard",
        "/api/club/me",
    }
    assert "ProfileOut" in document["components"]["schemas"]
