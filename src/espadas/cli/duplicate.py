"""``espadas duplicate SCORES.json``: duplicate standings recomputed from records alone.

The file names each entrant's record and the seat they held
(``espadas-duplicate/1``, described in the README)::

    {"format": "espadas-duplicate/1", "method": "matchpoints",
     "entries": [{"entrant": "ana", "seat": 0, "record": "ana.record.json"},
                 {"entrant": "bea", "seat": 0, "record": "bea.record.json", "robot_from": 6}],
     "par": [{"seat": 0, "record": "robots.record.json"}]}

``record`` is a path (relative to the file's folder) or the record itself;
``robot_from``: the first board the robot played for an entrant who left;
``par``: the robots' own play of the boards, shown, never scored. Every record must
hold the same boards (cards and dealer): a board that differs is refused.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from espadas.cli.event import add_store_options, is_event, run_event
from espadas.cli.replay import fail, read_text
from espadas.engine.errors import RecordError, ReplayError
from espadas.engine.record import load_record
from espadas.i18n import DEFAULT_LANG, LANGS, translate
from espadas.tables.duplicate import (
    METHODS,
    DuplicateError,
    Method,
    Played,
    Result,
    Table,
    record_results,
    score,
)

FORMAT = "espadas-duplicate/1"


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "duplicate", help="duplicate standings of an event, recomputed from its records"
    )
    p.add_argument(
        "scores",
        help=f"a {FORMAT} JSON file ('-' for standard input), an event's records bundle"
        " (espadas-event/1) or a stored event's id (with --data/--db)",
    )
    p.add_argument("--method", choices=METHODS, help="rank by matchpoints or by total points")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default es)")
    add_store_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if is_event(args.scores):
        return run_event(args)
    try:
        table = standings_of(_load(read_text(args.scores)), _folder(args.scores), args.method)
    except (RecordError, ReplayError, DuplicateError) as exc:
        message = exc.message if isinstance(exc, (RecordError, ReplayError)) else str(exc)
        return fail("duplicate", args.json, {"error": {"message": message}})
    if args.json:
        print(json.dumps(table_json(table)))
    else:
        print(format_table(table, args.lang))
    return 0


def _load(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DuplicateError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DuplicateError(f"the file must hold one {FORMAT} object")
    return data


def _folder(path: str) -> str:
    return "." if path == "-" else os.path.dirname(os.path.abspath(path))


def standings_of(data: dict[str, Any], folder: str, method: str | None = None) -> Table:
    """The :class:`Table` of a ``espadas-duplicate/1`` object; raises
    :class:`DuplicateError` (or the record errors) for what cannot be scored."""
    if data.get("format") != FORMAT:
        raise DuplicateError(f'format must be "{FORMAT}"')
    chosen = method or data.get("method", "matchpoints")
    if chosen not in METHODS:
        raise DuplicateError(f"method is one of {', '.join(METHODS)}, not {chosen!r}")
    entries, pars = data.get("entries"), data.get("par", [])
    if not isinstance(entries, list) or not entries or not isinstance(pars, list):
        raise DuplicateError("entries must be a non-empty list and par a list")
    boards: dict[int, tuple[tuple[int, ...], int, str]] = {}
    results: list[Result] = []
    for i, entry in enumerate(entries):
        name, seat, played = _entry(entry, folder, f"entries[{i}]")
        robot_from = entry.get("robot_from")
        if robot_from is not None and (not isinstance(robot_from, int) or robot_from < 1):
            raise DuplicateError(f"entries[{i}].robot_from must be a board number from 1")
        for p in played:
            _same_board(boards, p, name)
            robot = robot_from is not None and p.board >= robot_from
            results.append(Result(name, p.board, seat, p.points, robot))
    par: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(pars):
        _, seat, played = _entry({"entrant": "par", **entry}, folder, f"par[{i}]")
        for p in played:
            _same_board(boards, p, "par")
            par[(p.board, seat)] = p.points
    method_value: Method = "total" if chosen == "total" else "matchpoints"
    return score(results, par, method_value)


def _entry(entry: object, folder: str, where: str) -> tuple[str, int, list[Played]]:
    if not isinstance(entry, dict):
        raise DuplicateError(f"{where} must be an object")
    name, seat, record = entry.get("entrant"), entry.get("seat"), entry.get("record")
    if not isinstance(name, str) or not name:
        raise DuplicateError(f"{where}.entrant must be a name")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise DuplicateError(f"{where}.seat must be a seat number")
    if isinstance(record, str):
        record = load_record(read_text(os.path.join(folder, record)))
    elif not isinstance(record, dict):
        raise DuplicateError(f"{where}.record must be a path or a record object")
    try:
        return name, seat, record_results(record, seat)
    except (RecordError, ReplayError) as exc:
        raise DuplicateError(f"{where} ({name}): {exc.message}") from None


def _same_board(
    boards: dict[int, tuple[tuple[int, ...], int, str]], played: Played, name: str
) -> None:
    first = boards.setdefault(played.board, (played.deal, played.dealer, name))
    if first[:2] != (played.deal, played.dealer):
        raise DuplicateError(
            f"board {played.board} of {name} is not the board {first[2]} played "
            "(other cards or another dealer)"
        )


def table_json(table: Table) -> dict[str, Any]:
    """The object ``--json`` prints."""
    boards: dict[tuple[int, int], list[dict[str, Any]]] = {}
    pars: dict[tuple[int, int], int | None] = {}
    for lines in table.lines.values():
        for line in lines:
            r = line.result
            pars[(r.board, r.direction)] = line.par
            boards.setdefault((r.board, r.direction), []).append(
                {
                    "entrant": r.entrant,
                    "points": r.points,
                    "robot": r.robot,
                    "field": line.field,
                    "above": line.above,
                    "matchpoints": line.matchpoints,
                }
            )
    return {
        "method": table.method,
        "standings": [
            {
                "rank": s.rank,
                "entrant": s.entrant,
                "boards": s.boards,
                "total": s.total,
                "matchpoints": s.matchpoints,
            }
            for s in table.standings
        ],
        "boards": [
            {"board": b, "direction": d, "par": pars[(b, d)], "results": boards[(b, d)]}
            for b, d in sorted(boards)
        ],
    }


def format_table(table: Table, lang: str = DEFAULT_LANG) -> str:
    """The standings for people: a line per entrant, ranks shared by ties."""
    key = "ui.duplicate.header_total" if table.method == "total" else "ui.duplicate.header_mp"
    lines = [translate(key, lang, entrants=len(table.standings))]
    for s in table.standings:
        robot = sum(1 for line in table.lines[s.entrant] if line.result.robot)
        text = translate(
            "ui.duplicate.row",
            lang,
            rank=s.rank,
            entrant=s.entrant,
            total=f"{s.total:+.1f}",
            matchpoints=f"{s.matchpoints:.1f}",
            boards=s.boards,
        )
        if robot:
            text += " " + translate("ui.duplicate.robot_boards", lang, count=robot)
        lines.append(text)
    return "\n".join(lines)
