"""``espadas loadtest URL[,URL...] --lobby``: people arriving at the lobby and
pressing quick play, against running servers.

Each simulated person arrives at a random moment of ``--duration`` seconds (all
``--players`` of them), on one of the URLs in turn, and does what the lobby page
does in a browser: chooses a name (``POST /api/session``: a cookie and a CSRF
token), opens the lobby socket (``/api/lobby/live``) and waits for its first
frame, presses quick play in one of the ``--rules`` (``POST /api/lobby/quick``
with ``--robot-wait`` as the wait before robots), and keeps the socket open until
a frame names their table (``you.table``). That moment less the moment of the
press is the figure measured. Then, as the page does, the socket closes and the
person opens their table on their own instance: its view (``GET
/api/tables/ID``) and its socket, kept open until everyone has been seated (a
seat whose person never opens the table goes to a robot).

The report splits the times by table: tables of people only (and, for each,
the time of the press that completed it: the server's part, without the wait
for the others to come), and tables where robots took the free seats after the
wait (for those, each table's longest waiting person's time less the wait: the
excess). It checks, at the end:

- nobody is seated twice: each person's tables (``GET /api/tables``) are exactly
  the one table their socket named;
- nobody is lost from a queue: everyone who pressed is seated (within the wait
  and :data:`PATIENCE` seconds);
- no table is split across instances: each person's view of their table, read
  from the instance they came to, has them seated, nobody seated who did not
  press, and the same person in each seat as the views of their table-mates;
- no table is named before it exists: the first read of each person's table, on
  their instance, finds it (a page that opens a table not made yet says there
  is no such table).

Start the servers with room for clients who all come from one address:
``espadas serve --rate 1000 --burst 100000 --sockets-per-address 100000``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from espadas.cli.figures import quantiles
from espadas.cli.http_pool import ConnectionPool, Reply
from espadas.cli.lobby_report import (
    GOAL_EXCESS_MS,
    GOAL_PEOPLE_P95_MS,
    Person,
    checks,
    describe,
    figures,
    seat_in_view,
)
from espadas.tables.quick import RULE_SETS

PATIENCE = 60.0
"""Seconds past the wait before robots after which a person not seated is lost."""
PEOPLE = 2000
ARRIVALS_S = 60.0
PROGRESS_EVERY = 5.0
LATE_S = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``--lobby`` (``--players`` and ``--duration`` are loadtest's)."""
    lobby = p.add_argument_group(
        "the lobby benchmark (--lobby): people arrive, press quick play, and are seated"
    )
    lobby.add_argument(
        "--lobby",
        action="store_true",
        help=f"people arrive at the lobby instead ({PEOPLE:,} over {ARRIVALS_S:g} s by default)",
    )
    lobby.add_argument(
        "--robot-wait",
        type=float,
        default=2.0,
        help="the wait before robots take the free seats, in each press (2 s; 1 to 300)",
    )
    lobby.add_argument(
        "--robot-level", default="aleatorio", help="the robots' level in each press (aleatorio)"
    )
    lobby.add_argument(
        "--names-first",
        action="store_true",
        help="everyone chooses a name before the clock starts (people who come back):"
        " an arrival is then the socket and the press",
    )
    lobby.add_argument(
        "--rules",
        default=",".join(RULE_SETS),
        help="the rule sets people choose from, comma-separated (all of quick play's)",
    )


@dataclass
class Run:
    """What every person shares: the pools, the settings, the running counts."""

    pools: dict[str, ConnectionPool]
    wait: float
    level: str
    people: int
    began: float = 0.0
    arrived: int = 0
    waiting: int = 0
    finished: int = 0
    """People whose visit to the lobby is over (seated, lost or failed)."""
    everyone: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once every visit is over: the people at their tables leave."""
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def over(self, person: Person) -> None:
        """The person's visit to the lobby is over (counted once)."""
        if not person.done:
            person.done = True
            self.finished += 1
            if self.finished == self.people:
                self.everyone.set()

    def error(self, person: Person, text: str) -> None:
        person.error = text[:200]
        self.errors.append(f"{person.name}: {text[:200]}")


async def call(
    pool: ConnectionPool, method: str, path: str, body: Any, headers: dict[str, str]
) -> Reply:
    """A request with a JSON body (none when ``body`` is None), tried again while
    the server answers 429."""
    data = None if body is None else json.dumps(body).encode()
    for attempt in range(20):
        reply = await pool.request(method, path, data, headers)
        if reply.status_code != 429:
            return reply
        await asyncio.sleep(0.2 * (attempt + 1))
    return reply


async def sign_in(person: Person, run: Run) -> bool:
    """Chooses the person's name, as the page does: their cookie and CSRF token."""
    json_type = {"content-type": "application/json"}
    pool = run.pools[person.base]
    reply = await call(pool, "POST", "/api/session", {"name": person.name}, json_type)
    if reply.status_code != 200:
        run.error(person, f"sign-in {reply.status_code}: {reply.text}")
        return False
    cookie = "; ".join(f"{k}={v}" for k, v in reply.cookies().items())
    person.headers = {"cookie": cookie, "x-csrf-token": reply.json()["csrf"], **json_type}
    return True


async def arrive(person: Person, run: Run) -> None:
    """The person's visit: name (unless chosen before), socket, press, seated,
    their table."""
    from websockets.asyncio.client import connect

    await asyncio.sleep(max(0.0, run.began + person.at - time.monotonic()))
    run.arrived += 1
    pool = run.pools[person.base]
    try:
        if not person.headers and not await sign_in(person, run):
            return
        cookie = person.headers["cookie"]
        url = person.base.replace("http", "ws", 1) + "/api/lobby/live"
        async with connect(url, additional_headers={"cookie": cookie}, open_timeout=60) as socket:
            await asyncio.wait_for(socket.recv(), 60)  # the lobby, as the page shows it
            await press_and_wait(person, run, pool, socket)
        if person.table is not None:
            found = await table_view(person, run)
            if found is None:
                return
            person.seat = found["you"]
            gone = set(found.get("replaced") or ())
            person.seats = tuple(seat_in_view(s, i in gone) for i, s in enumerate(found["seats"]))
            url = person.base.replace("http", "ws", 1) + f"/api/tables/{person.table}/live"
            async with connect(url, additional_headers={"cookie": cookie}, open_timeout=60) as at:
                run.over(person)
                await stay(at, run)
    except Exception as exc:  # counted; the others go on
        run.error(person, f"{type(exc).__name__}: {exc}")
    finally:
        run.over(person)


async def table_view(person: Person, run: Run) -> dict[str, Any] | None:
    """The person's view of the table the lobby named, read on their instance. A
    table not there yet (404) is read again for :data:`LATE_S` seconds: the
    person is counted as told too early, and as an error if it never comes."""
    pool = run.pools[person.base]
    until = time.monotonic() + LATE_S
    while True:
        view = await call(pool, "GET", f"/api/tables/{person.table}", None, person.headers)
        if view.status_code == 200:
            found: dict[str, Any] = view.json()
            return found
        if view.status_code != 404 or time.monotonic() > until:
            run.error(person, f"view {view.status_code}: {view.text}")
            return None
        person.early = True
        await asyncio.sleep(0.1)


async def stay(socket: Any, run: Run) -> None:
    """Reads the table's socket (views come as robots play) until everyone is seated."""

    async def drain() -> None:
        async for _ in socket:
            pass

    reading = asyncio.create_task(drain())
    try:
        await run.everyone.wait()
    finally:
        reading.cancel()


async def press_and_wait(person: Person, run: Run, pool: ConnectionPool, socket: Any) -> None:
    """Presses quick play, then reads the socket until it names the person's table
    (or the wait and :data:`PATIENCE` have gone by)."""
    body = {"rules": person.rules, "wait": run.wait, "robot": run.level}
    person.pressed = time.monotonic()
    reply = await call(pool, "POST", "/api/lobby/quick", body, person.headers)
    if reply.status_code != 201:
        run.error(person, f"quick play {reply.status_code}: {reply.text}")
        return
    person.queued = True
    run.waiting += 1
    deadline = person.pressed + run.wait + PATIENCE
    try:
        while person.table is None:
            raw = await asyncio.wait_for(socket.recv(), max(0.0, deadline - time.monotonic()))
            you = json.loads(raw).get("you")
            if you and you.get("table"):
                person.seated = time.monotonic()
                person.table = str(you["table"])
                run.times.append(person.waited())
    except TimeoutError:
        pass  # lost from the queue: counted by the checks
    finally:
        run.waiting -= 1


async def progress(run: Run, total: int) -> None:
    """A line on stderr every :data:`PROGRESS_EVERY` seconds (also with ``--json``)."""
    shown = 0
    while True:
        await asyncio.sleep(PROGRESS_EVERY)
        recent = quantiles(run.times[shown:])["p95"]
        shown = len(run.times)
        print(
            f"  {time.monotonic() - run.began:5.0f} s  arrived {run.arrived}/{total}"
            f"  waiting {run.waiting}  seated {len(run.times)}"
            f"  p95 of the last seconds {recent} ms  errors {len(run.errors)}",
            file=sys.stderr,
            flush=True,
        )


async def their_tables(person: Person, run: Run) -> list[str]:
    """The ids of the person's tables, as the server lists them."""
    reply = await call(run.pools[person.base], "GET", "/api/tables", None, person.headers)
    if reply.status_code != 200:
        run.error(person, f"tables {reply.status_code}: {reply.text}")
        return []
    return [str(t["id"]) for t in reply.json()["tables"]]


async def in_batches(jobs: list[Any], size: int = 50) -> list[Any]:
    out: list[Any] = []
    for start in range(0, len(jobs), size):
        out += await asyncio.gather(*jobs[start : start + size])
    return out


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def memory(run: Run) -> list[float]:
    """Each server's memory (MB, from ``/health``; 0 where it does not answer)."""
    sizes = []
    for pool in run.pools.values():
        try:
            sizes.append(float((await pool.request("GET", "/health", None, {})).json()["rss_mb"]))
        except Exception:
            sizes.append(0.0)
    return sizes


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    bases = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
    rules = [r.strip() for r in args.rules.split(",") if r.strip()]
    rng = random.Random(args.seed)
    pools = {base: ConnectionPool(base) for base in bases}
    run = Run(pools, args.robot_wait, args.robot_level, args.players)
    mark = secrets.token_hex(3)  # names of their own, whatever ran before
    moments = sorted(rng.uniform(0, args.duration) for _ in range(args.players))
    people = [
        Person(bases[i % len(bases)], f"sala-{mark}-{i}", rng.choice(rules), at)
        for i, at in enumerate(moments)
    ]
    before = await memory(run)
    _say(
        f"{len(people)} people arriving over {args.duration:g} s on {len(bases)} instance(s),"
        f" robots after {args.robot_wait:g} s..."
    )
    if args.names_first:
        _say("everyone chooses a name first...")
        await in_batches([sign_in(p, run) for p in people])
    run.began = time.monotonic()
    shown = asyncio.create_task(progress(run, len(people)))
    visits = [asyncio.create_task(arrive(p, run)) for p in people]
    await run.everyone.wait()
    elapsed = time.monotonic() - run.began
    shown.cancel()
    await asyncio.gather(*visits)  # everyone leaves their table
    _say("checking everyone's tables...")
    tables_of = await in_batches([their_tables(p, run) for p in people])
    found = checks(people, tables_of)
    after = await memory(run)
    for pool in run.pools.values():
        await pool.close()
    report: dict[str, Any] = {
        "instances": len(bases),
        "people": len(people),
        "arrivals_s": args.duration,
        "robot_wait_s": args.robot_wait,
        "robot_level": args.robot_level,
        "names_first": args.names_first,
        "rules": rules,
        "duration_s": round(elapsed, 1),
        "pressed": found["pressed"],
        "seated": sum(len(sent) for sent in found["by_table"].values()),
        **figures(found["by_table"], args.robot_wait),
        "checks": {
            "seated_twice": found["seated_twice"],
            "lost": found["lost"],
            "split_tables": len(found["split_tables"]),
            "told_before_built": len(found["told_before_built"]),
        },
        "seats_given_away": found["seats_given_away"],
        "split_samples": found["split_tables"][:5],
        "told_before_built_samples": found["told_before_built"][:5],
        "errors": len(run.errors),
        "error_samples": run.errors[:5],
        "server_rss_mb": {"before": before, "after": after},
    }
    p95, excess = report["people_only_ms"]["p95"], report["robot_wait_excess_ms"]["max"]
    report["goals"] = {
        "people_only_p95_ms": GOAL_PEOPLE_P95_MS,
        "robot_wait_excess_ms": GOAL_EXCESS_MS,
        "met": (p95 is None or p95 <= GOAL_PEOPLE_P95_MS)
        and (excess is None or excess <= GOAL_EXCESS_MS),
    }
    return report


def run(args: argparse.Namespace) -> int:
    """Runs the benchmark and prints its report; 0 when every check holds and
    nothing failed."""
    args.players = PEOPLE if args.players is None else args.players
    args.duration = ARRIVALS_S if args.duration is None else args.duration
    unknown = [r for r in args.rules.split(",") if r.strip() and r.strip() not in RULE_SETS]
    if args.players < 1 or args.duration <= 0 or not 1 <= args.robot_wait <= 300 or unknown:
        print(
            "espadas loadtest --lobby: --players and --duration must be positive,"
            f" --robot-wait 1 to 300 s, --rules among {', '.join(RULE_SETS)}",
            file=sys.stderr,
        )
        return 2
    try:
        report = asyncio.run(main_async(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"espadas loadtest --lobby: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report) if args.json else describe(report))
    failed = sum(report["checks"].values()) + report["errors"]
    return 0 if failed == 0 else 1
