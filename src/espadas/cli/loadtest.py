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
from dataclasses import dataclass, field
from typing import Any

from espadas.cli.figures import growth, quantiles


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "loadtest", help="simulated players over real WebSockets against a running server"
    )
    p.add_argument("url", help="the server's address (several, comma-separated, for instances)")
    p.add_argument("--tables", type=int, default=10, help="tables (10)")
    p.add_argument("--players", type=int, default=40, help="simulated people (40)")
    p.add_argument("--duration", type=float, default=30.0, help="seconds of play (30)")
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
    p.set_defaults(run=run)


MEMORY_EVERY = 30.0
"""Seconds between samples of the servers' memory during the run."""

RUNNING: set[asyncio.Task[None]] = set()
"""Tasks in flight (kept referenced until done)."""


@dataclass
class Stats:
    actions: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """When the action that made each (table, version) was sent."""
    arrivals: list[tuple[str, int, float]] = field(default_factory=list)
    """Each (table, version, time) a person received a view of."""

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text[:200])

    def latencies(self, since: int = 0) -> list[float]:
        """Seconds from sending each action to each person's view of it (of the
        views received from the ``since``-th on)."""
        out = []
        for table, version, at in self.arrivals[since:]:
            started = self.sent.get((table, version))
            if started is not None:
                out.append(at - started)
        return out


@dataclass
class Person:
    base: str
    name: str
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""
    table: str = ""
    busy: bool = False
    started: float = 0.0
    """When this person's action in flight was sent (over the WebSocket)."""
    seen: int = 0
    acted: int = 0
    """The version this person last acted on (one action per view)."""
    skipped: tuple[dict[str, Any], int] | None = None
    """The latest view (and version) that came while an action was in flight."""

    def headers(self) -> dict[str, str]:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"cookie": cookie, "x-csrf-token": self.csrf, "content-type": "application/json"}


async def _post(http: Any, person: Person, path: str, body: Any = None) -> Any:
    for attempt in range(20):
        response = await http.post(
            person.base + path,
            content=json.dumps(body if body is not None else {}),
            headers=person.headers(),
        )
        if response.status_code == 429:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        return response
    return response


async def _sign_in(http: Any, person: Person) -> None:
    for attempt in range(20):
        response = await http.post(
            person.base + "/api/session", json={"name": person.name}, headers={}
        )
        if response.status_code == 429:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        response.raise_for_status()
        person.cookies = dict(response.cookies)
        person.csrf = response.json()["csrf"]
        return
    raise RuntimeError("the server keeps refusing (429): start it with a higher --rate")


async def _open_table(http: Any, people: list[Person], seats: int) -> str:
    creator = people[0]
    response = await _post(http, creator, "/api/tables", {"renege": "prevented"})
    response.raise_for_status()
    table: str = response.json()["id"]
    for person in people[1:]:
        (await _post(http, person, f"/api/tables/{table}/join")).raise_for_status()
    if len(people) < seats:
        (await _post(http, creator, f"/api/tables/{table}/robots", {"level": "aleatorio"}))
    (await _post(http, creator, f"/api/tables/{table}/start")).raise_for_status()
    for person in people:
        person.table = table
    return table


def _choice(view: dict[str, Any]) -> dict[str, Any] | None:
    """A random legal action among those a person makes in a game."""
    choices = [
        a for a in view["game"]["legal"] if a["type"] in ("bid", "play", "next_hand", "confirm_end")
    ]
    if not choices:
        return None
    action = random.choice(choices)
    body = {"type": action["type"]}
    if "value" in action:
        body["value"] = action["value"]
    return body


async def _act_http(
    http: Any, person: Person, view: dict[str, Any], stats: Stats, think: float
) -> None:
    try:
        if think:
            await asyncio.sleep(think)
        body = _choice(view)
        if body is None:
            return
        started = time.monotonic()
        response = await _post(http, person, f"/api/tables/{person.table}/actions", body)
        if response.status_code == 200:
            stats.actions += 1
            stats.sent[(person.table, response.json()["version"])] = started
        elif response.status_code == 409:
            stats.refused += 1  # someone else acted first (a race, not an error)
        else:
            stats.error(f"action {response.status_code}: {response.text}")
    except Exception as exc:  # counted, the person goes on
        stats.error(f"action: {type(exc).__name__}: {exc}")
    finally:
        person.busy = False


async def _act_ws(socket: Any, person: Person, view: dict[str, Any], think: float) -> None:
    """Sends the action; its answer ("done" or "refused") comes on the socket."""
    try:
        if think:
            await asyncio.sleep(think)
        body = _choice(view)
        if body is None:
            person.busy = False
            return
        person.started = time.monotonic()
        await socket.send(json.dumps({"type": "act", "id": view["version"], "action": body}))
    except Exception:  # the socket closed: the reading side counts it and reconnects
        person.busy = False


def _answered(person: Person, frame: dict[str, Any], stats: Stats) -> None:
    """A "done" or "refused" answer to this person's action over the socket."""
    person.busy = False
    if frame["type"] == "done":
        stats.actions += 1
        stats.sent[(person.table, frame["version"])] = person.started
    elif frame.get("status") == 409:
        stats.refused += 1  # someone else acted first (a race, not an error)
    else:
        stats.error(f"action {frame.get('status')}: {frame.get('message')}")


async def _play(
    http: Any, person: Person, stats: Stats, speed: str, via: str, rng: random.Random
) -> None:
    """Plays until cancelled, reconnecting after a dropped socket."""
    from websockets.asyncio.client import connect

    while True:
        url = person.base.replace("http", "ws", 1) + f"/api/tables/{person.table}/live"
        try:
            async with connect(url, additional_headers=person.headers(), max_size=2**22) as socket:
                while True:
                    try:
                        # asyncio.timeout, not wait_for: wait_for can swallow the
                        # cancellation that ends the run when a frame comes with it
                        async with asyncio.timeout(0.2):
                            raw = await socket.recv()
                    except TimeoutError:
                        # a view that came while this person's HTTP action was in
                        # flight (its answer can come after the socket's view)
                        if person.busy or person.skipped is None:
                            continue
                        view, version = person.skipped
                        person.skipped = None
                    else:
                        frame = json.loads(raw)
                        if frame["type"] != "view":
                            _answered(person, frame, stats)
                            continue
                        view = frame["view"]
                        version = frame["version"]
                        now = time.monotonic()
                        for seen in range(person.seen + 1, version + 1):
                            stats.arrivals.append((person.table, seen, now))
                        person.seen = version
                    game = view["game"]
                    if view.get("rematch") and view["rematch"] != person.table:
                        person.table, person.seen, person.acted = view["rematch"], 0, 0
                        person.busy, person.skipped = False, None
                        break  # to the rematch's socket
                    if game is None:
                        continue
                    if person.busy:
                        person.skipped = (view, version)
                        continue
                    person.skipped = None
                    if game["phase"] == "game_over" and view["creator"] and not view["rematch"]:
                        await _rematch(http, person, stats)
                        continue
                    mine = game["to_act"] == view["you"] and game["to_act"] is not None
                    closing = game["phase"] == "hand_end" and view["creator"]
                    if (mine or closing) and person.acted < version:
                        person.acted = version
                        person.busy = True
                        think = 0.0 if speed == "full" else rng.uniform(1.0, 4.0)
                        act = (
                            _act_ws(socket, person, view, think)
                            if via == "ws"
                            else _act_http(http, person, view, stats, think)
                        )
                        task = asyncio.create_task(act)
                        RUNNING.add(task)
                        task.add_done_callback(RUNNING.discard)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a dropped socket: counted, then reconnect
            stats.error(f"socket: {type(exc).__name__}: {exc}")
            person.busy = False
            await asyncio.sleep(0.5)


async def _rematch(http: Any, person: Person, stats: Stats) -> None:
    response = await _post(http, person, f"/api/tables/{person.table}/rematch", {})
    if response.status_code != 201:
        stats.error(f"rematch {response.status_code}")
        return
    table = response.json()["id"]
    started = await _post(http, person, f"/api/tables/{table}/start")
    if started.status_code != 200:
        stats.error(f"start {started.status_code}")


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
            await asyncio.gather(*(_sign_in(http, p) for p in people[start : start + 100]))
        say(f"opening {args.tables} tables ({per_table} people each, robots in the rest)...")
        groups = [people[i * per_table : (i + 1) * per_table] for i in range(args.tables)]
        for start in range(0, len(groups), 50):
            await asyncio.gather(*(_open_table(http, g, 4) for g in groups[start : start + 50]))
        memory_before = await _memory(http, bases)
        say(f"playing for {args.duration:g} s ({args.speed} speed)...")
        gc.collect()
        gc.freeze()  # the people and their sockets are not scanned again
        gc.set_threshold(50_000, 20, 1000)
        began = time.monotonic()
        stop = began + args.duration
        players = [
            asyncio.create_task(_play(http, p, stats, args.speed, args.via, rng)) for p in people
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
