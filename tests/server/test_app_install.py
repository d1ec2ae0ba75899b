"""The installable app, over HTTP against a real server (no browser): the manifest
in both languages, the icons it names, ``/favicon.ico``, the offline page, the
service worker with its version and list, and the links every page carries."""

from __future__ import annotations

import json
import re
import struct
from collections.abc import Iterator

import httpx
import pytest

from espadas.web.app_install import (
    BACKGROUND_COLOR,
    ICONS,
    OFFLINE_PATH,
    THEME_COLOR,
    WORKER_BUILD,
    manifest,
    precache,
    version,
)
from espadas.web.site import STATIC, catalog
from server_helpers import running_server, settings_for


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A client of a server that runs for the whole module."""
    with (
        running_server(settings_for(tmp_path_factory.mktemp("server"), robot_workers=0)) as base,
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        yield client


def png_size(data: bytes) -> tuple[int, int, int]:
    """Width, height and colour type of a PNG, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, _depth, colour = struct.unpack(">IIBB", data[16:26])
    return width, height, colour


def worker_build(source: str) -> dict[str, object]:
    """The ``BUILD`` object the server wrote into ``sw.js``."""
    found = re.search(r"^const BUILD = (\{.*\});$", source, re.MULTILINE)
    assert found, "no BUILD line"
    build: dict[str, object] = json.loads(found.group(1))
    return build


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_manifest_in_each_language(http: httpx.Client, lang: str) -> None:
    answer = http.get("/manifest.webmanifest", params={"lang": lang})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    data = answer.json()
    assert data == manifest(lang)
    assert data["lang"] == lang and data["id"] == "/"
    assert data["name"].startswith("Espadas") and data["short_name"] == "Espadas"
    other = manifest("en" if lang == "es" else "es")
    assert data["description"] and data["description"] != other["description"]
    assert data["display"] == "standalone"
    assert data["start_url"] == "/" and data["scope"] == "/"
    assert (data["theme_color"], data["background_color"]) == (THEME_COLOR, BACKGROUND_COLOR)
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_the_manifest_is_spanish_unless_asked(http: httpx.Client) -> None:
    assert http.get("/manifest.webmanifest").json()["lang"] == "es"
    assert http.get("/manifest.webmanifest?lang=fr").json()["lang"] == "es"


def test_the_colours_are_those_of_the_stylesheet() -> None:
    css = (STATIC / "app.css").read_text("utf-8")
    root = css[css.index(":root {") : css.index("}", css.index(":root {"))]
    assert f"--felt: {THEME_COLOR};" in root  # the top bar
    assert f"background: {BACKGROUND_COLOR};" in root  # the page


@pytest.mark.parametrize(("path", "side", "purpose"), ICONS)
def test_each_icon_is_a_png_of_its_size(
    http: httpx.Client, path: str, side: int, purpose: str
) -> None:
    answer = http.get(path)
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    width, height, colour = png_size(answer.content)
    assert (width, height) == (side, side)
    if purpose == "maskable":
        assert colour == 2  # RGB, no transparency: the felt goes to the edges


def test_the_favicon(http: httpx.Client) -> None:
    answer = http.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/x-icon"
    reserved, kind, count = struct.unpack("<HHH", answer.content[:6])
    assert (reserved, kind) == (0, 1) and count == 3
    sides = []
    for i in range(count):
        side, _, _, _, _, _, length, offset = struct.unpack(
            "<BBBBHHII", answer.content[6 + 16 * i : 22 + 16 * i]
        )
        width, height, _ = png_size(answer.content[offset : offset + length])
        assert width == height == side
        sides.append(side)
    assert sides == [16, 32, 48]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_offline_page(http: httpx.Client, lang: str) -> None:
    answer = http.get(OFFLINE_PATH, params={"lang": lang})
    assert answer.status_code == 200
    assert answer.headers["content-language"] == lang
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    text = answer.text
    assert f'<html lang="{lang}">' in text
    assert catalog(lang)["offline.title"] in text and catalog(lang)["offline.retry"] in text
    assert 'id="retry"' in text and "/static/js/offline.js" in text
    assert "/static/offline.css" in text


def test_the_service_worker_carries_its_version_and_list(http: httpx.Client) -> None:
    answer = http.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["cache-control"] == "no-cache"
    assert WORKER_BUILD not in answer.text
    build = worker_build(answer.text)
    assert build == {"version": version(), "precache": precache()}
    assert re.fullmatch(r"[0-9a-f]{16}", version())
    assert version() == version()  # nothing changed: the same version


def test_everything_the_worker_keeps_is_there(http: httpx.Client) -> None:
    kept = precache()
    for needed in ("/?lang=es", "/?lang=en", f"{OFFLINE_PATH}?lang=es", f"{OFFLINE_PATH}?lang=en"):
        assert needed in kept
    for needed in ("/static/app.css", "/static/offline.css", "/static/js/home.js"):
        assert needed in kept
    for module in ("page.js", "i18n.js", "cards.js", "api.js", "worker.js", "offline.js"):
        assert f"/static/js/{module}" in kept
    assert not [path for path in kept if path.startswith("/api/")]
    for path in kept:
        assert http.get(path).status_code == 200, path


def test_the_worker_never_answers_for_the_api() -> None:
    source = (STATIC / "sw.js").read_text("utf-8")
    assert 'url.pathname.startsWith("/api/")' in source
    assert 'request.method !== "GET"' in source


@pytest.mark.parametrize(
    "path",
    ["/", "/?lang=en", "/ayuda", "/sala", "/mesa/abcdefgh12", "/cuenta", OFFLINE_PATH, "/reto"],
)
def test_every_page_links_the_app(http: httpx.Client, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 200, path
    lang = answer.headers["content-language"]
    text = answer.text
    assert f'<link rel="manifest" href="/manifest.webmanifest?lang={lang}">' in text
    assert f'<meta name="theme-color" content="{THEME_COLOR}">' in text
    assert '<link rel="icon" href="/favicon.ico"' in text
    assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in text


def test_a_short_message_page_links_the_app_too(http: httpx.Client) -> None:
    answer = http.get("/avisos/baja/nothing-like-a-token", headers={"accept-language": "en"})
    assert answer.status_code == 404
    assert answer.headers["content-language"] == "en"
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in answer.text
    assert f'<meta name="theme-color" content="{THEME_COLOR}">' in answer.text
    assert '<script type="module" src="/static/js/worker.js"></script>' in answer.text


def test_the_apple_touch_icon(http: httpx.Client) -> None:
    """iOS puts black in transparent corners: this icon is the felt to its edges."""
    answer = http.get("/static/apple-touch-icon.png")
    assert answer.status_code == 200
    assert png_size(answer.content) == (180, 180, 2)  # RGB, no transparency
