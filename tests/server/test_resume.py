"""Resume links on a real server (SQLite and PostgreSQL): a link never replaces the
person a device is signed in as without an explicit confirmation; your own link
just continues; links can be revoked and replaced; each use is listed."""

from __future__ import annotations

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.server.device import NAMES, describe
from server_helpers import Client

pytestmark = pytest.mark.databases("sqlite", "postgresql")

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/124.0.0.0 Mobile Safari/537.36"
)
LAPTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0"


def person(base: str, name: str, lang: str = "es", agent: str | None = None) -> Client:
    client = Client(base, lang)
    if agent is not None:
        client.http.headers["user-agent"] = agent
    client.sign_in(name)
    return client


def link_of(client: Client, replace: bool = False) -> str:
    body = {"replace": True} if replace else None
    url: str = client.ok("POST", "/api/resume-link", body)["url"]
    return url.rsplit("/", 1)[1]


def me(client: Client) -> str | None:
    name: str | None = client.ok("GET", "/api/session")["name"]
    return name


def test_another_persons_link_asks_and_switches_only_when_confirmed(base: str) -> None:
    ana, luis = person(base, "Ana"), person(base, "Luis")
    token = link_of(luis)
    cookies = dict(ana.http.cookies)
    # opening the link: a page asks, nothing changes
    page = ana.http.get(f"/resume/{token}", follow_redirects=False)
    assert page.status_code == 200, page.text
    assert "Has iniciado sesión como Ana. ¿Continuar como Luis?" in page.text
    assert "Continuar como Luis" in page.text and "Seguir como Ana" in page.text
    assert page.headers["cache-control"] == "no-store"
    assert "set-cookie" not in page.headers
    assert dict(ana.http.cookies) == cookies and me(ana) == "Ana"
    # the API refuses a switch that is not confirmed, naming both people
    refused = ana.request("POST", "/api/resume", {"token": token})
    assert refused.status_code == 409
    assert refused.json()["error"] == "resume_would_switch"
    assert "Ana" in refused.json()["message"] and "Luis" in refused.json()["message"]
    assert me(ana) == "Ana"
    assert ana.ok("GET", "/api/resume-link")["uses"] == []
    assert luis.ok("GET", "/api/resume-link")["uses"] == []
    # a confirmation without the CSRF token is refused
    ana.csrf, csrf = "", ana.csrf
    assert ana.request("POST", "/api/resume", {"token": token, "confirm": True}).status_code == 403
    assert me(ana) == "Ana"
    # the confirmation switches
    ana.csrf = csrf
    answer = ana.ok("POST", "/api/resume", {"token": token, "confirm": True})
    assert answer == {"name": "Luis", "switched": True}
    assert me(ana) == "Luis"
    assert len(luis.ok("GET", "/api/resume-link")["uses"]) == 1


def test_the_question_is_in_the_persons_language(base: str) -> None:
    ana, luis = person(base, "Ana", "en"), person(base, "Luis")
    token = link_of(luis)
    page = ana.http.get(f"/resume/{token}")
    assert page.status_code == 200
    assert '<html lang="en">' in page.text
    assert "You are signed in as Ana. Continue as Luis?" in page.text
    refused = ana.request("POST", "/api/resume", {"token": token})
    assert refused.json()["message"].startswith("You are signed in as Ana")


def test_names_on_the_question_page_are_escaped(base: str) -> None:
    ana, mallory = person(base, "Ana"), person(base, "<b>M</b>")
    page = ana.http.get(f"/resume/{link_of(mallory)}")
    assert "<b>M</b>" not in page.text and "&lt;b&gt;M&lt;/b&gt;" in page.text


def test_your_own_link_just_continues(base: str) -> None:
    ana = person(base, "Ana", agent=PHONE)
    token = link_of(ana)
    cookies = dict(ana.http.cookies)
    opened = ana.http.get(f"/resume/{token}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    assert dict(ana.http.cookies) == cookies  # same session, same CSRF token
    assert ana.ok("POST", "/api/resume", {"token": token}) == {"name": "Ana", "switched": False}
    assert me(ana) == "Ana"
    assert len(ana.ok("GET", "/api/resume-link")["uses"]) == 2


def test_a_device_without_a_session_is_signed_in(base: str) -> None:
    luis = person(base, "Luis")
    phone = Client(base)
    opened = phone.http.get(f"/resume/{link_of(luis)}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    assert me(phone) == "Luis"


def test_revoking_makes_old_links_fail_and_the_new_one_work(base: str) -> None:
    luis = person(base, "Luis")
    first, second = link_of(luis), link_of(luis)
    assert luis.ok("GET", "/api/resume-link")["active"] == 2
    third = link_of(luis, replace=True)
    assert luis.ok("GET", "/api/resume-link")["active"] == 1
    for old in (first, second):
        page = Client(base).http.get(f"/resume/{old}")
        assert page.status_code == 410
        assert "se revocó" in page.text
        answer = Client(base, "en").request("POST", "/api/resume", {"token": old})
        assert answer.status_code == 410
        assert answer.json()["error"] == "link_revoked"
        assert "revoked" in answer.json()["message"]
    phone = Client(base)
    assert phone.http.get(f"/resume/{third}", follow_redirects=False).status_code == 303
    assert me(phone) == "Luis"
    # revoking alone: the last link stops too
    assert luis.ok("DELETE", "/api/resume-link") == {"revoked": 1}
    assert luis.ok("GET", "/api/resume-link")["active"] == 0
    assert Client(base).http.get(f"/resume/{third}").status_code == 410
    # an unknown link is another thing
    unknown = Client(base).http.get("/resume/" + "x" * 32)
    assert unknown.status_code == 404 and "no es válido" in unknown.text


def test_revoking_one_persons_links_leaves_the_others(base: str) -> None:
    ana, luis = person(base, "Ana"), person(base, "Luis")
    kept = link_of(ana)
    link_of(luis, replace=True)
    assert luis.ok("DELETE", "/api/resume-link") == {"revoked": 1}
    phone = Client(base)
    assert phone.http.get(f"/resume/{kept}", follow_redirects=False).status_code == 303
    assert me(phone) == "Ana"


def test_each_use_is_listed_most_recent_first(base: str) -> None:
    luis = person(base, "Luis")
    token = link_of(luis)
    for agent in (PHONE, LAPTOP, "curl/8.5.0"):
        device = Client(base)
        device.http.headers["user-agent"] = agent
        assert device.http.get(f"/resume/{token}", follow_redirects=False).status_code == 303
    uses = luis.ok("GET", "/api/resume-link")["uses"]
    assert [(u["browser"], u["system"]) for u in uses] == [
        ("", ""),
        ("Firefox", "Windows"),
        ("Chrome", "Android"),
    ]
    assert all(set(u) == {"at", "browser", "system"} for u in uses)
    assert uses[0]["at"] >= uses[1]["at"] >= uses[2]["at"]
    # only the latest 20 are kept
    for _ in range(22):
        Client(base).http.get(f"/resume/{token}", follow_redirects=False)
    assert len(luis.ok("GET", "/api/resume-link")["uses"]) == 20


def test_the_devices_list_needs_a_session(base: str) -> None:
    for method in ("GET", "DELETE", "POST"):
        answer = httpx.request(method, base + "/api/resume-link")
        assert answer.status_code == 401, method
        assert answer.json()["error"] == "no_session"


def test_bad_bodies_are_refused(base: str) -> None:
    ana = person(base, "Ana")
    for body in ({"token": "x", "confirm": "yes"}, {"token": "x", "more": 1}, {}):
        assert ana.request("POST", "/api/resume", body).status_code == 422, body
    assert ana.request("POST", "/api/resume-link", {"replace": 1}).status_code == 422


@pytest.mark.parametrize(
    ("agent", "named"),
    [
        (PHONE, ("Chrome", "Android")),
        (LAPTOP, ("Firefox", "Windows")),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
            " Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
            ("Edge", "Windows"),
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko)"
            " SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
            ("Samsung Internet", "Android"),
        ),
        (
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
            " CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
            ("Chrome", "iPad"),
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4_1) AppleWebKit/605.1.15 (KHTML, like"
            " Gecko) Version/17.4.1 Safari/605.1.15",
            ("Safari", "macOS"),
        ),
        ("python-httpx/0.27.0", ("", "")),
    ],
)
def test_known_devices(agent: str, named: tuple[str, str]) -> None:
    assert describe(agent) == named


@given(st.text(max_size=300) | st.from_regex(r"Mozilla/5\.0 \([^)]*\) [A-Za-z/0-9. ]*"))
def test_a_device_is_named_from_a_fixed_list(agent: str) -> None:
    """Whatever the User-Agent says, only names of the fixed lists are kept."""
    browser, system = describe(agent)
    assert browser in NAMES | {""} and system in NAMES | {""}
