"""The site as an app a phone or a desktop installs: the web app manifest (in
Spanish and English), the icons (``/favicon.ico`` and the PNGs drawn from
``icon.svg`` by ``scripts/icons.py``), the offline page and the service worker.

The service worker (``static/sw.js``, served at ``/sw.js``) shows the Web Push
notices and keeps a cache for when there is no connection. The server fills in
two things before sending it: the cache's version, a hash of the static files,
the page templates and the texts (so a change to any of them makes the browsers
fetch a new worker, which fills a new cache and deletes the old one), and the
list of what it keeps on install: the start page and the offline page in both
languages, the texts, and every static file those pages load (their
stylesheets, icons and the ES modules their scripts import, followed through
the imports).

>>> manifest("en")["lang"], manifest("es")["display"], manifest("es")["start_url"]
('en', 'standalone', '/')
>>> "/static/js/page.js" in precache() and "/sin-conexion?lang=en" in precache()
True
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from espadas.i18n import LANGS, translate

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"

THEME_COLOR = "#14532d"
"""The top bar's felt green (``--felt`` in ``app.css``): the colour of the app's title bar."""
BACKGROUND_COLOR = "#f3f4f6"
"""The pages' background (``app.css``): the colour of the splash screen."""
OFFLINE_PATH = "/sin-conexion"
"""The offline page: what the service worker shows for a page it cannot fetch."""
ICONS = (
    ("/static/icon-192.png", 192, "any"),
    ("/static/icon-512.png", 512, "any"),
    ("/static/icon-maskable-512.png", 512, "maskable"),
)
"""The manifest's icons: path, side in pixels and purpose."""
WORKER_BUILD = 'const BUILD = { version: "", precache: [] };'
"""The line of ``sw.js`` the server replaces with the cache's version and list."""
PAGES = ("home", "offline")
"""The pages the worker keeps: the start page and the offline page."""

PagePicker = Callable[[str, Request], HTMLResponse]
"""The site's ``html_page(name, request)``: a page's response."""


def manifest(lang: str) -> dict[str, Any]:
    """The web app manifest in ``lang``: the same app (``id``) in both languages;
    it starts at the start page, which comes in the person's language."""
    return {
        "id": "/",
        "name": translate("page.app_name", lang),
        "short_name": "Espadas",
        "description": translate("page.app_description", lang),
        "lang": lang,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "entertainment"],
        "icons": [
            {"src": src, "sizes": f"{side}x{side}", "type": "image/png", "purpose": purpose}
            for src, side, purpose in ICONS
        ],
    }


def manifest_body(lang: str) -> bytes:
    """:func:`manifest` as the JSON the server sends."""
    return json.dumps(manifest(lang), ensure_ascii=False, indent=1).encode()


def _static_links(text: str) -> set[str]:
    """The ``/static/...`` files an HTML text links (stylesheets, scripts, icons)."""
    return set(re.findall(r'(?:href|src)="(/static/[^"{}]+)"', text))


def _imports(script: Path) -> set[Path]:
    """The ES modules ``script`` imports, directly or through others (static
    ``import``/``export ... from`` and ``import("...")`` with a literal path)."""
    found: set[Path] = set()
    waiting = [script]
    while waiting:
        current = waiting.pop()
        text = current.read_text("utf-8")
        names = re.findall(r'(?:\bfrom|\bimport)\s*\(?\s*"(\.{1,2}/[^"]+\.js)"', text)
        for name in names:
            target = (current.parent / name).resolve()
            if target not in found and target.is_file():
                found.add(target)
                waiting.append(target)
    return found


def precache() -> list[str]:
    """What the worker keeps on install: the start and offline pages in each
    language, the texts, the manifests, the icons and every static file those
    pages load."""
    base = (TEMPLATES / "base.html").read_text("utf-8")
    files = {"/favicon.ico", "/static/icon.svg"}
    for name in PAGES:
        files |= _static_links(base.replace("{{script}}", name))
        files |= _static_links((TEMPLATES / f"{name}.html").read_text("utf-8"))
        for module in _imports(STATIC / "js" / f"{name}.js"):
            files.add("/static/" + module.relative_to(STATIC.resolve()).as_posix())
    pages = [f"/?lang={lang}" for lang in LANGS] + [f"{OFFLINE_PATH}?lang={lang}" for lang in LANGS]
    texts = [f"/i18n/{lang}.json" for lang in LANGS]
    manifests = [f"/manifest.webmanifest?lang={lang}" for lang in LANGS]
    return pages + texts + manifests + sorted(files)


_signature: tuple[tuple[str, int, int], ...] = ()
_version = ""


def version() -> str:
    """A hash of the static files, the templates, the texts and the manifests: the
    cache's version. The files are read again only when one's size or time changed,
    so an edited file gives a new version without a restart, and every instance of
    a club gives the same one."""
    global _signature, _version
    paths = sorted(
        p
        for folder in (STATIC, TEMPLATES, HERE.parent / "i18n")
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in {".css", ".js", ".html", ".json", ".png", ".svg", ".ico"}
    )
    signature = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths)
    if signature != _signature:
        digest = hashlib.sha256()
        for path in paths:
            digest.update(path.relative_to(HERE.parent).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
        for lang in LANGS:
            digest.update(manifest_body(lang))
        _signature, _version = signature, digest.hexdigest()[:16]
    return _version


def worker_source() -> str:
    """``sw.js`` with its cache's version and the list of what it keeps on install."""
    source = (STATIC / "sw.js").read_text("utf-8")
    if WORKER_BUILD not in source:
        raise RuntimeError(f"sw.js lacks the line {WORKER_BUILD!r}")
    build = json.dumps({"version": version(), "precache": precache()})
    return source.replace(WORKER_BUILD, f"const BUILD = {build};")


def add_app_install(app: FastAPI, html_page: PagePicker) -> None:
    """The manifest, the favicon, the offline page and the service worker on ``app``."""

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def web_manifest(lang: str = "es") -> Response:
        """The manifest in ``?lang=`` (Spanish by default): the pages link theirs."""
        return Response(
            manifest_body(lang if lang in LANGS else "es"),
            media_type="application/manifest+json",
            headers={"cache-control": "no-cache"},
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(
            STATIC / "favicon.ico",
            media_type="image/x-icon",
            headers={"cache-control": "public, max-age=86400"},
        )

    @app.get(OFFLINE_PATH, response_class=HTMLResponse, include_in_schema=False)
    async def offline_page(request: Request) -> HTMLResponse:
        """The page the service worker shows for a page it cannot fetch."""
        return html_page("offline", request)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        return Response(
            worker_source(),
            media_type="text/javascript",
            headers={"service-worker-allowed": "/", "cache-control": "no-cache"},
        )
