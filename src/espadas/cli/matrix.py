"""The arena matrix: ``espadas match A B`` over every rule set the project measures, one
Markdown table row per rule set.

    scripts/arena-matrix experto normal --deals 500 --jobs 2 --out runs/matrix
    python -m espadas.cli.matrix normal aleatorio --deals 4 --only cien --out /tmp/m

Each rule set of :data:`RULE_SETS` is played by a separate ``espadas match … --json``
(the same program as by hand, with ``--deals``, ``--seed``, ``--jobs`` and
``--budget-ms`` passed on); its JSON goes to ``OUT/NAME.json``, and the table, one
row per rule set (see :func:`table_row`), to standard output and, followed by the
``espadas match`` command of each row, to ``OUT/table.md``. The rule sets where
blind nil is offered start their plays from the ``mixed`` scores (``--start
auto``, see :mod:`espadas.robots.standing`), so that blind nil can be weighed
behind and not behind; the others from 0–0, as every earlier measurement. A bad
argument exits with status 2, a failed match with 1.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class RuleSet:
    """One row of the matrix: a name, a preset and its ``--set`` options."""

    name: str
    preset: str
    sets: tuple[str, ...] = ()
    blind_nil: bool = False

    def describe(self) -> str:
        """The preset and its options as a reader writes them."""
        return " ".join([self.preset, *self.sets])


RULE_SETS = (
    RuleSet("estandar", "estandar", ("renege=prevented",)),
    RuleSet("pagat", "pagat"),
    RuleSet("cien", "cien", blind_nil=True),
    RuleSet("sala", "sala"),
    RuleSet("sala-3", "sala", ("players=3",)),
    RuleSet("sala-5", "sala", ("players=5",)),
    RuleSet("sala-6", "sala", ("players=6",)),
    RuleSet("estandar-suicide", "estandar", ("renege=prevented", "suicide=true")),
    RuleSet("estandar-no-hell", "estandar", ("renege=prevented", "no_hell=true")),
    RuleSet("sala-quicksand", "sala", ("quicksand=true",)),
)
"""The rule sets of the arena matrix: ``estandar`` with renege prevented (also under suicide
and no hell); ``pagat``; ``cien`` (blind nil offered, bags reset, no spades in the
first trick: its preset); ``sala`` with 4 players in partnerships and its bonuses
(its preset), individually with 3, 5 and 6 players, and with quicksand."""

HEADER = (
    "| rule set | deals | margin A − B | 95 % interval | contracts made A / B "
    "| Nil bids A / B | Nil made A / B | blind nil bid A / B | blind nil not behind A / B "
    "| blind nil made A / B | bags per hand A / B | Nil lost by the partner A / B "
    "| decision p95 / max ms A | decision p95 / max ms B |"
)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f} %"


def _pair(summary: dict[str, Any], key: str, show: Any = str) -> str:
    return f"{show(summary[key]['A'])} / {show(summary[key]['B'])}"


def _time(ms: float) -> str:
    return f"{ms:.0f}" if ms >= 10 else f"{ms:.2f}"


def _ms(summary: dict[str, Any], role: str) -> str:
    ms = summary["decision_ms"][role]
    if ms["p95"] is None:
        return "—"
    return f"{_time(ms['p95'])} / {_time(ms['max'])}"


def table_row(name: str, s: dict[str, Any]) -> str:
    """One Markdown row from the ``espadas match --json`` object ``s``.

    Blind nil *bid* is per opportunity (the hands where it was offered), *not
    behind* the count of blind nils bid by a side that did not start behind, and a
    dash means that nothing was there to count (no blind nil offered or bid, no
    Nil with a partner).
    """
    low, high = s["ci95"]
    interval = "—" if low is None else f"{low:+.1f} to {high:+.1f}"
    bags = s["bags_per_hand"]

    def blind_not_behind(role: str) -> str:
        return str(s["blind_nil_not_behind"][role]["bids"]) if s["blind_nil_offered"][role] else "—"

    cells = [
        name,
        str(s["deals"]),
        f"{s['margin']:+.1f}",
        interval,
        _pair(s, "made_pct", _pct),
        _pair(s, "nil_bids"),
        _pair(s, "nil_pct", _pct),
        _pair(s, "blind_nil_bid_pct", _pct),
        f"{blind_not_behind('A')} / {blind_not_behind('B')}",
        _pair(s, "blind_nil_pct", _pct),
        " / ".join("—" if bags[r] is None else f"{bags[r]:.2f}" for r in ("A", "B")),
        _pair(s, "nil_partner_fault_pct", _pct),
        _ms(s, "A"),
        _ms(s, "B"),
    ]
    return "| " + " | ".join(cells) + " |"


def table(rows: Sequence[tuple[str, dict[str, Any]]]) -> str:
    """The Markdown table of ``(name, summary)`` rows, header and separator first."""
    columns = HEADER.count("|") - 1
    lines = [HEADER, "|" + "---|" * columns]
    lines += [table_row(name, s) for name, s in rows]
    return "\n".join(lines)


def match_command(rule_set: RuleSet, args: argparse.Namespace) -> list[str]:
    """The ``espadas match`` command line of one rule set."""
    command = [sys.executable, "-m", "espadas.cli.main", "match", args.robot_a, args.robot_b]
    command += ["--preset", rule_set.preset]
    for option in rule_set.sets:
        command += ["--set", option]
    command += ["--deals", str(args.deals), "--seed", str(args.seed), "--jobs", str(args.jobs)]
    if args.budget_ms is not None:
        command += ["--budget-ms", str(args.budget_ms)]
    start = args.start if args.start != "auto" else "mixed" if rule_set.blind_nil else "zero"
    return [*command, "--start", start, "--json"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="arena-matrix",
        description="espadas match A B over every rule set of the matrix; one Markdown row each.",
    )
    p.add_argument("robot_a", metavar="A", help="robot A")
    p.add_argument("robot_b", metavar="B", help="robot B")
    p.add_argument("--deals", type=int, default=500, help="deals per rule set (default 500)")
    p.add_argument("--seed", type=int, default=1, help="seed of every match (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes per match (default 1)")
    p.add_argument("--budget-ms", type=float, default=None, help="passed to espadas match")
    p.add_argument(
        "--start",
        choices=("auto", "zero", "mixed"),
        default="auto",
        help="starting scores: auto (mixed where blind nil is offered, else zero)",
    )
    p.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="play only this rule set (repeatable): " + ", ".join(r.name for r in RULE_SETS),
    )
    p.add_argument("--out", required=True, help="folder for NAME.json of each match and table.md")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    known = {r.name: r for r in RULE_SETS}
    unknown = [name for name in args.only if name not in known]
    if unknown:
        print(f"arena-matrix: unknown rule set {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.deals < 1 or args.jobs < 1:
        print("arena-matrix: --deals and --jobs must be at least 1", file=sys.stderr)
        return 2
    chosen = [known[n] for n in args.only] if args.only else list(RULE_SETS)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, dict[str, Any]]] = []
    commands: list[str] = []
    for rule_set in chosen:
        began = time.monotonic()
        command = match_command(rule_set, args)
        commands.append(f"{rule_set.name}: espadas {shlex.join(command[3:])}")
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True)
        if done.returncode != 0:
            print(f"arena-matrix: {rule_set.name}: espadas match failed", file=sys.stderr)
            return 1
        summary = json.loads(done.stdout)
        (out / f"{rule_set.name}.json").write_text(done.stdout, encoding="utf-8")
        rows.append((rule_set.name, summary))
        took = time.monotonic() - began
        print(
            f"arena-matrix: {rule_set.name} ({rule_set.describe()}) {took:.1f} s", file=sys.stderr
        )
    text = table(rows)
    listed = "\n".join(f"- `{c}`" for c in commands)
    (out / "table.md").write_text(f"{text}\n\nCommands:\n\n{listed}\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
