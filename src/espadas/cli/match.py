"""``espadas match A B``: a duplicate match between two robots.

    espadas match normal aleatorio --deals 500 --seed 7
    espadas match experto normal --preset sala --set players=5 --jobs 4 --json
    espadas match omnisciente experto --chart margin.svg
    espadas match "cmd:python3 my_robot.py" normal --budget-ms 200

Every deal is played once per seating with the same cards (see
:mod:`espadas.robots.arena` for the seatings, the scoring and the faults). The
result goes to stdout, a table or (``--json``) one JSON object; a progress bar
(``rich``) goes to stderr. A bad robot name, option or count exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from espadas.cli.options import add_rules_arguments, rules_from_args
from espadas.cli.progress import Bar, add_budget, add_seed
from espadas.robots.arena import DealResult, MatchResult, MatchSpec, check_robots, run_match
from espadas.robots.chart import write_chart
from espadas.robots.registry import UnknownRobot
from espadas.robots.standing import STARTS
from espadas.robots.stats import Running


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "match",
        help="duplicate match between two robots",
        description="Robot A against robot B, each deal played with the seats swapped "
        "(A rotating through every seat in individual games). Robots: aleatorio, normal, "
        "experto, maestro (experto with a larger budget), omnisciente (sees every hand), "
        "or cmd:PROGRAM ARGS (espadas-robot/1).",
    )
    p.add_argument("robot_a", metavar="A", help="robot A")
    p.add_argument("robot_b", metavar="B", help="robot B")
    p.add_argument("--deals", type=int, default=100, help="number of deals (default 100)")
    add_seed(p, "the deals and robots")
    add_rules_arguments(p)
    p.add_argument("--jobs", type=int, default=1, help="worker processes playing deals (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--chart", metavar="FILE", help="write an SVG of the running margin")
    p.add_argument(
        "--start",
        choices=STARTS,
        default="zero",
        help="score each play starts from: zero (0-0, the default) or mixed (a third of "
        "the deals level, two thirds with one side 50 %% of the target behind)",
    )
    add_budget(p)
    p.set_defaults(run=run)


class Progress:
    """The progress bar on ``stream``: deals done, the running margin ± the 95 %
    half-width, the time left (see :class:`~espadas.cli.progress.Bar`)."""

    def __init__(self, total: int, stream: TextIO, rate: float = 10.0) -> None:
        self.stats = Running()
        columns = ["{task.completed}/{task.total} deals", "{task.fields[margin]}", "ETA"]
        self.bar = Bar(stream, total, columns, rate=rate, margin="")
        self.console = self.bar.console

    def update(self, deal: DealResult) -> None:
        self.stats.add(deal.margin)
        h = self.stats.half_width()
        spread = f" ± {h:.1f}" if h is not None else ""
        self.bar.advance(margin=f"margin {self.stats.mean:+.1f}{spread}")

    def finish(self) -> None:
        self.bar.finish()


def _error(message: str) -> int:
    print(f"espadas match: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args.preset, args.sets)
    except ValueError as exc:  # InvalidRules is a ValueError too
        return _error(str(exc))
    if args.deals < 1:
        return _error(f"--deals must be at least 1, not {args.deals}")
    if args.jobs < 1:
        return _error(f"--jobs must be at least 1, not {args.jobs}")
    if args.budget_ms is not None and not args.budget_ms > 0:
        return _error(f"--budget-ms must be positive, not {args.budget_ms}")
    if args.chart and not Path(args.chart).resolve().parent.is_dir():
        return _error(f"--chart: no folder for {args.chart}")
    spec = MatchSpec(
        args.robot_a,
        args.robot_b,
        rules,
        deals=args.deals,
        seed=args.seed,
        budget_ms=args.budget_ms,
        start=args.start,
    )
    try:
        check_robots(spec)
    except (UnknownRobot, OSError) as exc:
        return _error(str(exc))
    bar = Progress(args.deals, sys.stderr)
    try:
        result = run_match(spec, jobs=args.jobs, progress=bar.update)
    finally:
        bar.finish()
    summary = result.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(format_table(summary))
    if args.chart:
        try:
            save_chart(result, args.chart)
        except OSError as exc:
            print(f"espadas match: cannot write {args.chart}: {exc}", file=sys.stderr)
            return 1
    return 0


def save_chart(result: MatchResult, path: str | Path) -> None:
    """Writes the running mean margin and its 95 % band as an SVG."""
    running = result.running()
    spec = result.spec
    write_chart(
        path,
        [k for k, _, _ in running],
        [m for _, m, _ in running],
        [ci[0] if ci else None for _, _, ci in running],
        [ci[1] if ci else None for _, _, ci in running],
        title=f"{spec.robot_a} (A) − {spec.robot_b} (B), {spec.rules.preset}, seed {spec.seed}: "
        "mean margin per deal, 95 % interval",
        x_label="deals played",
        y_label="points per deal (A − B)",
        band_range_from=min(len(running) - 1, max(4, len(running) // 20)),
    )


def _num(value: Any, unit: str = "", digits: int = 1) -> str:
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value}{unit}"
    return f"{value:.{digits}f}{unit}"


def _behind(s: dict[str, Any], role: str) -> str:
    return f"{s['blind_nil_behind'][role]['bids']} / {s['blind_nil_not_behind'][role]['bids']}"


def format_table(s: dict[str, Any]) -> str:
    """The human-readable report of a match summary.

    >>> from espadas.engine import Rules
    >>> from espadas.robots.arena import MatchSpec, run_match
    >>> spec = MatchSpec("aleatorio", "aleatorio", Rules(), deals=2, seed=1)
    >>> print(format_table(run_match(spec).summary()).splitlines()[0])
    aleatorio (A) vs aleatorio (B): estandar, 2 deals × 2 plays, seed 1
    """
    robots = s["robots"]
    low, high = s["ci95"]
    ci = f"[{low:+.1f}, {high:+.1f}]" if low is not None else "(needs 2 deals)"
    rows: list[tuple[str, str, str]] = [
        ("contracts", _num(s["contracts"]["A"]), _num(s["contracts"]["B"])),
        ("contracts made", _num(s["made_pct"]["A"], " %"), _num(s["made_pct"]["B"], " %")),
        ("Nil bids", _num(s["nil_bids"]["A"]), _num(s["nil_bids"]["B"])),
        ("Nil made", _num(s["nil_pct"]["A"], " %"), _num(s["nil_pct"]["B"], " %")),
        (
            "Nil lost by the partner",
            _num(s["nil_partner_fault_pct"]["A"], " %"),
            _num(s["nil_partner_fault_pct"]["B"], " %"),
        ),
        (
            "blind nil bids / offered",
            f"{s['blind_nil_bids']['A']} / {s['blind_nil_offered']['A']}",
            f"{s['blind_nil_bids']['B']} / {s['blind_nil_offered']['B']}",
        ),
        (
            "blind nil made",
            _num(s["blind_nil_pct"]["A"], " %"),
            _num(s["blind_nil_pct"]["B"], " %"),
        ),
        (
            "blind nil bids behind / not",
            _behind(s, "A"),
            _behind(s, "B"),
        ),
        (
            "bags per hand",
            _num(s["bags_per_hand"]["A"], digits=2),
            _num(s["bags_per_hand"]["B"], digits=2),
        ),
    ]
    for key in ("p50", "p95", "max"):
        rows.append(
            (
                f"decision {key} (ms)",
                _num(s["decision_ms"]["A"][key], digits=3),
                _num(s["decision_ms"]["B"][key], digits=3),
            )
        )
    rows.append(("faults", _num(s["faults"]["A"]), _num(s["faults"]["B"])))
    head = ("", f"A: {robots['A']}", f"B: {robots['B']}")
    w0 = max(len(r[0]) for r in [head, *rows])
    w1 = max(len(r[1]) for r in [head, *rows])
    w2 = max(len(r[2]) for r in [head, *rows])
    lines = [
        f"{robots['A']} (A) vs {robots['B']} (B): {s['preset']}, "
        f"{s['deals']} deal{'' if s['deals'] == 1 else 's'} × "
        f"{s['plays_per_deal']} plays, seed {s['seed']}"
        + ("" if s.get("start", "zero") == "zero" else f", start {s['start']}"),
        f"margin per deal (A − B): {s['margin']:+.1f} points, 95 % interval {ci}",
        "",
        f"{head[0]:<{w0}}  {head[1]:>{w1}}  {head[2]:>{w2}}",
    ]
    lines += [f"{a:<{w0}}  {b:>{w1}}  {c:>{w2}}" for a, b, c in rows]
    return "\n".join(lines)
