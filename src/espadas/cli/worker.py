"""``espadas worker --redis URL [--queue NAME]``: decides robot moves for the
servers started with ``--robot-queue URL``. Run as many as the robots need,
on this machine or others; each takes one decision at a time."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "worker", help="decide robot moves for servers using --robot-queue (arq on Redis)"
    )
    p.add_argument("--redis", default="redis://127.0.0.1:6379", help="the Redis of the queue")
    p.add_argument("--queue", default=None, help="queue name (espadas:robots)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from arq.worker import Worker

    from espadas.robots.expert import warm_up
    from espadas.server.robot_queue import QUEUE, worker_settings

    warm_up()
    print(f"espadas worker: waiting for robot decisions on {args.redis}", file=sys.stderr)
    worker = Worker(**worker_settings(args.redis, args.queue or QUEUE))
    worker.run()
    return 0
