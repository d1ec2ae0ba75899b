"""The site: the server's API plus the pages people use, in Spanish or English.

Pages are small HTML shells filled from the same catalog the scripts use
(``static/i18n/LANG.json``); ES modules do the rest. No build step, no CDN.

>>> page("home", "en").count("<h1>")
1
>>> "lang=\\"es\\"" in page("help", "es")
True
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from espadas.i18n import LANGS
from espadas.server.app import create_app
from espadas.server.language import request_lang
from espadas.server.settings import Settings

HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


@cache
def catalog(lang: str) -> dict[str, str]:
    """The interface texts in ``lang``."""
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


@cache
def _template(name: str) -> str:
    return (TEMPLATES / f"{name}.html").read_text("utf-8")


def page(name: str, lang: str, table: str = "") -> str:
    """The HTML of page ``name`` in ``lang``."""
    texts = catalog(lang)
    content = _template(name)
    if name == "help":
        # wide tables scroll sideways on a phone: focusable, so keys can scroll them
        help_text = _template(f"help.{lang}").replace("<table>", '<table tabindex="0">')
        content = content.replace("{{help}}", help_text)
    other = "en" if lang == "es" else "es"
    values = {
        "lang": lang,
        "other_lang": other,
        "other_lang_name": "English" if other == "en" else "Español",
        "table": table,
        "script": name,
        "title": texts.get(f"{name}.page_title", "Espadas"),
        "content": content,
    }
    text = _template("base")
    text = text.replace("{{content}}", values.pop("content"))
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", html.escape(value))
    return re.sub(
        r"\{\{t:([a-z0-9_.]+)\}\}", lambda m: html.escape(texts.get(m.group(1), m.group(1))), text
    )


def page_lang(request: Request) -> str:
    """``?lang=``, else the ``espadas_lang`` cookie, else the browser's preference."""
    chosen = request.query_params.get("lang") or request.cookies.get("espadas_lang")
    if chosen in LANGS:
        return chosen
    return request_lang(request.headers.get("accept-language"))


def create_site(settings: Settings | None = None) -> FastAPI:
    """The whole application: API, live views, pages and static files."""
    app = create_app(settings)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def html_page(name: str, request: Request, table: str = "") -> HTMLResponse:
        return HTMLResponse(
            page(name, page_lang(request), table),
            headers={
                "content-security-policy": "default-src 'self'; img-src 'self' data:; "
                "style-src 'self'; script-src 'self'; connect-src 'self' ws: wss:; "
                "frame-ancestors 'none'",
                "x-content-type-options": "nosniff",
                "referrer-policy": "same-origin",
            },
        )

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        return html_page("home", request)

    @app.get("/ayuda", response_class=HTMLResponse, include_in_schema=False)
    async def help_page(request: Request) -> HTMLResponse:
        return html_page("help", request)

    @app.get("/mesa/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return html_page("table", request, table_id if TABLE_ID.match(table_id) else "")

    @app.get("/mesa/{table_id}/repeticion", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        return html_page("replay", request, table_id if TABLE_ID.match(table_id) else "")

    return app
