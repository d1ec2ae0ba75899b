"""``espadas replay RECORD.json [--json]``: replays a record through the engine.

With ``--json`` it prints exactly the object of FORMATS.md section 2, or an
error object and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from espadas.engine.errors import RecordError, ReplayError
from espadas.engine.game import Game
from espadas.engine.record import load_record, rebuild, replay_summary


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="replay a game record and print each hand's result"
    )
    p.add_argument("record", help="an espadas-record/1 JSON file ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print the FORMATS.md JSON object")
    p.set_defaults(run=run)


def read_text(path: str) -> str:
    """The file's text (``-`` is standard input); raises :class:`RecordError`."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError("unreadable", f"cannot read {path}: {exc}") from None


def load_game(path: str) -> Game:
    """Reads and replays a record file (raises RecordError or ReplayError)."""
    return rebuild(load_record(read_text(path)))


def run(args: argparse.Namespace) -> int:
    try:
        game = load_game(args.record)
    except (ReplayError, RecordError) as exc:
        return fail("replay", args.json, error_object(exc))
    summary = replay_summary(game)
    if args.json:
        print(json.dumps(summary))
    else:
        print(format_summary(summary))
    return 0


def error_object(exc: RecordError | ReplayError) -> dict[str, Any]:
    """The error object of a malformed (``RecordError``) or illegal
    (``ReplayError``, with the hand and action numbers) record, as ``--json`` prints it."""
    if isinstance(exc, ReplayError):
        return {"error": {"hand": exc.hand, "action": exc.action, "message": exc.message}}
    return {"error": {"message": exc.message}}


def fail(command: str, as_json: bool, obj: dict[str, Any]) -> int:
    """Reports a refusal of ``espadas COMMAND`` (the error object on stdout with
    ``--json``, a line on stderr otherwise) and returns the exit status 2."""
    if as_json:
        print(json.dumps(obj))
    else:
        err = obj["error"]
        where = f"hand {err['hand']}, action {err['action']}: " if "hand" in err else ""
        msg = err["message"]
        said = msg if msg.startswith("hand ") else where + msg
        print(f"espadas {command}: {said}", file=sys.stderr)
    return 2


def format_summary(summary: dict[str, Any]) -> str:
    """A table of each hand for people."""
    lines = []
    for i, hand in enumerate(summary["hands"]):
        tricks = " ".join(str(t) for t in hand["tricks"])
        if hand["score"] is None:
            lines.append(f"hand {i + 1}: tricks {tricks} (unfinished)")
            continue
        score = ", ".join(f"{k} {v:+d}" for k, v in hand["score"].items())
        total = ", ".join(f"{k} {v}" for k, v in hand["total"].items())
        bags = ", ".join(f"{k} {v}" for k, v in hand["bags"].items())
        boston = f"  Boston: {hand['boston']}" if hand["boston"] else ""
        lines.append(
            f"hand {i + 1}: tricks {tricks}; score {score}; total {total}; bags {bags}{boston}"
        )
    if summary["winner"] is not None:
        lines.append(f"winner: {summary['winner']} ({summary['reason']})")
    else:
        lines.append("the game is not over")
    return "\n".join(lines)
