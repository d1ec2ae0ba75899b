"""The server end to end: a real uvicorn on a free port, real HTTP and WebSocket
clients, on a SQLite file and on the PostgreSQL of this machine."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from espadas.engine import CardSet, Rules
from espadas.tables.clock import FakeClock
from espadas.tables.commitment import verify_record
from server_helpers import Client, Listener, card_strings

CLOCK = FakeClock()


pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    return {
        "clock": CLOCK,
        "robot_workers": 0,
        "rate": 10_000,
        "burst": 10_000,
        "robot_budget_ms": 20,
    }


def new_client(base: str, name: str, lang: str = "es") -> Client:
    client = Client(base, lang)
    client.sign_in(name)
    return client


def open_table(base: str, n_guests: int = 3, **table: Any) -> tuple[str, list[Client]]:
    """A table created by Ana with ``n_guests`` people seated after her."""
    ana = new_client(base, "Ana")
    tid = ana.ok("POST", "/api/tables", table or {"target": 250})["id"]
    people = [ana]
    for name in ["Luis", "Marta", "Pedro"][:n_guests]:
        guest = new_client(base, name)
        assert guest.ok("POST", f"/api/tables/{tid}/join")["you"] == len(people)
        people.append(guest)
    return tid, people


def play_one(table: str, people: dict[int, Client], bid: int = 3) -> bool:
    """One step of a game driven by people: the seat to act bids or plays its first
    proper card, or someone closes the finished hand. False once the game is over."""
    any_client = next(iter(people.values()))
    view = any_client.view(table)
    game = view["game"]
    if game["phase"] == "game_over":
        return False
    if game["phase"] == "hand_end":
        kind = "next_hand" if game["result"] is None else "confirm_end"
        any_client.act(table, kind)
        return True
    seat = game["to_act"]
    if seat not in people:
        return True  # a robot's turn
    mine = people[seat].view(table)["game"]
    if game["phase"] == "bidding":
        response = people[seat].act(table, "bid", bid)
    else:
        response = people[seat].act(table, "play", mine["proper_plays"][-1])
    assert response.status_code == 200, response.text
    return True


def check_frames(frames: list[dict[str, Any]], deals: list[list[str]], seat: int | None) -> int:
    """Asserts that no frame shows a card of another seat's hand before it is
    played. Returns how many views were checked."""
    checked = 0
    for frame in frames:
        view = frame.get("view", frame.get("body"))
        if not isinstance(view, dict) or not isinstance(view.get("game"), dict):
            continue
        game = view["game"]
        number = game["hand_number"]
        if number == 0:
            continue
        played = set(card_strings([game["tricks"], game["trick"]]))
        own = set() if seat is None else {str(c) for c in CardSet.parse(deals[number - 1][seat])}
        for card in card_strings(view):
            assert card in own or card in played, (seat, number, card, game["phase"])
        finished_hands = number if game["phase"] in ("hand_end", "game_over") else number - 1
        assert len(view["deals"]) <= finished_hands
        if seat is None:
            assert game["hand"] is None and game["legal"] == []
        checked += 1
    return checked


def test_four_people_play_a_game_through_http_and_websocket(base: str) -> None:
    tid, people = open_table(base, target=250, renege="prevented")
    ana = people[0]
    ana.ok("POST", f"/api/tables/{tid}/partner", {"seat": 1})
    # Luis (who joined at seat 1) now sits opposite Ana
    seats = {s["name"]: s["seat"] for s in ana.view(tid)["seats"]}
    assert seats == {"Ana": 0, "Marta": 1, "Luis": 2, "Pedro": 3}
    watcher = new_client(base, "Sofía")
    assert watcher.ok("POST", f"/api/tables/{tid}/join")["you"] is None
    names = ["Ana", "Luis", "Marta", "Pedro"]
    by_seat = {seats[name]: client for client, name in zip(people, names, strict=True)}
    listeners = {s: Listener(base, tid, c.cookie_header()) for s, c in by_seat.items()}
    spectator = Listener(base, tid, watcher.cookie_header())
    anonymous = Listener(base, tid)
    ana.ok("POST", f"/api/tables/{tid}/start")
    steps = 0
    while play_one(tid, by_seat) and steps < 5000:
        steps += 1
    final = ana.view(tid)
    assert final["status"] == "finished" and final["game"]["result"] is not None
    for listener in [*listeners.values(), spectator, anonymous]:
        listener.wait_version(final["version"])
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    assert all(check.status == "ok" for check in verify_record(record))
    deals = [hand["deal"] for hand in record["hands"]]
    for seat, listener in listeners.items():
        assert check_frames(listener.frames, deals, seat) > 10
        assert check_frames(by_seat[seat].frames, deals, seat) > 10
        versions = [f["version"] for f in listener.frames]
        assert versions == sorted(versions)
    assert check_frames(spectator.frames, deals, None) > 10
    assert check_frames(anonymous.frames, deals, None) > 10
    watcher.view(tid)
    assert check_frames(watcher.frames, deals, None) >= 1
    # the record replays to the same result
    from espadas.engine.record import rebuild

    game = rebuild(record)
    assert game.result is not None
    assert game.rules.side_name(game.result.winner) == final["game"]["result"]["winner"]
    for listener in [*listeners.values(), spectator, anonymous]:
        listener.close()


def test_a_client_that_missed_frames_resyncs(base: str) -> None:
    tid, people = open_table(base, n_guests=0)
    ana = people[0]
    listener = Listener(base, tid, ana.cookie_header())
    first = listener.wait_version(1)
    assert first["view"]["you"] == 0
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio", "seats": [1]})
    listener.wait_version(2)
    count = len(listener.frames)
    listener.send({"type": "sync", "version": 0})
    listener.wait_version(2)
    deadline = 200
    while len(listener.frames) == count and deadline:
        import time

        time.sleep(0.01)
        deadline -= 1
    assert len(listener.frames) == count + 1
    assert listener.frames[-1]["version"] == 2
    listener.close()


def test_a_table_with_robots_plays_to_the_end(base: str) -> None:
    tid, people = open_table(base, n_guests=0, target=250, renege="prevented")
    ana = people[0]
    with pytest.raises(AssertionError):
        ana.ok("POST", f"/api/tables/{tid}/start")  # seats empty
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
    view = ana.ok("POST", f"/api/tables/{tid}/start")
    assert [s["robot"] for s in view["seats"]] == [None, "normal", "normal", "normal"]
    steps = 0
    while play_one(tid, {0: ana}) and steps < 20_000:
        steps += 1
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    assert record["players"] == ["Ana", "robot:normal", "robot:normal", "robot:normal"]
    from espadas.engine.record import rebuild

    assert rebuild(record).result is not None


def test_accusations_true_and_false(base: str) -> None:
    # a true accusation: Luis (seat 1) reneges, Ana accuses him
    for true in (True, False):
        tid, people = open_table(base, target=250)
        ana, luis = people[0], people[1]
        ana.ok("POST", f"/api/tables/{tid}/start")
        by_seat = dict(enumerate(people))
        accused = False
        for _ in range(300):
            game = ana.view(tid)["game"]
            if game["phase"] == "playing" and game["to_act"] == 1 and game["trick"]["cards"]:
                mine = luis.view(tid)["game"]
                reneges = [
                    a["value"]
                    for a in mine["legal"]
                    if a["type"] == "play" and a["value"] not in mine["proper_plays"]
                ]
                if reneges and true:
                    assert luis.act(tid, "play", reneges[0]).status_code == 200
                    response = ana.act(tid, "accuse", 1)
                    assert response.status_code == 200, response.text
                    accused = True
                    break
                if not true:
                    response = ana.act(tid, "accuse", 1)
                    assert response.status_code == 200
                    accused = True
                    break
            play_one(tid, by_seat)
        assert accused
        result = ana.view(tid)["game"]["result"]
        assert result["reason"] == ("renege" if true else "false_accusation")
        assert result["loser"] == ("ew" if true else "ns")


def test_accusing_a_partner_is_refused_in_both_languages(base: str) -> None:
    tid, people = open_table(base, target=250)
    ana = people[0]
    ana.ok("POST", f"/api/tables/{tid}/start")
    before = ana.view(tid)["version"]
    response = ana.act(tid, "accuse", 2)
    assert response.status_code == 409
    assert response.json()["error"] == "against_partner"
    english = Client(base, "en")
    english.http.cookies.update(ana.http.cookies)
    english.csrf = ana.csrf
    response = english.act(tid, "accuse", 2)
    assert response.json()["message"] != ana.act(tid, "accuse", 2).json()["message"]
    assert "opponent" in response.json()["message"]
    assert ana.view(tid)["version"] == before


def test_abandon_and_rematch_with_changed_partners(base: str) -> None:
    tid, people = open_table(base, target=250)
    ana, luis = people[0], people[1]
    ana.ok("POST", f"/api/tables/{tid}/start")
    refused = luis.request("POST", f"/api/tables/{tid}/rematch", {})
    assert refused.status_code == 403  # not the creator
    refused = ana.request("POST", f"/api/tables/{tid}/rematch", {})
    assert refused.status_code == 409  # not finished
    assert luis.act(tid, "abandon").status_code == 200
    result = ana.view(tid)["game"]["result"]
    assert result["reason"] == "abandon" and result["loser"] == "ew"
    rematch = ana.ok("POST", f"/api/tables/{tid}/rematch", {"partner": 1})
    view = rematch["view"]
    assert view["rematch_of"] == tid and view["status"] == "waiting"
    assert [s["name"] for s in view["seats"]] == ["Ana", "Marta", "Luis", "Pedro"]
    assert ana.view(tid)["rematch"] == rematch["id"]
    assert ana.request("POST", f"/api/tables/{tid}/rematch", {}).status_code == 409
    started = ana.ok("POST", f"/api/tables/{rematch['id']}/start")
    assert started["status"] == "playing"
    assert luis.view(rematch["id"])["you"] == 2


def test_claim_after_the_turn_limit(base: str) -> None:
    tid, people = open_table(base, target=250)
    ana, luis = people[0], people[1]
    ana.ok("POST", f"/api/tables/{tid}/start")
    waiting = ana.view(tid)["game"]["to_act"]
    assert waiting == 1  # left of the dealer (Ana)
    early = ana.act(tid, "claim")
    assert early.status_code == 409 and early.json()["error"] == "claim_early"
    CLOCK.advance(hours=49)
    own = people[3].act(tid, "claim")
    assert own.status_code == 409 and own.json()["error"] == "no_claim_own"
    assert ana.view(tid)["claim_at"] is not None
    assert ana.act(tid, "claim").status_code == 200
    result = luis.view(tid)["game"]["result"]
    assert result["reason"] == "timeout" and result["loser"] == "ew"
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    assert record["end"] == {"reason": "timeout", "side": "ew"}


def test_fifty_identical_plays_at_once_apply_once(base: str) -> None:
    tid, people = open_table(base, target=250, renege="prevented")
    ana = people[0]
    ana.ok("POST", f"/api/tables/{tid}/start")
    by_seat = dict(enumerate(people))
    while ana.view(tid)["game"]["phase"] == "bidding":
        play_one(tid, by_seat)
    game = ana.view(tid)["game"]
    seat = game["to_act"]
    player = by_seat[seat]
    card = player.view(tid)["game"]["proper_plays"][0]
    before = game_version = ana.view(tid)["version"]

    async def burst() -> list[int]:
        async with httpx.AsyncClient(
            base_url=base, cookies=player.http.cookies, timeout=60
        ) as client:
            body = json.dumps({"type": "play", "value": card})
            headers = {"content-type": "application/json", "x-csrf-token": player.csrf}
            responses = await asyncio.gather(
                *[
                    client.post(f"/api/tables/{tid}/actions", content=body, headers=headers)
                    for _ in range(50)
                ]
            )
            return [r.status_code for r in responses]

    statuses = asyncio.run(burst())
    assert statuses.count(200) == 1, statuses
    assert all(400 <= s < 500 for s in statuses if s != 200)
    after = ana.view(tid)
    assert after["version"] == game_version + 1 > before - 1
    assert after["game"]["trick"]["cards"].count(card) == 1


def test_resume_link_continues_on_another_device(base: str) -> None:
    tid, people = open_table(base, n_guests=1)
    luis = people[1]
    link = luis.ok("POST", "/api/resume-link")["url"]
    token = link.rsplit("/", 1)[1]
    phone = Client(base)
    response = phone.http.get(f"/resume/{token}", follow_redirects=False)
    assert response.status_code == 303
    assert phone.view(tid)["you"] == 1
    assert Client(base).http.get("/resume/not-a-token").status_code == 404


def test_openapi_documents_the_api(base: str) -> None:
    spec = httpx.get(base + "/openapi.json").json()
    for path in ("/api/tables", "/api/tables/{table_id}/actions", "/api/session"):
        assert path in spec["paths"]


def test_rules_are_checked_when_a_table_is_opened(base: str) -> None:
    ana = new_client(base, "Ana")
    assert ana.request("POST", "/api/tables", {"target": 300}).status_code == 422
    assert ana.request("POST", "/api/tables", {"preset": "cien", "target": 500}).status_code == 422
    bad = ana.request("POST", "/api/tables", {"options": {"players": 5}})
    assert bad.status_code == 422 and bad.json()["message"]
    ok = ana.ok(
        "POST", "/api/tables", {"preset": "sala", "options": {"players": 5, "partnerships": False}}
    )
    assert ok["view"]["players"] == 5
    assert Rules.from_dict(ok["view"]["rules"]).players == 5


def test_blind_nil_hand_stays_hidden_until_its_owner_looks(base: str) -> None:
    tid, people = open_table(base, n_guests=1, preset="cien")
    ana, luis = people[0], people[1]
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    for _ in range(200):
        game = ana.view(tid)["game"]
        if game["to_act"] in (0, 1):
            break
    person = {0: ana, 1: luis}[game["to_act"]]
    mine = person.view(tid)["game"]
    assert mine["hand"] is None
    assert {"type": "look"} in mine["legal"]
    assert {"type": "bid", "value": "blind_nil"} in mine["legal"]
    looked = person.act(tid, "look").json()["game"]
    assert len(looked["hand"]) == 13
    assert {"type": "bid", "value": "blind_nil"} not in looked["legal"]


def test_the_record_holds_finished_hands_while_the_game_runs(base: str) -> None:
    tid, people = open_table(base, target=500, renege="prevented")
    ana = people[0]
    ana.ok("POST", f"/api/tables/{tid}/start")
    assert ana.ok("GET", f"/api/tables/{tid}/record")["hands"] == []
    by_seat = dict(enumerate(people))
    while ana.view(tid)["game"]["hand_number"] < 2:
        play_one(tid, by_seat)
    record = ana.ok("GET", f"/api/tables/{tid}/record")
    assert len(record["hands"]) == 1 and len(record["hands"][0]["plays"]) == 52
    assert [c.status for c in verify_record(record)] == ["ok"]
    public = httpx.get(f"{base}/api/tables/{tid}/record").json()
    assert public == record


def test_actions_over_the_live_socket(base: str) -> None:
    """Each person bids through their own WebSocket: the answer names the version
    committed, everyone's next view shows the bid, and refusals come back as
    frames with the same codes and texts as over HTTP; the socket stays open."""
    tid, people = open_table(base, target=250, renege="prevented")
    people[0].ok("POST", f"/api/tables/{tid}/start")
    sockets = [Listener(base, tid, c.cookie_header()) for c in people]
    watcher = new_client(base, "Sofía")
    watcher.ok("POST", f"/api/tables/{tid}/join")
    spectator = Listener(base, tid, watcher.cookie_header())
    anonymous = Listener(base, tid)
    try:
        first = people[0].view(tid)
        to_act = first["game"]["to_act"]
        other = (to_act + 1) % 4
        sockets[other].send({"type": "act", "id": 1, "action": {"type": "bid", "value": 3}})
        late = sockets[other].answer(1)
        assert (late["type"], late["status"], late["error"]) == ("refused", 409, "not_your_turn")
        assert "turno" in late["message"]
        for ref, message in [
            (2, {"type": "act", "id": 2, "action": {"type": "dance"}}),
            (3, {"type": "act", "id": 3, "action": {"type": "bid", "value": 3, "x": 1}}),
            (4, {"type": "act", "id": 4}),
        ]:
            sockets[to_act].send(message)
            answer = sockets[to_act].answer(ref)
            assert (answer["status"], answer["error"]) == (422, "bad_request"), answer
        sockets[to_act].socket.send("{not json")
        assert sockets[to_act].answer(None)["status"] == 400
        anonymous.send({"type": "act", "id": "a", "action": {"type": "bid", "value": 3}})
        assert anonymous.answer("a")["error"] == "no_session"
        spectator.send({"type": "act", "id": "s", "action": {"type": "bid", "value": 3}})
        assert spectator.answer("s")["status"] == 403
        assert people[0].view(tid)["version"] == first["version"]  # nothing changed
        for turn in range(4):
            seat = (to_act + turn) % 4
            name = f"bid-{turn}-" + "x" * 40 if turn == 3 else f"bid-{turn}"
            sockets[seat].send({"type": "act", "id": name, "action": {"type": "bid", "value": 3}})
            done = sockets[seat].answer(name if turn < 3 else None)  # too long: not returned
            assert done["type"] == "done", done
            for socket in [*sockets, spectator, anonymous]:
                seen = socket.wait_version(done["version"])["view"]
                assert seen["game"]["bids"][seat] == 3
        assert people[0].view(tid)["game"]["phase"] == "playing"
    finally:
        for socket in [*sockets, spectator, anonymous]:
            socket.close()
