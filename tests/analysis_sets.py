"""The analysis measured on decisions whose answer is known: right answers that it
should not mark, and plain mistakes that it should (``tests/robots/test_analysis_marks.py``
and the figures of docs/benchmarks.md).

- Right: every position of ``tests/robots/positions/basics.json`` answered with the
  right card ``normal`` plays (the first right card when it plays another), and
  every position of ``tests/robots/positions/obvious.json`` answered with its
  first right answer.
- Plain mistakes: the wrong card of each position of ``analysis_positions.json``
  (a partner's Nil dropped, a partner's winner overtaken, the tenth bag taken:
  confirmed by exact search), the first wrong card of each ``basics.json``
  position (its ``legal`` order: the highest), and Nil bid holding the ace of
  spades in ``obvious.json`` (that ace always takes a trick).

Run as a program it prints the figures (``--budget-ms``, ``--seed``)::

    PYTHONPATH=src:tests python tests/analysis_sets.py --budget-ms 150

With ``--nil-bids N`` it judges instead every number bid of ``normal`` robots in N
deals (``estandar``, deals drawn from seeds 1 to N) and lists those the search
finds worse than Nil, with how often ``normal`` at every seat made that Nil.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from espadas.engine import Action, Bid, Card, CardSet, Game, Play, Rules, deal_cards
from espadas.engine.codec import bid_from_json
from espadas.robots.analysis import Decision, Verdict, decisions, judge
from espadas.robots.normal import NormalRobot
from espadas.robots.positions import Position, load_positions
from espadas.robots.protocol import view_from_request

TESTS = Path(__file__).resolve().parent
BASICS = TESTS / "robots" / "positions" / "basics.json"
OBVIOUS = TESTS / "robots" / "positions" / "obvious.json"
FIXTURE = TESTS / "fixtures" / "analysis_positions.json"


@dataclass(frozen=True)
class Case:
    """A decision with a known answer: ``name`` (the position's id and the answer)."""

    name: str
    category: str
    decision: Decision


def _answer(value: str | int) -> Action:
    return Play(Card(value)) if isinstance(value, str) else Bid(bid_from_json(value))


def _case(p: Position, value: str | int, suffix: str = "") -> Case:
    view = view_from_request(p.request)
    taken = _answer(value)
    stage = "play" if isinstance(taken, Play) else "bid"
    name = f"{p.id}{suffix}:{value}"
    return Case(name, p.category, Decision(0, 0, view.seat, stage, view, taken))


def right_cases() -> list[Case]:
    """The right answers (see the module)."""
    out = []
    for p in load_positions(BASICS):
        view = view_from_request(p.request)
        action = NormalRobot(random.Random(1)).act(view)
        assert isinstance(action, Play)
        card = str(action.card)
        out.append(_case(p, card if card in p.right else p.right[0]))
    out += [_case(p, p.right[0]) for p in load_positions(OBVIOUS)]
    return out


def mistake_cases() -> list[Case]:
    """The plain mistakes (see the module)."""
    out = []
    for i, entry in enumerate(json.loads(FIXTURE.read_text())):
        record = entry["mistake"]
        found = decisions(record, [entry["seat"]])
        d = next(d for d in found if (d.hand, d.action) == (entry["hand"], entry["action"]))
        out.append(Case(f"{entry['kind']}-{i}:{d.taken}", entry["kind"], d))
    for p in load_positions(BASICS):
        wrong = next(c for c in p.request["legal"] if c not in p.right)
        out.append(_case(p, wrong))
    for p in load_positions(OBVIOUS):
        if p.category == "number_bid" and "AS" in p.request["hand"] and 0 in p.request["legal"]:
            out.append(_case(p, 0, "-nil"))
    return out


def run(
    cases: list[Case], budget_ms: float, seed: int, show: Callable[[str], None] | None = None
) -> list[Verdict]:
    verdicts = []
    for case in cases:
        v = judge(case.decision, budget_ms, seed)
        verdicts.append(v)
        if show is not None:
            show(f"{case.name:32} {describe(v)}")
    return verdicts


def describe(v: Verdict) -> str:
    error = getattr(v, "loss_error", None)
    chance = getattr(v, "nil_chance", None)
    best = v.best().action if hasattr(v, "best") else v.appraisal.best().action
    loss = "renege" if v.loss is None else f"{v.loss:6.1f}"
    extra = "" if error is None else f" ± {error:4.1f}"
    extra += "" if chance is None else f" Nil made {chance:.0%}"
    return f"{v.mark or '-':10} loss {loss}{extra} best {_name(best)}"


def _name(action: Action) -> str:
    return str(action.card) if isinstance(action, Play) else str(getattr(action, "value", action))


def nil_bids(deals: int, budget_ms: float, seed: int) -> None:
    """Prints the number bids of ``normal`` that the search finds worse than Nil."""
    rules = Rules.from_preset("estandar")
    bids = checked = 0
    for key in range(1, deals + 1):
        rng = random.Random(key)
        game = Game(rules, first_dealer=rng.randrange(4))
        game.deal(deal_cards(rules, rng, game.dealer))
        robots = [NormalRobot(random.Random(key * 10 + s)) for s in range(4)]
        for k in range(4):
            s = game.to_act
            assert s is not None
            view = game.view_for(s)
            bid = robots[s].act(view)
            assert isinstance(bid, Bid)
            if isinstance(bid.value, int) and bid.value > 0 and Bid(0) in view.legal:
                bids += 1
                v = judge(Decision(0, k, s, "bid", view, bid), budget_ms, seed)
                if getattr(v, "nil_chance", None) is not None:
                    checked += 1
                    print(f"deal {key:4} seat {s} {CardSet(int(view.held or 0))} {describe(v)}")
            game.apply(bid)
    print(f"{bids} number bids, {checked} found worse than Nil by enough to be marked")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="the analysis on right answers and plain mistakes")
    p.add_argument("--budget-ms", type=float, default=150.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="the totals only")
    p.add_argument("--nil-bids", type=int, default=0, metavar="N", help="see the module")
    args = p.parse_args(argv)
    show = None if args.quiet else print
    start = time.monotonic()
    if args.nil_bids:
        nil_bids(args.nil_bids, args.budget_ms, args.seed)
        print(f"budget {args.budget_ms:g} ms, seed {args.seed}, {time.monotonic() - start:.0f} s")
        return 0
    right = right_cases()
    verdicts = run(right, args.budget_ms, args.seed, show)
    marked = [c.name for c, v in zip(right, verdicts, strict=True) if v.mark]
    mistakes = mistake_cases()
    verdicts = run(mistakes, args.budget_ms, args.seed, show)
    found: dict[str, list[int]] = {}
    for c, v in zip(mistakes, verdicts, strict=True):
        counts = found.setdefault(c.category, [0, 0])
        counts[0] += v.mark is not None
        counts[1] += 1
    hit = sum(f for f, _ in found.values())
    print(
        f"right answers marked: {len(marked)} of {len(right)}"
        f" ({100 * len(marked) / len(right):.1f} %): {', '.join(marked) or '-'}"
    )
    print(
        f"plain mistakes marked: {hit} of {len(mistakes)} ({100 * hit / len(mistakes):.1f} %): "
        + ", ".join(f"{k} {f}/{t}" for k, (f, t) in found.items())
    )
    print(f"budget {args.budget_ms:g} ms, seed {args.seed}, {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
