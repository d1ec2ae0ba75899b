"""``espadas analyze RECORD.json``: the analysis of a game, decision by decision.

    espadas analyze game.json                      # every seat, in Spanish
    espadas analyze game.json --seat 2 --lang en
    espadas analyze game.json --level maestro --jobs 2 --json

Each bid and play of the chosen seat (every seat by default), and in blind-nil
games the choice between looking and blind nil, is valued by the search from
that seat's own view at that moment (:mod:`espadas.robots.analysis`). The
report goes to stdout: the marked decisions hand by hand and a summary per seat
in ``--lang``, or (``--json``) one ``espadas-analysis/1`` object (README,
"Records, replay and export"). A progress bar (``rich``) goes to stderr. The
same ``--seed`` gives the same output, whatever ``--jobs``. A malformed or
illegal record exits with status 2 and, with ``--json``, the error object of
``espadas replay --json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from espadas.cli.progress import Bar, add_output, add_seed
from espadas.cli.replay import error_object, fail, read_text
from espadas.engine import Bid, Look, Play
from espadas.engine.errors import RecordError, ReplayError
from espadas.engine.record import load_record
from espadas.i18n import DEFAULT_LANG, translate
from espadas.robots.analysis import (
    ERROR_FACTOR,
    MARKS,
    THRESHOLDS,
    Verdict,
    action_json,
    analyse,
    analysis_json,
    decisions,
    summary,
)
from espadas.robots.registry import ANALYSIS_LEVELS


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "analyze",
        help="analyse a game record: the points each decision lost, marked",
        description="Values every decision of a seat from its own view with the search "
        "and marks inaccuracies, mistakes and blunders.",
    )
    p.add_argument("record", help="an espadas-record/1 JSON file ('-' for standard input)")
    p.add_argument("--seat", type=int, default=None, help="the seat to analyse (default: all)")
    p.add_argument(
        "--level",
        choices=ANALYSIS_LEVELS,
        default="experto",
        help="the search (default experto; maestro searches 4 times as long)",
    )
    add_output(p, "print one espadas-analysis/1 object")
    add_seed(p, "the search")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.set_defaults(run=run)


class Progress:
    """Decisions analysed, drawn on ``stream``; started at the first one."""

    def __init__(self, total: int, stream: TextIO, lang: str) -> None:
        unit = translate("ui.analysis.progress", lang).replace("[", r"\[")
        self.bar = Bar(stream, total, ["{task.completed}/{task.total} " + unit])
        self.console = self.bar.console

    def update(self, _: Verdict) -> None:
        self.bar.advance()

    def finish(self) -> None:
        self.bar.finish()


def _fail(as_json: bool, obj: dict[str, Any]) -> int:
    return fail("analyze", as_json, obj)


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        return _fail(
            args.json, {"error": {"message": f"--jobs must be at least 1, not {args.jobs}"}}
        )
    try:
        record = load_record(read_text(args.record))
        n = len(record["players"])
        if args.seat is not None and not 0 <= args.seat < n:
            message = f"--seat must be a seat 0..{n - 1}, not {args.seat}"
            return _fail(args.json, {"error": {"message": message}})
        seats = list(range(n)) if args.seat is None else [args.seat]
        found = decisions(record, seats)
    except (ReplayError, RecordError) as exc:
        return _fail(args.json, error_object(exc))
    bar = Progress(len(found), sys.stderr, args.lang)
    try:
        verdicts = analyse(found, args.level, args.seed, jobs=args.jobs, progress=bar.update)
    finally:
        bar.finish()
    if args.json:
        print(json.dumps(analysis_json(verdicts, seats), ensure_ascii=False))
    else:
        print(report(verdicts, seats, n, args.lang, args.level, args.seed))
    return 0


# the report for people ------------------------------------------------------------------
def _number(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "es" else text


def _where(v: Verdict, players: int, lang: str) -> str:
    d = v.decision
    params: dict[str, Any] = {"hand": d.hand + 1, "seat": d.seat, "players": players}
    if d.stage == "play":
        bids = sum(1 for b in d.view.bids if b is not None)
        trick = (d.action - bids) // players + 1
        return translate("ui.analysis.at_play", lang, trick=trick, **params)
    key = "ui.analysis.at_look" if d.stage == "look" else "ui.analysis.at_bid"
    return translate(key, lang, **params)


def _said(action: object, lang: str, taken: bool) -> str:
    """``jugaste 9♥`` / ``mejor K♠`` and the like."""
    if isinstance(action, Play):
        key = "ui.analysis.played" if taken else "ui.analysis.best_play"
        return translate(key, lang, card=str(action.card))
    if isinstance(action, Bid):
        key = "ui.analysis.bid" if taken else "ui.analysis.best_bid"
        return translate(key, lang, value=action_json(action))
    assert isinstance(action, Look)
    return translate("ui.analysis.looked" if taken else "ui.analysis.best_look", lang)


def decision_line(v: Verdict, players: int, lang: str = DEFAULT_LANG) -> str:
    """One marked decision: ``Mano 3, baza 5, N: jugaste 9♥; mejor K♠ (−12,4 ± 3,1
    puntos): error`` (the loss and its standard error); a bid compared with Nil says
    how often the Nil was made against ``normal``'s defence."""
    where = _where(v, players, lang)
    taken = _said(v.decision.taken, lang, True)
    mark = translate(f"ui.analysis.mark.{v.mark}", lang)
    if v.loss is None:
        return translate("ui.analysis.renege_line", lang, at=where, taken=taken, mark=mark)
    best = _said(v.best().action, lang, False)
    loss = "−" + _number(v.loss, lang)
    if v.loss_error is not None:
        loss += " ± " + _number(v.loss_error, lang)
    params = {"at": where, "taken": taken, "best": best, "loss": loss, "mark": mark}
    if v.nil_chance is not None:
        chance = round(100 * v.nil_chance)
        return translate("ui.analysis.line_nil", lang, chance=chance, **params)
    return translate("ui.analysis.line", lang, **params)


def report(
    verdicts: Sequence[Verdict],
    seats: Sequence[int],
    players: int,
    lang: str = DEFAULT_LANG,
    level: str = "experto",
    seed: int = 1,
) -> str:
    """The analysis for people: the thresholds, each hand's marked decisions, and a
    summary line per seat."""
    limits = {m: _number(THRESHOLDS[m], lang) for m in MARKS}
    factor = f"{ERROR_FACTOR:g}"
    lines = [translate("ui.analysis.header", lang, level=level, seed=seed, factor=factor, **limits)]
    hand = -1
    for v in verdicts:
        if v.mark is None:
            continue
        if v.decision.hand != hand:
            hand = v.decision.hand
            lines.append("")
        lines.append(decision_line(v, players, lang))
    if all(v.mark is None for v in verdicts):
        lines.append(translate("ui.analysis.nothing_marked", lang))
    lines.append("")
    for seat, entry in summary(verdicts, seats).items():
        average = entry["average_loss"]
        lines.append(
            translate(
                "ui.analysis.seat_summary",
                lang,
                seat=int(seat),
                players=players,
                decisions=entry["decisions"],
                average=_number(average or 0.0, lang),
                **entry["marks"],
            )
        )
    return "\n".join(lines)
