"""``espadas verify RECORD.json [--json] [--lang es|en]``: checks each hand's deal commitment.

Exit status 0 when every hand has a commitment and a salt and all match, 1 when
a hand does not match or lacks them, 2 for a file that cannot be read or is
not a valid record. With ``--json`` it prints one object, ``{"hands": [{"hand":
1, "status": "ok", "commitment": …, "computed": …}, …], "ok": true}``, or
``{"error": {"message": …}}``.

>>> from espadas.tables.commitment import HandCheck
>>> print(format_checks([HandCheck(1, "ok", "ab", "ab"), HandCheck(2, "missing", None, None)]))
Mano 1: correcta
Mano 2: sin compromiso
Fallan 1 de 2 manos: 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from espadas.cli.replay import read_text
from espadas.engine.errors import RecordError
from espadas.engine.record import load_record
from espadas.i18n import DEFAULT_LANG, LANGS, translate
from espadas.tables.boards import HEADER as BOARDS
from espadas.tables.boards import verify_boards
from espadas.tables.commitment import HandCheck, verify_record


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="check each hand's deal against the commitment shown when it started",
    )
    p.add_argument(
        "record",
        help="an espadas-record/1 or espadas-boards/1 JSON file ('-' for standard input)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default es)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = read_text(args.record)
        if _is_boards(text):
            return _run_boards(args, text)
        checks = verify_record(load_record(text))
    except RecordError as exc:
        if args.json:
            print(json.dumps({"error": {"message": exc.message}}))
        else:
            text = translate("ui.verify_bad_record", args.lang, error=exc.message)
            print(f"espadas verify: {text}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(checks_json(checks)))
    else:
        print(format_checks(checks, args.lang))
    return 0 if all_ok(checks) else 1


_BOARD_KEYS = {
    "ok": "ui.verify_board_ok",
    "mismatch": "ui.verify_board_mismatch",
    "missing": "ui.verify_board_hidden",
}


def _is_boards(text: str) -> bool:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return False
    return isinstance(data, dict) and data.get("format") == BOARDS


def _run_boards(args: argparse.Namespace, text: str) -> int:
    try:
        checks, whole = verify_boards(json.loads(text))
    except RecordError as exc:
        if args.json:
            print(json.dumps({"error": {"message": exc.message}}))
        else:
            said = translate("ui.verify_bad_boards", args.lang, error=exc.message)
            print(f"espadas verify: {said}", file=sys.stderr)
        return 2
    ok = all_ok(checks) and whole == "ok"
    if args.json:
        boards = [
            {"board": c.hand, "status": c.status, "commitment": c.expected, "computed": c.actual}
            for c in checks
        ]
        print(json.dumps({"boards": boards, "set": whole, "ok": ok}))
        return 0 if ok else 1
    lines = []
    for c in checks:
        lines.append(translate(_BOARD_KEYS[c.status], args.lang, board=c.hand))
    key = "ui.verify_set_ok" if whole == "ok" else "ui.verify_set_mismatch"
    lines.append(translate(key, args.lang, count=len(checks)))
    print("\n".join(lines))
    return 0 if ok else 1


def all_ok(checks: Sequence[HandCheck]) -> bool:
    """Whether every hand has its commitment and matches it."""
    return all(c.status == "ok" for c in checks)


def checks_json(checks: Sequence[HandCheck]) -> dict[str, Any]:
    """The object ``--json`` prints."""
    hands = [
        {"hand": c.hand, "status": c.status, "commitment": c.expected, "computed": c.actual}
        for c in checks
    ]
    return {"hands": hands, "ok": all_ok(checks)}


def format_checks(checks: Sequence[HandCheck], lang: str = DEFAULT_LANG) -> str:
    """One line per hand, then a summary, for people."""
    lines = []
    for c in checks:
        if c.status == "ok":
            key = "ui.verify_ok"
        elif c.status == "mismatch":
            key = "ui.verify_mismatch"
        elif c.expected is None:
            key = "ui.verify_no_commitment"
        else:
            key = "ui.verify_no_salt"
        lines.append(translate(key, lang, hand=c.hand, expected=c.expected, actual=c.actual))
    bad = [str(c.hand) for c in checks if c.status != "ok"]
    if not checks:
        lines.append(translate("ui.verify_no_hands", lang))
    elif bad:
        items = ", ".join(bad)
        lines.append(
            translate("ui.verify_failed", lang, bad=len(bad), count=len(checks), items=items)
        )
    else:
        lines.append(translate("ui.verify_all_ok", lang, count=len(checks)))
    return "\n".join(lines)
