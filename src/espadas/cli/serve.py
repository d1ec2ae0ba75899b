"""``espadas serve``: the online tables, on a SQLite file by default.

``espadas serve [--host H] [--port P] [--db URL] [--data DIR]
[--turn-limit-hours N] [--robot NAME=COMMAND ...] [--rate R --burst B]
[--rate-store REDIS_URL] [--sockets-per-player N] [--sockets-per-address N]``
starts one process that serves the JSON API and the live views, applies the
database migrations first, and prints the address to open.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from espadas.cli import challenge_options
from espadas.tables.clock import TURN_LIMIT


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "serve", help="run the server: tables by invitation link, JSON API, live views"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///FILE (default: DATA/espadas.db) or postgresql://...",
    )
    p.add_argument(
        "--data", default="espadas-data", help="folder for the SQLite file and the cookie key"
    )
    p.add_argument(
        "--turn-limit-hours",
        type=float,
        default=TURN_LIMIT / timedelta(hours=1),
        help="how long a player may keep the table waiting before the others may claim (48)",
    )
    p.add_argument(
        "--drop-wait-seconds",
        type=float,
        default=90.0,
        help="in live games (turn limit under an hour), how long a seat waits for a person"
        " whose connection dropped before the absent rule applies; 0: it does not wait (90)",
    )
    p.add_argument(
        "--robot",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer an external robot program (espadas-robot/1) at tables under NAME",
    )
    p.add_argument("--robot-workers", type=int, default=2, help="robot processes (2)")
    p.add_argument(
        "--analysis-budget-ms",
        type=float,
        default=40.0,
        help="search per decision when a finished game is analysed (40; maestro: 4 times)",
    )
    p.add_argument(
        "--robot-queue",
        default=None,
        metavar="REDIS_URL",
        help="send robot decisions to `espadas worker` processes through this Redis",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=20.0,
        help="requests per second each client may keep up (20; beyond: 429)",
    )
    p.add_argument("--burst", type=float, default=120.0, help="requests a client may make at once")
    p.add_argument(
        "--rate-store",
        default=None,
        metavar="REDIS_URL",
        help="count the rate limits in this Redis, shared by every instance given the same"
        " (default: in this instance's memory)",
    )
    p.add_argument(
        "--sockets-per-player",
        type=int,
        default=20,
        metavar="N",
        help="live sockets one player may keep open (20; one more is closed, code 4429)",
    )
    p.add_argument(
        "--sockets-per-address",
        type=int,
        default=50,
        metavar="N",
        help="live sockets one address may keep open (50; one more is closed, code 4429)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="proxies whose X-Forwarded-For/-Proto are believed, comma-separated"
        " (default: 127.0.0.1, or $FORWARDED_ALLOW_IPS)",
    )
    p.add_argument(
        "--public-url", default=None, help="the address people use, for invitation links"
    )
    p.add_argument(
        "--rp-id",
        default=None,
        help="the WebAuthn relying party id of passkeys, a host name"
        " (default: the host of --public-url, else of each request)",
    )
    p.add_argument(
        "--ws-compression",
        action="store_true",
        help="compress WebSocket frames (permessage-deflate): about a fifth of the bytes,"
        " for more processor time per view",
    )
    mail = p.add_argument_group("turn notices by e-mail (off until --smtp-host is given)")
    mail.add_argument("--smtp-host", default=None, help="SMTP server")
    mail.add_argument("--smtp-port", type=int, default=587, help="SMTP port (587)")
    mail.add_argument(
        "--smtp-tls", choices=("starttls", "ssl", "none"), default="starttls", help="(starttls)"
    )
    mail.add_argument(
        "--smtp-user",
        default=None,
        help="SMTP user; the password is read from ESPADAS_SMTP_PASSWORD",
    )
    mail.add_argument("--mail-from", default="Espadas <espadas@localhost>", help="sender")
    mail.add_argument(
        "--notice-interval-minutes",
        type=float,
        default=15.0,
        help="at most one notice per table and person in this time (15)",
    )
    mail.add_argument(
        "--notice-delay-seconds",
        type=float,
        default=60.0,
        help="a turn waits this long before its notice goes out (60)",
    )
    mail.add_argument("--digest-hour", type=int, default=8, help="hour (UTC) of daily digests (8)")
    mail.add_argument(
        "--push-subject",
        default="mailto:espadas@localhost",
        help="contact for Web Push services (mailto: or https: URL)",
    )
    challenge_options.add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from espadas.robots.registry import LEVELS
    from espadas.server.settings import Settings
    from espadas.web.site import create_site

    external: dict[str, str] = {}
    for item in args.robot:
        name, sep, command = item.partition("=")
        name = name.strip()
        if not sep or not name or not command.strip() or name in LEVELS:
            print(
                f"espadas serve: --robot wants NAME=COMMAND with a new name, not {item!r}",
                file=sys.stderr,
            )
            return 2
        external[name] = command.strip()
    if (
        args.turn_limit_hours <= 0
        or not 0 <= args.drop_wait_seconds <= 3600
        or not 0 < args.port < 65536
        or args.robot_workers < 0
        or not 0 < args.analysis_budget_ms <= 10_000
        or args.rate <= 0
        or args.burst < 1
        or args.sockets_per_player < 1
        or args.sockets_per_address < 1
        or not (args.rate_store is None or args.rate_store.startswith(("redis://", "rediss://")))
    ):
        print(
            "espadas serve: a bad --turn-limit-hours, --drop-wait-seconds, --port, --robot-workers,"
            " --analysis-budget-ms, --rate, --burst, --rate-store or --sockets-per-…",
            file=sys.stderr,
        )
        return 2
    try:
        challenge = challenge_options.challenge_settings(args)
    except ValueError as exc:
        print(f"espadas serve: {exc}", file=sys.stderr)
        return 2
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    settings = Settings(
        data=Path(args.data),
        db=args.db,
        turn_limit=timedelta(hours=args.turn_limit_hours),
        drop_wait_s=args.drop_wait_seconds,
        external_robots=external,
        robot_workers=args.robot_workers,
        analysis_budget_ms=args.analysis_budget_ms,
        robot_queue=args.robot_queue,
        # without --public-url, links and the Origin check use the request's own address
        public_url=args.public_url,
        rp_id=args.rp_id,
        local_url=f"http://{shown}:{args.port}",
        rate=args.rate,
        burst=args.burst,
        rate_store=args.rate_store,
        sockets_per_player=args.sockets_per_player,
        sockets_per_address=args.sockets_per_address,
        smtp_host=args.smtp_host,
        smtp_port=args.smtp_port,
        smtp_tls=args.smtp_tls,
        smtp_user=args.smtp_user,
        smtp_password=os.environ.get("ESPADAS_SMTP_PASSWORD"),
        mail_from=args.mail_from,
        notice_interval=timedelta(minutes=args.notice_interval_minutes),
        notice_delay=timedelta(seconds=args.notice_delay_seconds),
        digest_hour=args.digest_hour % 24,
        push_subject=args.push_subject,
        **challenge,
    )
    app = create_site(settings)
    print(f"Espadas: abre http://{shown}:{args.port}/  (open it in your browser)", flush=True)
    print(f"Datos / data: {settings.db_url if args.db is None else '(--db)'}", flush=True)
    _quiet_collector()
    _fixed_mmap_threshold()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        # libuv's event loop and a C HTTP parser instead of asyncio's loop and
        # h11: measured alike (500 tables over HTTP, py-spy attached), 3.2 ms of
        # processor time per action instead of 3.6, and a p99 of 165 ms, not 431
        loop="uvloop",
        http="httptools",
        log_level="warning",
        ws_max_size=16 * 1024,
        ws_per_message_deflate=args.ws_compression,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    return 0


MMAP_THRESHOLD = 64 * 1024
"""Bytes from which the C allocator maps a block of its own (see
:func:`_fixed_mmap_threshold`)."""


def _fixed_mmap_threshold() -> None:
    """Keeps large blocks out of the C allocator's heap (glibc only).

    glibc maps blocks of 128 KiB and more on their own, but raises that threshold
    each time such a block is freed, up to 32 MiB. Large buffers that come and go
    (database replies, announcements, WebSocket frames) then land in the heap
    between long-lived blocks, and the freed space cannot be returned: measured on
    PostgreSQL with 500 tables, the heap's free space grew by about 3 MB a minute
    while the memory in use stayed at 36 MB. A fixed threshold keeps such buffers
    mapped and unmapped on their own (measured: free space flat at 3 MB).
    Elsewhere than glibc this does nothing.

    >>> _fixed_mmap_threshold()  # harmless to call again
    """
    import ctypes
    import platform

    if platform.libc_ver()[0] != "glibc":
        return
    m_mmap_threshold = -3
    # the process's own symbols hold glibc's (no library search at start)
    ctypes.CDLL(None).mallopt(m_mmap_threshold, MMAP_THRESHOLD)


FULL_COLLECTION_EVERY = 300.0
"""Seconds between whole-heap garbage collections in ``serve``. Each pauses the
instance for 200-300 ms at 500 tables, and the replies queued behind it are the
slowest of a load test: with 120 s between them, two instances on PostgreSQL
measured p99 55.4 ms over 600 s; with 300 s, 31.0 ms in the same hour, memory
still flat (0.5 and 0.7 MB a minute)."""


def _quiet_collector() -> None:
    """Fewer, cheaper garbage collections: what is loaded at start (modules, the
    app) is never scanned again, the young generation is collected after 50,000
    new objects instead of 700, and whole-heap collections come a hundred times
    less often. A server holding many tables otherwise pauses for about 100 ms
    per whole-heap collection (measured at 500 tables) several times a minute,
    which shows in the slowest replies.

    Long-lived objects that end up in reference cycles (a closed WebSocket
    connection's protocol, transport and tasks) are only freed by a whole-heap
    collection, so one runs every :data:`FULL_COLLECTION_EVERY` seconds: memory
    stays flat, for one pause of about 200-300 ms every five minutes at 500
    tables and 2,000 connections."""
    import gc
    import threading
    import time

    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 1000)

    def collect() -> None:
        while True:
            time.sleep(FULL_COLLECTION_EVERY)
            gc.collect()

    threading.Thread(target=collect, name="espadas-collector", daemon=True).start()
