"""``espadas event create|list|standings``: duplicate events for administrators,
on the store itself (``--data``/``--db``, as ``espadas ratings rebuild``).

- ``create NAME --organiser WHO`` deals the boards and prints the event's id, its
  commitment and its join link's path (``/torneo/ID?t=TOKEN``; without the token
  for an event with ``--invite`` list);
- ``list`` prints the events, newest first;
- ``standings ID`` prints the standings recomputed from the stored records alone
  (``--json``: the object ``GET /api/events/ID/standings`` answers).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from espadas.engine.errors import EspadasError
from espadas.i18n import DEFAULT_LANG, LANGS, translate
from espadas.server.settings import Settings
from espadas.tables.boards import boards_json
from espadas.tables.errors import TableError
from espadas.tables.tournament import EventSpec, deal_boards, make_spec, standings, standings_body


def add_store_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///FILE (default: DATA/espadas.db) or postgresql://...",
    )
    p.add_argument("--data", default="espadas-data", help="the server's data folder")


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "event", help="duplicate events [torneos]: create, list, standings (administrators)"
    )
    p.add_argument("action", choices=["create", "list", "standings"])
    p.add_argument("target", nargs="?", help="create: the event's name; standings: its id")
    p.add_argument("--organiser", help="create: the organiser's player id or name")
    p.add_argument("--preset", default="estandar")
    p.add_argument("--players", type=int, default=None, help="players per table (3-6)")
    p.add_argument("--renege", choices=["prevented", "allowed"], default="prevented")
    p.add_argument("--boards", type=int, default=8)
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--robot", default="experto", help="the robots that fill the tables")
    p.add_argument("--starts-at", default=None, help="ISO time: it starts by itself then")
    p.add_argument("--days", type=int, default=None, help="it ends this many days after start")
    p.add_argument("--invite", default=None, help="only these players (comma-separated)")
    p.add_argument(
        "--absent",
        choices=["robot", "claim"],
        default="robot",
        help="past the turn limit an absent entrant is replaced by a robot (the organiser "
        "or the other side) or claimed against (default: robot)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG)
    add_store_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    url = Settings(data=Path(args.data), db=args.db).db_url
    try:
        out = asyncio.run(_run(args, url))
    except (TableError, ValueError) as exc:
        text = exc.message if isinstance(exc, TableError) else str(exc)
        print(f"espadas event: {text}", flush=True)
        return 1
    print(out, flush=True)
    return 0


async def _run(args: argparse.Namespace, url: str) -> str:
    from espadas.store.store import Store
    from espadas.store.tournaments import Tournaments

    store = await Store.open(url)
    try:
        db = Tournaments(store.engine)
        if args.action == "create":
            return await _create(args, db)
        if args.action == "list":
            rows = await db.newest()
            if args.json:
                return json.dumps([{"id": r.id, "name": r.name, "status": r.status} for r in rows])
            return "\n".join(f"{r.id}  {r.status:9}  {r.name}" for r in rows)
        body = await event_standings(store, _required(args.target, "the event's id"))
        return json.dumps(body, ensure_ascii=False) if args.json else format_body(body, args.lang)
    finally:
        await store.close()


def _required(value: str | None, what: str) -> str:
    if not value:
        raise ValueError(f"give {what}")
    return value


async def _create(args: argparse.Namespace, db: Any) -> str:
    name = _required(args.target, "the event's name")
    who = await db.player_named(_required(args.organiser, "--organiser"))
    if who is None:
        raise ValueError(f"no player {args.organiser!r}")
    options = {} if args.players is None else {"players": args.players}
    starts = None if args.starts_at is None else datetime.fromisoformat(args.starts_at)
    if starts is not None and starts.tzinfo is None:
        starts = starts.replace(tzinfo=UTC)
    invited = None if args.invite is None else args.invite.split(",")
    spec = make_spec(
        name, args.preset, options, args.renege, args.boards, args.rounds, None,
        args.robot, starts, args.days, invited, args.absent,
    )  # fmt: skip
    boards = deal_boards(spec)
    token = secrets.token_urlsafe(12)
    event = await db.create(
        secrets.token_hex(6), spec.to_dict(), who, boards.commitment,
        boards_json(boards, reveal=True), token, datetime.now(UTC),
    )  # fmt: skip
    link = f"/torneo/{event.id}" + ("" if spec.invited else f"?t={token}")
    if args.json:
        return json.dumps({"id": event.id, "commitment": event.commitment, "link": link})
    return f"{event.id}\n{event.commitment}\n{link}"


async def event_standings(store: Any, event_id: str) -> dict[str, Any]:
    """The standings of a stored event, from its records alone."""
    from espadas.store.tournaments import Tournaments, stored_records

    event = await Tournaments(store.engine).get(event_id)
    if event is None:
        raise ValueError(f"no event {event_id!r}")
    spec = EventSpec.from_dict(event.spec)
    records = [(row.round, rec) for row, rec in await stored_records(store, event_id)]
    final = event.status == "finished"
    return standings_body(event.id, final, standings(spec, records, final))


def format_body(body: dict[str, Any], lang: str = DEFAULT_LANG) -> str:
    """The overall standings for people, then each round's."""
    parts = []
    titled = [(translate("ui.event.overall", lang), body["overall"])]
    titled += [
        (translate("ui.event.round", lang, n=r["round"]), r["standings"]) for r in body["rounds"]
    ]
    for title, rows in titled:
        lines = [title, translate("ui.duplicate.header_mp", lang, entrants=len(rows))]
        for s in rows:
            lines.append(
                translate(
                    "ui.duplicate.row",
                    lang,
                    rank=s["rank"],
                    entrant=s["entrant"],
                    total=f"{s['total']:+.1f}",
                    matchpoints=f"{s['matchpoints']:.1f}",
                    boards=s["boards"],
                )
            )
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


_EVENT_ID = re.compile(r"^[0-9a-f]{12}$")
BUNDLE = "espadas-event/1"


def is_event(argument: str) -> bool:
    """Whether ``espadas duplicate``'s argument names an event: a stored event's id
    (not a file), or a records bundle file (``espadas-event/1``)."""
    if _EVENT_ID.match(argument) and not os.path.exists(argument):
        return True
    if argument == "-" or not os.path.isfile(argument):
        return False
    try:
        with open(argument, encoding="utf-8") as f:
            head = f.read(4096)
    except OSError:
        return False
    return f'"format": "{BUNDLE}"' in head or f'"format":"{BUNDLE}"' in head


def bundle_standings(data: dict[str, Any]) -> dict[str, Any]:
    """The standings of a records bundle (``GET /api/events/ID/records``)."""
    if data.get("format") != BUNDLE:
        raise ValueError(f'format must be "{BUNDLE}"')
    event = dict(data["event"])
    spec = EventSpec.from_dict(event)
    records = [
        (int(t["round"]), t["record"] | {"entrants": t.get("entrants")}) for t in data["tables"]
    ]
    return standings_body(str(event.get("id", "")), True, standings(spec, records))


def run_event(args: argparse.Namespace) -> int:
    """``espadas duplicate EVENT``: the standings recomputed from the records alone."""
    try:
        if os.path.isfile(args.scores):
            with open(args.scores, encoding="utf-8") as f:
                body = bundle_standings(json.load(f))
        else:
            url = Settings(data=Path(args.data), db=args.db).db_url
            body = asyncio.run(_stored(url, args.scores))
    except (EspadasError, ValueError, KeyError, TypeError) as exc:
        text = exc.message if isinstance(exc, EspadasError) else str(exc)
        print(f"espadas duplicate: {text}", flush=True)
        return 1
    print(json.dumps(body, ensure_ascii=False) if args.json else format_body(body, args.lang))
    return 0


async def _stored(url: str, event_id: str) -> dict[str, Any]:
    from espadas.store.store import Store

    store = await Store.open(url)
    try:
        return await event_standings(store, event_id)
    finally:
        await store.close()
