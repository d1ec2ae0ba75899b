"""Display names over the API: each kind of name the rule refuses is answered
422 with its own error code and a text in the client's language, and changes
nothing; a good name is stored normalised."""

from __future__ import annotations

import pytest

from server_helpers import Client

BAD = [
    ("Evil\r\nBcc: x@example.org", "name_control"),
    ("Ana\tLuis", "name_control"),
    ("Ana\x00", "name_control"),
    ("Ana\u2028Luis", "name_control"),
    ("\u202eanA", "name_format"),
    ("Ana\u2066x\u2069", "name_format"),
    ("Ana\u200bLuis", "name_format"),
    ("\u200b\u200c\u200d", "name_format"),
    ("\u3164", "name_format"),
    ("   ", "name_empty"),
    ("\u0301\u0308", "name_empty"),
    ("", "name_empty"),
    ("a" + "\u0301" * 6, "name_marks"),
    ("x" * 41, "name_long"),
    ("robot:normal", "name_robot"),
    ("ROBOT:experto", "name_robot"),
    ("Robot normal", "name_robot"),
    ("robot   experto", "name_robot"),
    ("Robot aleatorio", "name_robot"),
    ("robot random", "name_robot"),
    ("RobotExpert", "name_robot"),
    ("Rоbot normal", "name_robot"),  # a Cyrillic о
]

MESSAGES = {
    "es": {"name_control": "caracteres de control", "name_robot": "robot"},
    "en": {"name_control": "control characters", "name_robot": "robot"},
}


@pytest.mark.parametrize(("name", "code"), BAD)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_each_kind_of_bad_name_is_refused(base: str, name: str, code: str, lang: str) -> None:
    client = Client(base, lang=lang)
    answer = client.request("POST", "/api/session", {"name": name})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["error"] == code
    assert body["message"] and "{" not in body["message"]
    expected = MESSAGES[lang].get(code)
    if expected is not None:
        assert expected in body["message"]
    assert "espadas_player" not in answer.cookies
    assert client.ok("GET", "/api/session")["name"] is None


def test_messages_are_in_the_client_language(base: str) -> None:
    es = Client(base, "es").request("POST", "/api/session", {"name": "a\r\nb"}).json()
    en = Client(base, "en").request("POST", "/api/session", {"name": "a\r\nb"}).json()
    assert es["error"] == en["error"] == "name_control"
    assert es["message"] != en["message"]
    assert "U+000D" in es["message"] and "U+000D" in en["message"]


def test_a_rename_is_refused_and_the_old_name_kept(base: str) -> None:
    client = Client(base)
    client.sign_in("Ana")
    refused = client.request("POST", "/api/session", {"name": "Ana\r\nBcc: x@example.org"})
    assert refused.status_code == 422 and refused.json()["error"] == "name_control"
    assert client.ok("GET", "/api/session")["name"] == "Ana"
    robot = client.request("POST", "/api/session", {"name": "Robot Normal"})
    assert robot.status_code == 422 and robot.json()["error"] == "name_robot"
    assert client.ok("GET", "/api/session")["name"] == "Ana"


def test_good_names_are_stored_normalised(base: str) -> None:
    client = Client(base)
    client.sign_in("  Jose\u0301   María ")
    assert client.ok("GET", "/api/session")["name"] == "José María"
    for name in ("Robotina", "El robot", "👨\u200d👩\u200d👧", "李小龍", "O'Brien"):
        answer = client.ok("POST", "/api/session", {"name": name})
        assert answer["name"] == name
        client.csrf = answer["csrf"]
    table = client.ok("POST", "/api/tables", {})["id"]
    assert client.view(table)["seats"][0]["name"] == "O'Brien"


def test_the_schema_describes_the_name(base: str) -> None:
    schema = Client(base).ok("GET", "/openapi.json")
    session = schema["components"]["schemas"]["SessionIn"]["properties"]["name"]
    assert session["maxLength"] == 40 and session["minLength"] == 1
