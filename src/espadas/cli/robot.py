"""``espadas robot`` (placeholder)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("robot")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return 1
