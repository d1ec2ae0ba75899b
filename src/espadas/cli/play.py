"""``espadas play``: a whole game in the terminal against three robots."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("play", help="play a game in the terminal")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print("not yet")
    return 1
