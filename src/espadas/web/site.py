"""The site: the server's API plus the pages people use, in Spanish or English.

Pages are small HTML shells filled from the same texts the scripts load from
``/i18n/LANG.json``: the ``interface`` and ``web`` sections of the one catalog,
:mod:`espadas.i18n` (error texts reach the page already said by the server).
ES modules do the rest. No build step, no CDN.

>>> page("home", "en").count("<h1>")
1
>>> "lang=\\"es\\"" in page("help", "es")
True
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from functools import cache
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from espadas.i18n import LANGS, UI, WEB, translate
from espadas.server.app import create_app
from espadas.server.errors import ApiError
from espadas.server.language import request_lang
from espadas.server.session_api import follow_link, open_link
from espadas.server.settings import Settings
from espadas.store.store import Store
from espadas.tables.ids import TABLE_ID
from espadas.web.app_install import THEME_COLOR, add_app_install
from espadas.web.challenge_pages import add_challenge_pages
from espadas.web.club_pages import add_club_pages

EVENT_ID = re.compile(r"^[0-9a-f]{12}$")
"""An event's id (``espadas.server.tournaments``), as ``/torneo/ID`` names it."""
HERE = Path(__file__).parent
STATIC = HERE / "static"
TEMPLATES = HERE / "templates"


@cache
def catalog(lang: str) -> dict[str, str]:
    """The texts the pages use in ``lang``: the catalog's interface and web sections."""
    texts: dict[str, str] = {}
    for key, entry in {**UI, **WEB}.items():
        text = entry[lang]
        if isinstance(text, str):
            texts[key] = text
    return texts


@cache
def catalog_json(lang: str) -> tuple[bytes, str]:
    """:func:`catalog` as JSON, and its ETag."""
    body = json.dumps(catalog(lang), ensure_ascii=False, separators=(",", ":")).encode()
    return body, '"' + hashlib.sha256(body).hexdigest()[:16] + '"'


@cache
def _template(name: str) -> str:
    return (TEMPLATES / f"{name}.html").read_text("utf-8")


def page(name: str, lang: str, table: str = "", names: dict[str, str] | None = None) -> str:
    """The HTML of page ``name`` in ``lang``; ``names`` fill the ``{current}``
    and ``{other}`` of its texts (people's names, escaped like the rest).

    >>> asking = page("resume", "en", names={"current": "Ana", "other": "Luis <3"})
    >>> "Continue as Luis &lt;3" in asking, "Stay as Ana" in asking
    (True, True)
    """
    texts = catalog(lang)
    people = names or {}

    def text(key: str) -> str:
        found = texts.get(key, key)
        return re.sub(r"\{(current|other)\}", lambda m: people.get(m.group(1), m.group(0)), found)

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
        "theme_color": THEME_COLOR,
        "title": text(f"{name}.page_title") if f"{name}.page_title" in texts else "Espadas",
        "content": content,
    }
    whole = _template("base").replace("{{content}}", values.pop("content"))
    for key, value in values.items():
        whole = whole.replace("{{" + key + "}}", html.escape(value))
    return re.sub(r"\{\{t:([a-z0-9_.]+)\}\}", lambda m: html.escape(text(m.group(1))), whole)


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

    def html_page(
        name: str, request: Request, table: str = "", names: dict[str, str] | None = None
    ) -> HTMLResponse:
        lang = page_lang(request)
        return HTMLResponse(
            page(name, lang, table, names),
            headers={
                "content-language": lang,
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

    @app.get("/reto", response_class=HTMLResponse, include_in_schema=False)
    async def challenge_page(request: Request) -> HTMLResponse:
        return html_page("challenge", request)

    @app.get("/torneos", response_class=HTMLResponse, include_in_schema=False)
    async def events_page(request: Request) -> HTMLResponse:
        return html_page("events", request)

    @app.get("/sala", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page(request: Request) -> HTMLResponse:
        return html_page("lobby", request)

    @app.get("/lobby", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page_en(request: Request) -> Response:
        """The lobby in English, unless the person chose a language."""
        if "lang" not in request.query_params and "espadas_lang" not in request.cookies:
            return RedirectResponse("/lobby?lang=en", status_code=307)
        return html_page("lobby", request)

    @app.get("/torneo/{event_id}", response_class=HTMLResponse, include_in_schema=False)
    async def event_page(request: Request, event_id: str) -> HTMLResponse:
        return html_page("event", request, event_id if EVENT_ID.match(event_id) else "")

    @app.get("/mesa/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        return html_page("table", request, table_id if TABLE_ID.match(table_id) else "")

    @app.get("/mesa/{table_id}/repeticion", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        return html_page("replay", request, table_id if TABLE_ID.match(table_id) else "")

    @app.get(
        "/resume/{token}",
        tags=["identity"],
        response_class=HTMLResponse,
        responses={
            200: {"description": "The device is signed in as someone else: a page asks"},
            303: {"description": "Signed in as the link's person: to the start page"},
            404: {"description": "No such link (a page)", "content": {"text/html": {}}},
            410: {"description": "The link was revoked (a page)", "content": {"text/html": {}}},
        },
    )
    async def resume_page(request: Request, token: str) -> Response:
        """Opening a resume link signs the device in as its person and goes to the
        start page; a device signed in as someone else is asked first ("You are
        signed in as Ana. Continue as Luis?"), and only ``POST /api/resume`` with
        ``confirm`` switches it."""
        try:
            opened = await open_link(request, token)
        except ApiError as err:
            return message_page(page_lang(request), "api." + err.code, err.status)
        if opened.switches:
            assert opened.current is not None
            names = {"current": opened.current.name, "other": opened.player.name}
            asking = html_page("resume", request, names=names)
            asking.headers["cache-control"] = "no-store"
            return asking
        response = RedirectResponse("/", status_code=303, headers={"cache-control": "no-store"})
        await follow_link(request, response, opened)
        return response

    @app.get("/cuenta", response_class=HTMLResponse, include_in_schema=False)
    async def account_page(request: Request) -> HTMLResponse:
        return html_page("account", request)

    @app.get("/entrar/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def signin_page(request: Request, token: str) -> HTMLResponse:
        """The page of a sign-in link: it uses nothing by itself (mail scanners
        open links); its button does (``POST /api/signin/email/use``)."""
        page_ = html_page("enter", request)
        page_.headers["cache-control"] = "no-store"
        return page_

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def texts(request: Request, lang: str) -> Response:
        if lang not in LANGS:
            raise HTTPException(404)
        body, etag = catalog_json(lang)
        headers = {"etag": etag, "cache-control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    add_club_pages(
        app,
        html_page,
        lambda request: message_page(page_lang(request), "page.no_player", 404),
    )

    add_challenge_pages(
        app,
        html_page,
        lambda request: message_page(page_lang(request), "page.no_challenge_day", 404),
    )

    add_app_install(app, html_page)

    @app.get("/avisos/confirmar/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def confirm_email(request: Request, token: str, para: str | None = None) -> HTMLResponse:
        """Confirms an address; ``?para=entrar``: one given to sign in with."""
        store: Store = request.app.state.store
        player = await store.outbox.confirm(token[:100])
        confirmed = "page.confirmed_signin" if para == "entrar" else "page.confirmed"
        key = confirmed if player else "page.bad_confirm"
        return message_page(page_lang(request), key, 200 if player else 404)

    @app.get("/avisos/baja/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe(request: Request, token: str, mesa: str | None = None) -> HTMLResponse:
        store: Store = request.app.state.store
        table = mesa if mesa and TABLE_ID.match(mesa) else None
        player = await store.outbox.unsubscribe(token[:100], table)
        if player is None:
            return message_page(page_lang(request), "page.bad_unsubscribe", 404)
        return message_page(
            page_lang(request), "page.unsubscribed" if table else "page.unsubscribed_all"
        )

    return app


def message_page(lang: str, key: str, status: int = 200) -> HTMLResponse:
    """A short page that says one thing (a link opened from a mail); like every
    page, it links the app's manifest and icons and registers the service worker."""
    text = html.escape(translate(key, lang))
    home = html.escape(translate("page.back_home", lang))
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>Espadas</title><link rel="stylesheet" href="/static/app.css">'
        f'<meta name="theme-color" content="{THEME_COLOR}">'
        f'<link rel="manifest" href="/manifest.webmanifest?lang={lang}">'
        '<link rel="icon" href="/favicon.ico" sizes="16x16 32x32 48x48">'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">'
        '<script type="module" src="/static/js/worker.js"></script></head>'
        f'<body><main id="main"><h1>Espadas</h1><p>{text}</p>'
        f'<p><a href="/">{home}</a></p></main></body></html>'
    )
    return HTMLResponse(body, status_code=status, headers={"content-language": lang})
