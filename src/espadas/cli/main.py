"""The ``espadas`` command: one entry point with sub-commands.

Each sub-command lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from espadas import __version__
from espadas.cli import (
    analyze,
    backup,
    bench,
    copy_db,
    duplicate,
    event,
    export,
    loadtest,
    match,
    play,
    positions,
    ratings,
    replay,
    robot,
    serve,
    verify,
    worker,
)

COMMANDS = (
    serve,
    play,
    replay,
    export,
    analyze,
    match,
    positions,
    robot,
    ratings,
    bench,
    verify,
    duplicate,
    event,
    loadtest,
    worker,
    backup,
    copy_db,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="espadas",
        description="Espadas: Spades in Spanish and English (serve, play, replay, verify, ...).",
    )
    parser.add_argument("--version", action="version", version=f"espadas {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
