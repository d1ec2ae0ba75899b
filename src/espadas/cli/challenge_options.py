"""``espadas serve``'s options of the daily challenge (``--challenge-…``): when
each day opens, how many boards, the rule set and the robots' levels.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> add_arguments(parser)
>>> challenge_settings(parser.parse_args(["--challenge-start", "06:30"]))["challenge_start"]
'06:30'
>>> challenge_settings(parser.parse_args(["--challenge-boards", "0"]))
Traceback (most recent call last):
...
ValueError: --challenge-boards is 1 to 100, not 0
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from espadas.engine.rules import PRESETS
from espadas.robots.registry import LEVELS

_START = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the daily challenge (/reto)")
    group.add_argument(
        "--challenge-start", default="00:00", help="when each day's challenge opens, UTC HH:MM"
    )
    group.add_argument("--challenge-boards", type=int, default=8, help="boards a day (8)")
    group.add_argument(
        "--challenge-preset", default="estandar", choices=PRESETS, help="rule set (estandar)"
    )
    group.add_argument(
        "--challenge-partner", default="experto", choices=LEVELS, help="partner robot (experto)"
    )
    group.add_argument(
        "--challenge-opponents",
        default="experto",
        choices=LEVELS,
        help="opponent robots (experto)",
    )


def challenge_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~espadas.server.settings.Settings` fields the options give.
    Raises :class:`ValueError` for a start that is not ``HH:MM`` or a count of
    boards outside 1..100."""
    if not _START.match(args.challenge_start):
        raise ValueError(f"--challenge-start is HH:MM (UTC), not {args.challenge_start!r}")
    if not 1 <= args.challenge_boards <= 100:
        raise ValueError(f"--challenge-boards is 1 to 100, not {args.challenge_boards}")
    return {
        "challenge_start": args.challenge_start,
        "challenge_boards": args.challenge_boards,
        "challenge_preset": args.challenge_preset,
        "challenge_partner": args.challenge_partner,
        "challenge_opponents": args.challenge_opponents,
    }
