"""Hints through the server: only where the creator allowed them, only for the
seat to act, the normal robot's legal move from that seat's own view with its
reason in the asker's language; a rematch keeps the table's choice."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server_helpers import Client

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def person(base: str, name: str, lang: str = "es") -> Client:
    client = Client(base, lang)
    client.sign_in(name)
    return client


def table_of(base: str, hints: bool | None) -> tuple[str, Client]:
    ana = person(base, "Ana")
    body: dict[str, Any] = {"renege": "prevented", "target": 250}
    if hints is not None:
        body["hints"] = hints
    tid = ana.ok("POST", "/api/tables", body)["id"]
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "normal"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    return tid, ana


def my_turn(client: Client, tid: str) -> dict[str, Any]:
    for _ in range(400):
        view = client.view(tid)
        if view["game"]["to_act"] == view["you"]:
            return view
        time.sleep(0.02)
    raise AssertionError("never my turn")


@pytest.mark.parametrize("hints", [None, False])
def test_a_table_without_hints_refuses_them(base: str, hints: bool | None) -> None:
    tid, ana = table_of(base, hints)
    assert ana.view(tid)["hints"] is False
    my_turn(ana, tid)
    refused = ana.request("GET", f"/api/tables/{tid}/hint")
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "hints_off",
        "message": "En esta mesa no hay pistas: quien la abrió no las permitió.",
    }


def test_the_hint_is_a_legal_move_of_the_seat_to_act_in_its_language(base: str) -> None:
    tid, ana = table_of(base, True)
    for turn in range(6):  # the bid, then cards
        view = my_turn(ana, tid)
        assert view["hints"] is True
        lang = "en" if turn % 2 else "es"
        answer = ana.request("GET", f"/api/tables/{tid}/hint?lang={lang}")
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        assert set(hint) == {"action", "reason_key", "reason"}
        assert hint["action"] in view["game"]["legal"]
        assert hint["reason"] and hint["reason"][-1] == "."
        again = ana.request("GET", f"/api/tables/{tid}/hint?lang={lang}").json()
        assert again == hint  # the same view gives the same hint
        if lang == "en":
            assert not any(w in hint["reason"] for w in (" baza", " mano ", "Apuesta"))
        ana.ok("POST", f"/api/tables/{tid}/actions", hint["action"])


def test_no_hint_when_nothing_of_yours_is_due(base: str) -> None:
    tid, ana = table_of(base, True)
    luis = person(base, "Luis", "en")
    luis.ok("POST", f"/api/tables/{tid}/join")  # the table is full: Luis watches
    refused = luis.request("GET", f"/api/tables/{tid}/hint")
    assert (refused.status_code, refused.json()["error"]) == (409, "no_hint")
    assert refused.json()["message"].startswith("No bid or card of yours is due now")
    anonymous = Client(base).request("GET", f"/api/tables/{tid}/hint")
    assert anonymous.status_code == 401
    bad = ana.request("GET", f"/api/tables/{tid}/hint?lang=fr")
    assert bad.status_code == 422


def test_hints_is_a_strict_boolean(base: str) -> None:
    ana = person(base, "Ana")
    refused = ana.request("POST", "/api/tables", {"hints": "yes"})
    assert (refused.status_code, refused.json()["error"]) == (422, "bad_request")
