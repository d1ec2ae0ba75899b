"""``espadas play``: a whole game in the terminal against robots.

The human sits at seat 0; every other seat is a robot of one level (``--robots``:
``normal`` by default, or ``aleatorio`` or ``experto``).
Input is read line by line (piped input works; end of input quits), and the
game's record is saved at the end or on quitting. On a terminal the player's
turn is drawn as a board (``rich``); piped, every message is a plain line.

- :mod:`espadas.cli.play.grammar`: what the player types;
- :mod:`espadas.cli.play.screen`: what is shown;
- :mod:`espadas.cli.play.session`: the game loop and the record.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from espadas.cli.options import add_rules_arguments, rules_from_args
from espadas.cli.play.screen import Console, StdConsole
from espadas.cli.play.session import TerminalGame
from espadas.engine import InvalidRules, Rules
from espadas.i18n import DEFAULT_LANG, LANGS, error_text, translate
from espadas.robots.registry import LEVELS


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a game in the terminal against robots",
        description="Play a whole game in the terminal against robots (Spanish by default).",
    )
    add_rules_arguments(p)
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default es)")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    p.add_argument(
        "--robots",
        choices=LEVELS,
        default="normal",
        help="the level of the robots at the table (default normal)",
    )
    p.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="where to save the game record (default espadas-YYYYmmdd-HHMMSS.record.json)",
    )
    p.set_defaults(run=run)


def default_record_path() -> Path:
    return Path(f"espadas-{datetime.now():%Y%m%d-%H%M%S}.record.json")


def rules_or_none(args: argparse.Namespace) -> Rules | None:
    """The rules the arguments ask for, or ``None`` after saying why they are refused."""
    try:
        return rules_from_args(args.preset, args.sets)
    except InvalidRules as err:
        error = error_text(err, args.lang)
    except ValueError as err:
        error = str(err)
    print(translate("ui.bad_rules", args.lang, error=error), file=sys.stderr)
    return None


def _tolerant_stdout() -> None:
    """A terminal that cannot show ♠ gets a replacement character, not a crash."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if callable(reconfigure):
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")


def _console() -> Console:
    """The board console (``rich``) on a terminal, plain lines otherwise."""
    isatty = getattr(sys.stdout, "isatty", None)
    if callable(isatty) and isatty():
        from espadas.cli.play.board import RichConsole

        return RichConsole()
    return StdConsole()


def run(args: argparse.Namespace) -> int:
    rules = rules_or_none(args)
    if rules is None:
        return 2
    _tolerant_stdout()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**63)
    path = Path(args.record) if args.record else default_record_path()
    table = TerminalGame(rules, seed, args.lang, _console(), level=args.robots)
    try:
        table.play()
    except KeyboardInterrupt:
        table.console.say("")
        table.say("ui.quit")
    return 0 if table.save(path) else 1
