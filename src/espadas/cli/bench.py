"""``espadas bench engine|kernel|club [--json]``: speed on one core.

- ``club``: the club's profiles, histories and leaderboards with ``--players``
  and ``--games`` in a fresh database (:mod:`espadas.cli.club_bench`).

- ``engine``: random complete hands per second through the engine's public API
  (deal, bids, random legal plays, scoring). Last line ``hands_per_second=N``.
- ``kernel``: play-outs of complete hands per second by the robots' compiled
  kernel (random deals, from the first lead to the last trick). Last line
  ``playouts_per_second=N``.

Each runs several rounds and reports the best (as timeit advises: other load on
the machine only ever slows a round down) with the median beside it.

``engine --compare-openspiel PYTHON`` alternates rounds of ours with rounds of
OpenSpiel's Spades (``pyspiel.load_game("spades")``: random legal actions from a
fresh state to the end, the deal's chance actions included) run by ``PYTHON``, a
Python with ``open_spiel`` installed (never a dependency of Espadas), and prints
both rates and their ratio; last line ``ratio=R``. ``--cpu-time`` times each
round by its own process's CPU time instead of the wall clock: on a machine
shared with other work, the time other processes take is then left out.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from espadas.engine import Game, Rules, deal_cards


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("bench", help="measure speed")
    p.add_argument("what", choices=["engine", "kernel", "club"], help="what to measure")
    p.add_argument("--seconds", type=float, default=5.0, help="how long to run (default 5)")
    p.add_argument("--preset", default="estandar", help="rule preset (default estandar)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random choices")
    p.add_argument("--json", action="store_true", help="print one JSON object before the last line")
    p.add_argument(
        "--cpu-time",
        action="store_true",
        help="engine only: time rounds by this process's CPU time, not the wall clock "
        "(steadier on a busy machine)",
    )
    p.add_argument(
        "--compare-openspiel",
        metavar="PYTHON",
        help="engine only: alternate rounds with OpenSpiel's Spades run by this Python",
    )
    p.add_argument("--players", type=int, default=10_000, help="club only: players (10000)")
    p.add_argument("--games", type=int, default=200_000, help="club only: games (200000)")
    p.add_argument("--db", help="club only: an empty PostgreSQL database (default: SQLite)")
    p.add_argument("--requests", type=int, default=200, help="club only: requests of each kind")
    p.set_defaults(run=run)


def random_hands(
    rules: Rules, rng: random.Random, seconds: float, clock: Callable[[], float] = time.perf_counter
) -> tuple[int, float]:
    """Plays random complete hands for about ``seconds`` of ``clock``; returns
    (hands, elapsed)."""
    hands = 0
    start = clock()
    deadline = start + seconds
    game = Game(rules, first_dealer=0)
    while True:
        game = play_random_hands(rules, rng, game, 50)
        hands += 50
        now = clock()
        if now >= deadline:
            return hands, now - start


def play_random_hands(rules: Rules, rng: random.Random, game: Game, count: int) -> Game:
    """Plays ``count`` random complete hands from ``game`` on, a new game after each
    that ends; returns the game played last. :func:`random_hands` times it, and
    ``scripts/engine-instructions`` counts its instructions."""
    for _ in range(count):
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
    return game


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


# The OpenSpiel side, run by the other Python: one line "SECONDS" in, one line
# "HANDS ELAPSED" out per round; the same loop shape and clock as random_hands.
OPENSPIEL_CHILD = """
import random, sys, time
try:
    import pyspiel
except ImportError as e:
    print("no-open-spiel", e, flush=True)
    sys.exit(3)
game = pyspiel.load_game("spades")
rand = random.Random(int(sys.argv[1])).random
clock = time.process_time if sys.argv[2] == "cpu" else time.perf_counter
new_state = game.new_initial_state
print("ready", flush=True)
for line in sys.stdin:
    hands = 0
    start = clock()
    deadline = start + float(line)
    while True:
        for _ in range(50):
            state = new_state()
            done, legal, apply = state.is_terminal, state.legal_actions, state.apply_action
            while not done():
                actions = legal()
                apply(actions[int(rand() * len(actions))])
            hands += 1
        now = clock()
        if now >= deadline:
            break
    print(hands, now - start, flush=True)
"""


class OpenSpiel:
    """A child process of ``python`` that plays OpenSpiel's Spades on request."""

    def __init__(self, python: str, seed: int, cpu: bool) -> None:
        try:
            self.proc = subprocess.Popen(
                [python, "-c", OPENSPIEL_CHILD, str(seed), "cpu" if cpu else "wall"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        except OSError as e:
            raise SystemExit(f"cannot run {python}: {e}") from None
        first = self.proc.stdout.readline() if self.proc.stdout else ""
        if first.strip() != "ready":
            self.proc.wait()
            raise SystemExit(
                f"open_spiel is not importable by {python} ({first.strip() or 'no answer'}); "
                "install it there, e.g. python3 -m venv /work/scratch-openspiel && "
                "/work/scratch-openspiel/bin/pip install open_spiel"
            )

    def hands(self, seconds: float) -> tuple[int, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{seconds}\n")
        self.proc.stdin.flush()
        count, elapsed = self.proc.stdout.readline().split()
        return int(count), float(elapsed)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def compare(args: argparse.Namespace, rules: Rules, rounds: int) -> int:
    """Alternates rounds of ours and OpenSpiel's; prints both rates and the ratio."""
    theirs = OpenSpiel(args.compare_openspiel, args.seed, args.cpu_time)
    clock = time.process_time if args.cpu_time else time.perf_counter
    rng = random.Random(args.seed)
    per_round = args.seconds / rounds
    try:
        random_hands(rules, rng, 0.3, clock)  # warm-up, both sides
        theirs.hands(0.3)
        rates: dict[str, list[float]] = {"espadas": [], "openspiel": []}
        for i in range(rounds):
            for name in rates:
                if name == "espadas":
                    count, elapsed = random_hands(rules, rng, per_round, clock)
                else:
                    count, elapsed = theirs.hands(per_round)
                rates[name].append(count / elapsed)
                if not args.json:
                    print(
                        f"round {i + 1}/{rounds} {name}: {count / elapsed:,.0f} hands/s",
                        file=sys.stderr,
                    )
    finally:
        theirs.close()
    best = {name: max(r) for name, r in rates.items()}
    median = {name: statistics.median(r) for name, r in rates.items()}
    ratio = best["espadas"] / best["openspiel"]
    median_ratio = median["espadas"] / median["openspiel"]
    if args.json:
        summary: dict[str, object] = {"what": "engine", "preset": rules.preset, "rounds": rounds}
        summary["clock"] = "cpu" if args.cpu_time else "wall"
        for name in rates:
            summary[f"{name}_hands_per_second"] = round(best[name])
            summary[f"{name}_median_hands_per_second"] = round(median[name])
        summary |= {"ratio": round(ratio, 3), "median_ratio": round(median_ratio, 3)}
        print(json.dumps(summary))
    else:
        for name in rates:
            print(
                f"{name:9} ({rules.preset if name == 'espadas' else 'spades'}): "
                f"best {best[name]:,.0f} hands/s, median {median[name]:,.0f}/s"
            )
        clock_name = "CPU time" if args.cpu_time else "wall clock"
        print(f"espadas/openspiel: {ratio:.2f}x best, {median_ratio:.2f}x median ({clock_name})")
    print(f"ratio={ratio:.3f}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.what == "club":
        return club(args)
    rules = Rules.from_preset(args.preset)
    rng = random.Random(args.seed)
    rounds = max(3, round(args.seconds))
    if args.what != "engine" and (args.compare_openspiel or args.cpu_time):
        raise SystemExit("--compare-openspiel and --cpu-time go with bench engine")
    if args.compare_openspiel:
        return compare(args, rules, rounds)
    if args.what == "kernel":
        from espadas.robots import kernel

        kernel.warm_up()
        return report(
            args, rules, "playouts", rounds, lambda: kernel_playouts(rules, rng, 50_000),
            {"compiled": kernel.COMPILED},
        )  # fmt: skip
    clock = time.process_time if args.cpu_time else time.perf_counter
    random_hands(rules, rng, 0.3, clock)  # warm-up
    return report(
        args,
        rules,
        "hands",
        rounds,
        lambda: random_hands(rules, rng, args.seconds / rounds, clock),
        {},
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


def club(args: argparse.Namespace) -> int:
    """``bench club``: see :mod:`espadas.cli.club_bench`."""
    from espadas.cli.club_bench import run_bench

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    out = run_bench(args.players, args.games, args.db, args.requests, args.seed, say)
    for name, figure in out["figures"].items():
        print(f"{name:24} p50 {figure['p50_ms']:7.2f} ms   p95 {figure['p95_ms']:7.2f} ms")
    if args.json:
        print(json.dumps(out))
    print(f"p95_max_ms={max(f['p95_ms'] for f in out['figures'].values())}")
    return 0
