"""``espadas loadtest URL[,URL...] --tables T --players P --duration D [--json]``.

Simulated people play real games against a running server: each has its own
name (cookie), its own WebSocket, and plays a random legal action when its
view says it is its turn (after a human-like pause, or at once with
``--speed full``). Seats a table's people do not fill get ``aleatorio`` robots;
a finished game is followed by a rematch. With several URLs (instances on one
PostgreSQL) the people of each table are spread over them.

Reported: actions per second, the latency from sending an action to each
person at the table receiving the new view (p50/p95/p99), errors, the server's
memory (from ``/health``), and, measured in the same run, a raw WebSocket echo
server on this machine with as many connections, for the ratio.

Start the server with room for the test's own clients, for example
``espadas serve --rate 1000 --burst 100000``.

With ``--lobby`` it measures the lobby instead: people arriving and pressing
quick play (:mod:`espadas.cli.lobby_load`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.cookiejar as http_cookiejar
import json
import random
import sys
import time
from typing import Any

from espadas.cli.crowd import RUNNING, Person, Stats, open_table, play, sign_in
from espadas.cli.figures import growth, quantiles
from espadas.cli.http_pool import ConnectionPool
from espadas.cli.lobby_load import add_arguments as add_lobby_arguments
from espadas.cli.lobby_load import run as run_lobby


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "loadtest", help="simulated players over real WebSockets against a running server"
    )
    p.add_argument("url", help="the server's address (several, comma-separated, for instances)")
    p.add_argument("--tables", type=int, default=10, help="tables (10)")
    p.add_argument(
        "--players", type=int, default=None, help="simulated people (40; 2,000 with --lobby)"
    )
    p.add_argument(
        "--duration",
        type=float,
        default=None,
        help="seconds of play (30); with --lobby, the seconds over which people arrive (60)",
    )
    p.add_argument(
        "--speed",
        choices=("human", "full"),
        default="human",
        help="human: a pause of 1-4 s before each action (default); full: at once",
    )
    p.add_argument(
        "--via",
        choices=("ws", "http"),
        default="ws",
        help="ws: actions over each person's WebSocket (default); http: POST requests",
    )
    p.add_argument("--seed", type=int, default=1, help="random choices (1)")
    p.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_lobby_arguments(p)
    p.set_defaults(run=run)


MEMORY_EVERY = 30.0
"""Seconds between samples of the servers' memory during the run."""


async def _memory(http: Any, bases: list[str]) -> list[float]:
    sizes = []
    for base in bases:
        try:
            sizes.append(float((await http.get(base + "/health")).json().get("rss_mb", 0.0)))
        except Exception:
            sizes.append(0.0)
    return sizes


async def _echo(connections: int, rate: float, duration: float) -> list[float]:
    """Round trips through a raw WebSocket echo server on this machine."""
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import serve

    async def echo(socket: Any) -> None:
        async for message in socket:
            await socket.send(message)

    latencies: list[float] = []
    async with serve(echo, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        sockets = [await connect(f"ws://127.0.0.1:{port}") for _ in range(connections)]
        stop = time.monotonic() + duration
        interval = 1.0 / max(rate, 1.0)

        async def one(socket: Any) -> None:
            started = time.monotonic()
            await socket.send("x" * 2000)
            await socket.recv()
            latencies.append(time.monotonic() - started)

        while time.monotonic() < stop:
            task = asyncio.create_task(one(random.choice(sockets)))
            RUNNING.add(task)
            task.add_done_callback(RUNNING.discard)
            await asyncio.sleep(interval)
        await asyncio.sleep(0.5)
        for socket in sockets:
            await socket.close()
    return latencies


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    import httpx

    bases = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
    rng = random.Random(args.seed)
    random.seed(args.seed)
    per_table = max(1, min(4, args.players // max(1, args.tables)))
    stats = Stats()
    pools = {base: ConnectionPool(base) for base in bases}
    # idle connections are dropped before the server drops them (uvicorn: 5 s)
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200, keepalive_expiry=3)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        # each simulated person sends their own cookies: the client keeps none
        http.cookies.jar.set_policy(http_cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        people = [Person(bases[i % len(bases)], f"p{i}") for i in range(args.tables * per_table)]

        def say(text: str) -> None:  # progress on stderr, also with --json
            print(text, file=sys.stderr, flush=True)

        say(f"signing in {len(people)} people on {len(bases)} instance(s)...")
        for start in range(0, len(people), 100):
            await asyncio.gather(*(sign_in(http, p) for p in people[start : start + 100]))
        say(f"opening {args.tables} tables ({per_table} people each, robots in the rest)...")
        groups = [people[i * per_table : (i + 1) * per_table] for i in range(args.tables)]
        for start in range(0, len(groups), 50):
            await asyncio.gather(*(open_table(http, g, 4) for g in groups[start : start + 50]))
        memory_before = await _memory(http, bases)
        say(f"playing for {args.duration:g} s ({args.speed} speed)...")
        gc.collect()
        gc.freeze()  # the people and their sockets are not scanned again
        # No collection while the clock runs: the generator's own collections
        # paused it for 100-260 ms every half minute or so (longer as the run
        # went on), and a view that waited in the generator counted as slow.
        # The garbage of a run (closed sockets) waits for the end.
        gc.disable()
        began = time.monotonic()
        stop = began + args.duration
        players = [
            asyncio.create_task(play(http, pools, p, stats, args.speed, args.via, rng))
            for p in people
        ]
        shown = 0
        samples: list[tuple[float, list[float]]] = [(0.0, memory_before)]
        windows: list[tuple[float, float | None]] = []
        while time.monotonic() < stop:
            await asyncio.sleep(min(5.0, max(0.0, stop - time.monotonic())))
            elapsed = time.monotonic() - began
            # the last few seconds only: sorting the whole run's latencies here
            # would stall this loop longer as the run goes on, and show in them
            recent = quantiles(stats.latencies(since=shown))["p99"]
            shown = len(stats.arrivals)
            windows.append((round(elapsed, 1), recent))
            if elapsed - samples[-1][0] >= MEMORY_EVERY - 2.5:
                samples.append((round(elapsed, 1), await _memory(http, bases)))
            say(
                f"  {elapsed:5.0f} s  actions {stats.actions}  "
                f"p99 of the last seconds {recent} ms  errors {len(stats.errors)}"
            )
        elapsed = time.monotonic() - began
        gc.enable()
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        for task in list(RUNNING):
            task.cancel()
        await asyncio.gather(*list(RUNNING), return_exceptions=True)
        memory_after = await _memory(http, bases)
    latencies = stats.latencies()
    echo: list[float] = []
    if not args.no_echo:
        say("echo baseline...")
        echo = await _echo(len(people), stats.actions / max(elapsed, 1e-9), min(args.duration, 20))
    report: dict[str, Any] = {
        "instances": len(bases),
        "tables": args.tables,
        "players": len(people),
        "duration_s": round(elapsed, 1),
        "speed": args.speed,
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / max(elapsed, 1e-9), 1),
        "via": args.via,
        "views": len(latencies),
        "latency_ms": quantiles(latencies),
        "p99_by_window": [[t, p99] for t, p99 in windows],
        "refused": stats.refused,
        "errors": len(stats.errors),
        "error_samples": stats.errors[:5],
        "server_rss_mb": {
            "before": memory_before,
            "after": memory_after,
            "samples": [[t, sizes] for t, sizes in samples],
            "growth_per_minute": growth(samples),
        },
        "echo_ms": quantiles(echo),
    }
    p99, echo99 = report["latency_ms"]["p99"], report["echo_ms"]["p99"]
    report["p99_ratio_to_echo"] = round(p99 / echo99, 1) if p99 and echo99 else None
    return report


def run(args: argparse.Namespace) -> int:
    if args.lobby:
        return run_lobby(args)
    args.players = 40 if args.players is None else args.players
    args.duration = 30.0 if args.duration is None else args.duration
    if args.tables < 1 or args.players < 1 or args.duration <= 0:
        print(
            "espadas loadtest: --tables, --players and --duration must be positive", file=sys.stderr
        )
        return 2
    try:
        report = asyncio.run(main_async(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"espadas loadtest: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report))
    else:
        lat, echo = report["latency_ms"], report["echo_ms"]
        print(
            f"{report['players']} people at {report['tables']} tables on {report['instances']}"
            f" instance(s), {report['duration_s']} s, {report['speed']} speed"
        )
        rate = report["actions_per_second"]
        print(f"actions: {report['actions']} ({rate}/s), errors: {report['errors']}")
        print(
            f"action to views: p50 {lat['p50']} ms, p95 {lat['p95']} ms, p99 {lat['p99']} ms,"
            f" max {lat['max']} ms"
        )
        print(f"echo baseline:   p50 {echo['p50']} ms, p95 {echo['p95']} ms, p99 {echo['p99']} ms")
        memory = report["server_rss_mb"]
        print(
            f"server memory (MB): before {memory['before']}, after {memory['after']},"
            f" growth after the first minute {memory['growth_per_minute']} MB/min"
        )
    return 0 if report["errors"] == 0 else 1
