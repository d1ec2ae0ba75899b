"""``espadas positions [FILE] ROBOT...``: robots scored on a set of test positions.

    espadas positions normal experto
    espadas positions tests/robots/positions/basics.json "cmd:python3 my_robot.py"
    espadas positions experto --budget-ms 150 --json

FILE is an ``espadas-positions/1`` file (see :mod:`espadas.robots.positions`);
without one, the project's set ``tests/robots/positions/basics.json`` is used
(found from the current folder). A ROBOT is a level (``aleatorio``, ``normal``,
``experto``) or ``cmd:PROGRAM ARGS``, a program that speaks ``espadas-robot/1``;
every robot is asked through that protocol. The report gives, per category and
overall, the positions solved, their number and the share; ``--json`` prints
one JSON object instead. A progress bar (``rich``) goes to stderr. A malformed
file, an unknown robot or a bad option exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from espadas.cli.progress import Bar, add_budget, add_output, add_seed
from espadas.i18n import translate
from espadas.robots.base import Robot
from espadas.robots.positions import (
    CATEGORIES,
    Answer,
    Position,
    PositionsError,
    Score,
    categories_of,
    load_positions,
    score,
)
from espadas.robots.registry import LEVELS, UnknownRobot, make_robot

DEFAULT_FILE = Path("tests") / "robots" / "positions" / "basics.json"
"""The project's set, relative to the repository root."""


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "positions",
        help="score robots on a set of test positions",
        description="Asks each robot every position of an espadas-positions/1 file "
        "(default: tests/robots/positions/basics.json) through espadas-robot/1 and "
        "reports the positions solved per category. Robots: aleatorio, normal, experto, "
        "or cmd:PROGRAM ARGS.",
    )
    p.add_argument(
        "items",
        nargs="+",
        metavar="[FILE] ROBOT",
        help="an optional position file (a path ending in .json), then one or more robots",
    )
    add_seed(p, "the robots")
    add_budget(p)
    add_output(p)
    p.add_argument("--failed", action="store_true", help="list the positions each robot failed")
    p.set_defaults(run=run)


def _error(message: str) -> int:
    print(f"espadas positions: {message}", file=sys.stderr)
    return 2


def split_items(items: list[str]) -> tuple[Path, list[str]]:
    """(file, robots): the first item is the file when it ends in ``.json`` and is
    neither a level nor a ``cmd:`` program."""
    first = items[0]
    if first.endswith(".json") and first not in LEVELS and not first.startswith("cmd:"):
        return Path(first), items[1:]
    return DEFAULT_FILE, items


def check_robot(name: str) -> None:
    """Raises :class:`UnknownRobot` for a name that is no level and no ``cmd:`` program
    (``omnisciente`` needs every hand, which a position does not give)."""
    if name in LEVELS:
        return
    if name.startswith("cmd:") and name[4:].strip():
        return
    raise UnknownRobot(
        f"unknown robot {name!r}; choose one of {', '.join(LEVELS)} or cmd:PROGRAM ARGS"
    )


class Progress:
    """The progress bar on ``stream``: positions done and solved so far."""

    def __init__(self, total: int, stream: TextIO) -> None:
        columns = ["{task.completed}/{task.total}", "{task.fields[solved]}"]
        self.bar = Bar(stream, total, columns, before=["{task.description}"], start=True, solved="")
        self.console = self.bar.console
        self.solved = 0

    def robot(self, name: str) -> None:
        self.solved = 0
        self.bar.reset(name, solved="")

    def update(self, a: Answer) -> None:
        self.solved += a.solved
        self.bar.advance(solved=f"✓ {self.solved}")

    def finish(self) -> None:
        self.bar.finish()


def run(args: argparse.Namespace) -> int:
    path, robots = split_items(list(args.items))
    if not robots:
        return _error(translate("ui.positions_no_robot", args.lang))
    if args.budget_ms is not None and not args.budget_ms > 0:
        return _error(f"--budget-ms must be positive, not {args.budget_ms}")
    try:
        for name in robots:
            check_robot(name)
    except UnknownRobot as exc:
        return _error(str(exc))
    try:
        positions = load_positions(path)
    except PositionsError as exc:
        return _error(translate("ui.positions_bad_file", args.lang, error=str(exc)))
    bar = Progress(len(positions), sys.stderr)
    scores: list[Score] = []
    try:
        for name in robots:
            bar.robot(name)
            scores.append(score_robot(name, positions, args.seed, args.budget_ms, bar))
    finally:
        bar.finish()
    if args.json:
        doc = {"file": str(path), "seed": args.seed, "robots": [s.to_json() for s in scores]}
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print(format_scores(scores, positions, args.lang, failed=args.failed))
    return 0


def score_robot(
    name: str,
    positions: list[Position],
    seed: int,
    budget_ms: float | None,
    bar: Progress | None = None,
) -> Score:
    """The score of one robot; a ``cmd:`` program is started once for every position."""
    kept: list[Robot] = []

    def make(s: int) -> Robot:
        if name.startswith("cmd:"):
            if not kept:
                kept.append(make_robot(name, s, arena=True, budget_ms=budget_ms))
            return kept[0]
        return make_robot(name, s, budget_ms=budget_ms)

    try:
        return score(name, positions, make, seed, None if bar is None else bar.update)
    finally:
        for robot in kept:
            close = getattr(robot, "close", None)
            if callable(close):
                close()


def format_scores(
    scores: list[Score], positions: list[Position], lang: str, *, failed: bool = False
) -> str:
    """The report: one row per category and one for the whole set, a column per robot."""
    cats = categories_of(positions)
    rows: list[list[str]] = [[translate("ui.positions_category", lang)] + [s.robot for s in scores]]
    for c in cats:
        cells = [translate(f"ui.positions_cat.{c}", lang) if c in CATEGORIES else c]
        for s in scores:
            solved, total = s.by_category().get(c, (0, 0))
            cells.append(_cell(solved, total))
        rows.append(cells)
    rows.append([translate("ui.positions_all", lang)] + [_cell(s.solved, s.total) for s in scores])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        ).rstrip()
        for row in rows
    ]
    if failed:
        for s in scores:
            for a in s.answers:
                if not a.solved:
                    given = a.fault or str(a.given)
                    right = " ".join(str(r) for r in a.position.right)
                    lines.append(
                        translate(
                            "ui.positions_failed",
                            lang,
                            robot=s.robot,
                            id=a.position.id,
                            given=given,
                            right=right,
                            reason=a.position.reason.get(lang, ""),
                        )
                    )
    return "\n".join(lines)


def _cell(solved: int, total: int) -> str:
    pct = 100.0 * solved / total if total else 0.0
    return f"{solved}/{total} {pct:5.1f} %"
