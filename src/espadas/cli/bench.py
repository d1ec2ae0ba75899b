"""``espadas bench engine [--json]``: random complete hands per second through the
engine's public API on one core (deal, bids, random legal plays, scoring).

The last line printed is always ``hands_per_second=N``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from espadas.engine import Game, Rules, deal_cards


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("bench", help="measure speed")
    p.add_argument("what", choices=["engine"], help="what to measure")
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


def run(args: argparse.Namespace) -> int:
    rules = Rules.from_preset(args.preset)
    rng = random.Random(args.seed)
    random_hands(rules, rng, 0.3)  # warm-up
    rounds = max(3, round(args.seconds))
    rates = []
    total = 0
    for i in range(rounds):
        hands, elapsed = random_hands(rules, rng, args.seconds / rounds)
        total += hands
        rates.append(hands / elapsed)
        if not args.json:
            print(f"round {i + 1}/{rounds}: {hands / elapsed:,.0f} hands/s", file=sys.stderr)
    # The best round is the figure (as timeit advises): other load on the machine
    # only ever slows a round down. The median is printed beside it.
    best = max(rates)
    median = statistics.median(rates)
    if args.json:
        print(
            json.dumps(
                {
                    "what": "engine",
                    "preset": rules.preset,
                    "hands": total,
                    "rounds": rounds,
                    "hands_per_second": round(best),
                    "median_hands_per_second": round(median),
                }
            )
        )
    else:
        print(
            f"{total} random hands of {rules.preset} in {rounds} rounds on one core: "
            f"best {best:,.0f}/s, median {median:,.0f}/s"
        )
    print(f"hands_per_second={round(best)}")
    return 0
