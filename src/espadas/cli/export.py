"""``espadas export RECORD.json --pbn``: a game record as PBN text."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from espadas.cli.replay import read_text
from espadas.engine.errors import RecordError, ReplayError
from espadas.engine.pbn import game_pbn
from espadas.engine.record import load_record, rebuild


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("export", help="export a game record (PBN)")
    p.add_argument("record", help="an espadas-record/1 JSON file ('-' for standard input)")
    p.add_argument("--pbn", action="store_true", required=True, help="write PBN (the only format)")
    p.add_argument("-o", "--output", help="write to this file instead of standard output")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        data = load_record(read_text(args.record))
        game = rebuild(data)
    except (RecordError, ReplayError) as exc:
        print(f"espadas export: {exc.message}", file=sys.stderr)
        return 2
    text = game_pbn(game, [str(p) for p in data["players"]])
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
