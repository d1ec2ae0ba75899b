"""``--preset P --set option=value`` on the command line, turned into :class:`Rules`.

>>> rules_from_args("sala", ["players=5", "quicksand=true"]).players
5
>>> parse_value("null") is None, parse_value("-200"), parse_value("two_of_clubs")
(True, -200, 'two_of_clubs')
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from espadas.engine import PRESETS, Rules


def parse_value(text: str) -> Any:
    """``true``/``false``/``null``, an integer, or the text itself."""
    low = text.strip().lower()
    if low == "true":
        return True
    if low == "false":
        return False
    if low == "null":
        return None
    try:
        return int(low)
    except ValueError:
        return text.strip()


def rules_from_args(preset: str, sets: Sequence[str]) -> Rules:
    """Raises :class:`espadas.engine.InvalidRules` (or ``ValueError`` for bad syntax)."""
    options: dict[str, Any] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--set takes option=value, as in target=250, not {item!r}")
        options[name.strip()] = parse_value(value)
    return Rules.from_preset(preset, **options)


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds ``--preset`` and repeatable ``--set option=value``."""
    parser.add_argument(
        "--preset", default="estandar", choices=PRESETS, help="rule preset (default estandar)"
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change one option, e.g. --set target=250 --set renege=prevented",
    )
