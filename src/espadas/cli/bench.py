"""``espadas bench engine|kernel [--json]``: speed on one core.

- ``engine``: random complete hands per second through the engine's public API
  (deal, bids, random legal plays, scoring). Last line ``hands_per_second=N``.
- ``kernel``: play-outs of complete hands per second by the robots' compiled
  kernel (random deals, from the first lead to the last trick). Last line
  ``playouts_per_second=N``.

Each runs several rounds and reports the best (as timeit advises: other load on
the machine only ever slows a round down) with the median beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from espadas.engine import Game, Rules, deal_cards


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("bench", help="measure speed")
    p.add_argument("what", choices=["engine", "kernel"], help="what to measure")
    p.add_argument("--seconds", type=float, default=5.0, help="how long to run (default 5)")
    p.add_argument("--preset", default="estandar", help="rule preset (default estandar)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random choices")
    p.add_argument("--json", action="store_true", help="print one JSON object before the last line")
    p.set_defaults(run=run)


def random_hands(rules: Rules, rng: random.Random, seconds: float) -> tuple[int, float]:
    """Plays random complete hands for about ``seconds``; returns (hands, elapsed)."""
    hands = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    game = Game(rules, first_dealer=0)
    while True:
        for _ in range(50):
            if game.over:
                game = Game(rules, first_dealer=0)
            elif game.phase == "hand_end":
                game.next_hand()
            game.deal(deal_cards(rules, rng, game.dealer))
            while game.phase == "bidding":
                bids = game.legal_bids()
                game.bid(bids[int(rng.random() * len(bids))])
            play, legal_plays = game.play, game.legal_plays
            while not play(legal_plays().pick(rng)):
                pass
            hands += 1
        now = clock()
        if now >= deadline:
            return hands, now - start


def kernel_playouts(rules: Rules, rng: random.Random, rows: int) -> tuple[int, float]:
    """Plays out ``rows`` random deals from the first lead; returns (rows, elapsed)."""
    import numpy as np

    from espadas.robots import kernel

    n = rules.players
    held = np.array([deal_cards(rules, rng, 0) for _ in range(rows)], dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    partner = kernel.partners(rules)
    first = np.full(rows, -1, dtype=np.int64)
    seeds = np.array([rng.getrandbits(31) for _ in range(rows)], dtype=np.int64)
    forbidden = rules.spades_in_first_trick == "forbidden"
    start = time.perf_counter()
    bids = np.full((1, n), max(1, rules.hand_size // n), dtype=np.int64)
    out = kernel.playouts(
        held, n, rules.hand_size, 1 % n, zeros, 0, zeros, False, 0, forbidden, -1,
        bids, partner, first, seeds, 80, kernel.NO_TRACE,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    if int(out.sum()) != rows * rules.hand_size:
        raise AssertionError("kernel lost tricks")
    return rows, elapsed


def run(args: argparse.Namespace) -> int:
    rules = Rules.from_preset(args.preset)
    rng = random.Random(args.seed)
    rounds = max(3, round(args.seconds))
    if args.what == "kernel":
        from espadas.robots import kernel

        kernel.warm_up()
        return report(
            args, rules, "playouts", rounds, lambda: kernel_playouts(rules, rng, 50_000),
            {"compiled": kernel.COMPILED},
        )  # fmt: skip
    random_hands(rules, rng, 0.3)  # warm-up
    return report(
        args, rules, "hands", rounds, lambda: random_hands(rules, rng, args.seconds / rounds), {}
    )


def report(
    args: argparse.Namespace,
    rules: Rules,
    unit: str,
    rounds: int,
    measure: Callable[[], tuple[int, float]],
    extra: dict[str, object],
) -> int:
    """Runs ``measure`` (count, seconds) for several rounds and prints the rate.
    The best round is the figure (as timeit advises: other load on the machine only
    ever slows a round down); the median is printed beside it."""
    rates = []
    total = 0
    for i in range(rounds):
        count, elapsed = measure()
        total += count
        rates.append(count / elapsed)
        if not args.json:
            print(f"round {i + 1}/{rounds}: {count / elapsed:,.0f} {unit}/s", file=sys.stderr)
    best = max(rates)
    median = statistics.median(rates)
    if args.json:
        summary = {"what": args.what, "preset": rules.preset, **extra, unit: total}
        summary |= {
            "rounds": rounds,
            f"{unit}_per_second": round(best),
            f"median_{unit}_per_second": round(median),
        }
        print(json.dumps(summary))
    else:
        print(
            f"{total} {unit} of {rules.preset} in {rounds} rounds on one core: "
            f"best {best:,.0f}/s, median {median:,.0f}/s"
        )
    print(f"{unit}_per_second={round(best)}")
    return 0
