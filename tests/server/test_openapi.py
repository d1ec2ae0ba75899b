"""The API's description is the API: every status a route answers is in
``/openapi.json`` with the one ``Error`` body; bodies that are not JSON (not
UTF-8, malformed, nested too deep) are refused with 400 on every route; no page
of ours loads a third-party script.

The refusals are produced for real on a running server and compared with the
document, so a route that gains a refusal without declaring it fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.server.body import MAX_DEPTH, depth, problem
from server_helpers import TLS, Client

CHANGES = {"post", "put", "patch", "delete"}

NOT_JSON = [
    b"[" * 1000 + b"]" * 1000,  # the probe's 2 KB body
    b'{"a":' * 1000 + b"1" + b"}" * 1000,
    b'{"name": ' + b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1) + b"}",
    b'{"name": "Ana\xff"}',
    b"\xff\xfe{\x00}\x00",
    b"{",
    b'{"name": "Ana"',
    b"not json",
    b'{"name": 1' + b"0" * 5000 + b"}",  # over Python's 4,300 digits
]


@pytest.fixture(scope="module")
def doc(base: str) -> dict[str, Any]:
    response = httpx.get(base + "/openapi.json")
    assert response.status_code == 200
    result: dict[str, Any] = response.json()
    return result


@pytest.fixture(scope="module")
def ana(base: str) -> Iterator[Client]:
    client = Client(base, "en")
    client.sign_in("Ana")
    yield client
    client.close()


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def documented(doc: dict[str, Any], method: str, path: str) -> set[int]:
    """The statuses the document lists for the operation that serves ``path``."""
    for template, item in doc["paths"].items():
        pattern = "^" + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path.split("?")[0]) and method.lower() in item:
            return {int(s) for s in item[method.lower()]["responses"]}
    raise AssertionError(f"{method} {path} is not in the document")


def concrete(path: str, table: str) -> str:
    return path.replace("{table_id}", table).replace("{token}", "x" * 20)


def is_error(response: httpx.Response) -> bool:
    body = response.json()
    return (
        isinstance(body, dict)
        and isinstance(body.get("error"), str)
        and isinstance(body.get("message"), str)
        and bool(body["message"])
    )


def test_bodies_that_are_not_json_are_refused_with_400_on_every_route(
    base: str, doc: dict[str, Any], ana: Client
) -> None:
    table = ana.ok("POST", "/api/tables", {})["id"]
    changes = [(m, p) for m, p, _ in operations(doc) if m in CHANGES]
    assert len(changes) >= 15
    wrong = []
    for method, path in changes:
        for body in NOT_JSON:
            # a fresh connection each time: a dropped one shows as an error here
            with httpx.Client(
                base_url=base, cookies=ana.http.cookies, timeout=30, verify=TLS
            ) as http:
                response = http.request(
                    method,
                    concrete(path, table),
                    content=body,
                    headers={"content-type": "application/json", "x-csrf-token": ana.csrf},
                )
            if response.status_code != 400 or not is_error(response):
                wrong.append((method, path, body[:12], response.status_code, response.text[:60]))
            else:
                assert response.json()["error"] == "bad_request"
    assert not wrong, wrong
    assert all(400 in documented(doc, method, path) for method, path in changes)
    assert ana.ok("GET", "/api/session")["name"] == "Ana"


def test_the_refusal_says_why_in_the_client_language(base: str) -> None:
    for lang, expected in [("es", "anida más de 32"), ("en", "nests more than 32")]:
        response = httpx.post(
            base + "/api/session", content=NOT_JSON[0], headers={"accept-language": lang}
        )
        assert response.status_code == 400 and expected in response.json()["message"]


def test_json_that_does_not_fit_is_422_with_the_error_object(ana: Client) -> None:
    for body in [{"name": ""}, {"name": 5}, {"nombre": "Ana"}, [], "Ana"]:
        response = ana.request("POST", "/api/session", body)
        assert response.status_code == 422 and is_error(response), response.text
        # an empty name is refused by the name rule with its own code
        assert response.json()["error"] == ("name_empty" if body == {"name": ""} else "bad_request")


@st.composite
def nested(draw: st.DrawFn) -> tuple[Any, int]:
    """A JSON value and how deeply its arrays and objects nest."""
    levels = draw(st.integers(0, 40))
    value: Any = draw(st.one_of(st.integers(), st.text(alphabet='[]{}"\\ab,:'), st.none()))
    for _ in range(levels):
        key = draw(st.text(alphabet='[]{}"\\ab', max_size=4))
        value = draw(st.sampled_from([[value], {key: value}, [1, value, "]]"]]))
    return value, levels


@given(nested())
def test_depth_counts_nesting_without_recursion(case: tuple[Any, int]) -> None:
    value, levels = case
    text = json.dumps(value, ensure_ascii=False).encode()
    assert depth(text) == levels
    assert problem(text) == ("depth" if levels > MAX_DEPTH else None)


def test_depth_of_a_long_unclosed_string_is_found_quickly() -> None:
    # an unclosed string is consumed once, not retried at every quote
    assert problem(b'["' + b'\\"' * 8000) == "syntax"


def refusals_met(base: str, ana: Client) -> list[tuple[str, str, httpx.Response]]:
    """Each kind of refusal the API gives, produced for real."""
    luis = Client(base, "en")
    luis.sign_in("Luis")
    anonymous = Client(base, "en")
    table = ana.ok("POST", "/api/tables", {})["id"]
    unknown = "A" * len(table)
    token = ana.ok("POST", "/api/resume-link")["token"]
    made: list[tuple[str, str, httpx.Response]] = []

    def call(client: Client, method: str, path: str, body: Any = None) -> None:
        made.append((method, path, client.request(method, path, body)))

    call(ana, "POST", "/api/session", {"name": ""})
    call(anonymous, "POST", "/api/resume-link")
    call(anonymous, "POST", "/api/resume", {"token": "nope"})
    call(anonymous, "POST", "/api/resume", {"token": 5})
    call(anonymous, "GET", "/resume/nope")
    made.append(("GET", f"/resume/{token}", httpx.get(f"{base}/resume/{token}")))
    call(anonymous, "GET", "/api/tables")
    call(anonymous, "POST", "/api/tables", {})
    call(ana, "POST", "/api/tables", {"target": 300})
    call(ana, "POST", "/api/tables", {"preset": "poker"})
    call(ana, "GET", "/api/tables/x")
    call(ana, "GET", f"/api/tables/{unknown}")
    for step, body in [
        ("join", None),
        ("partner", {"seat": 2}),
        ("robots", {"level": "aleatorio"}),
        ("free", {"seat": 1}),
        ("start", None),
        ("actions", {"type": "bid", "value": 3}),
        ("rematch", {}),
    ]:
        call(anonymous, "POST", f"/api/tables/{table}/{step}", body)
        call(ana, "POST", f"/api/tables/{unknown}/{step}", body)
        call(ana, "POST", f"/api/tables/bad/{step}", body)
        call(luis, "POST", f"/api/tables/{table}/{step}", body)  # not the creator
        call(ana, "POST", f"/api/tables/{table}/{step}", body)  # not yet
        call(ana, "POST", f"/api/tables/{table}/{step}", {"seat": "x", "value": []})
    call(ana, "GET", f"/api/tables/{table}/replay")
    call(ana, "GET", f"/api/tables/{unknown}/replay")
    call(anonymous, "POST", f"/api/tables/{table}/analysis")
    call(ana, "POST", f"/api/tables/{table}/analysis")  # not finished: 409
    call(ana, "GET", f"/api/tables/{table}/analysis")
    call(ana, "POST", f"/api/tables/{table}/analysis", {"level": "dios"})
    call(ana, "GET", f"/api/tables/{unknown}/analysis")
    call(ana, "GET", f"/api/tables/{unknown}/record")
    call(anonymous, "GET", "/api/contact")
    call(ana, "PUT", "/api/contact", {"email": "not an address"})
    call(ana, "GET", f"/api/tables/{unknown}/notices")
    call(luis, "PUT", f"/api/tables/{table}/notices", {"mode": "on"})
    call(ana, "PUT", f"/api/tables/{table}/notices", {"mode": "loud"})
    call(ana, "GET", "/api/push/key")
    call(ana, "POST", "/api/push/subscriptions", {"endpoint": 5})
    call(anonymous, "DELETE", "/api/push/subscriptions", {"endpoint": "x"})
    call(ana, "DELETE", "/api/push/subscriptions", {})
    # the guard's refusals: no CSRF token, another site, a body too big
    made.append(
        ("POST", "/api/tables", ana.http.post("/api/tables", content="{}"))  # no token
    )
    made.append(
        (
            "POST",
            "/api/session",
            httpx.post(
                f"{base}/api/session", json={"name": "Eve"}, headers={"origin": "http://evil"}
            ),
        )
    )
    made.append(("POST", "/api/session", httpx.post(f"{base}/api/session", content="x" * 70_000)))
    made.append(("POST", "/api/session", httpx.post(f"{base}/api/session", content="{")))
    luis.close()
    anonymous.close()
    return made


def test_every_status_the_api_answers_is_documented(
    base: str, doc: dict[str, Any], ana: Client
) -> None:
    made = refusals_met(base, ana)
    seen: dict[int, int] = {}
    for method, path, response in made:
        status = response.status_code
        seen[status] = seen.get(status, 0) + 1
        assert status < 500, (method, path, response.text)
        assert status in documented(doc, method, path), (method, path, status, response.text)
        if status >= 400 and path.startswith("/resume/"):
            # the resume link is a page for browsers: its refusals are pages too
            assert response.headers["content-type"].startswith("text/html"), path
        elif status >= 400:
            assert is_error(response), (method, path, response.text)
    # the refusals above reach every kind the document describes, but 429
    assert {303, 400, 401, 403, 404, 409, 413, 422} <= set(seen), seen


def test_every_refusal_is_described_with_the_error_body(doc: dict[str, Any]) -> None:
    error = doc["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"error", "message"}
    assert {error["properties"][k]["type"] for k in ("error", "message")} == {"string"}
    text = json.dumps(doc)
    assert "HTTPValidationError" not in text and '"detail"' not in text
    for method, path, operation in operations(doc):
        statuses = {int(s) for s in operation["responses"]}
        assert {413, 429} <= statuses, (method, path)
        if method in CHANGES:
            assert {400, 403} <= statuses, (method, path)
        if any(p["name"] == "table_id" for p in operation.get("parameters", [])):
            assert {404, 422} <= statuses, (method, path)
        for status, response in operation["responses"].items():
            if path == "/resume/{token}" and int(status) in (404, 410):
                assert "text/html" in response["content"], (path, status)  # pages
            elif int(status) >= 400:
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (method, path, status)


def test_the_resume_link_is_described_as_the_303_it_answers(base: str, doc: dict[str, Any]) -> None:
    described = doc["paths"]["/resume/{token}"]["get"]["responses"]
    assert "303" in described and "307" not in described
    # 200 only for the question asked on a device signed in as someone else
    assert "text/html" in described["200"]["content"]
    anonymous = Client(base)
    assert anonymous.request("GET", "/resume/nope").status_code == 404
    anonymous.close()


def test_routes_that_open_a_table_link_to_its_routes(doc: dict[str, Any]) -> None:
    links = doc["paths"]["/api/tables"]["post"]["responses"]["201"]["links"]
    table_ops = [
        (m, p) for m, p, _ in operations(doc) if "{table_id}" in p and not p.endswith("/rematch")
    ]
    assert len(links) == len(table_ops) >= 10
    for link in links.values():
        assert link["parameters"] == {"table_id": "$response.body#/id"}


def test_no_page_loads_a_third_party_script(base: str) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect", "/", "/ayuda"):
        response = httpx.get(base + path, verify=TLS)
        assert response.status_code in (200, 404), path
        scripts = re.findall(r"<script[^>]*\bsrc=[\"']?([^\"' >]+)", response.text, re.I)
        styles = re.findall(r"<link[^>]*\bhref=[\"']?([^\"' >]+)", response.text, re.I)
        for source in scripts + styles:
            assert not re.match(r"^(https?:)?//", source), (path, source)
        assert "cdn.jsdelivr" not in response.text and "unpkg.com" not in response.text
    assert httpx.get(base + "/docs").status_code == 404
    assert httpx.get(base + "/openapi.json").headers["content-type"] == "application/json"
