"""``espadas robot LEVEL``: one of the project's robots as an ``espadas-robot/1`` program.

It reads one JSON request per line on standard input and answers each with one
JSON line on standard output (FORMATS.md section 3). ``{"quit": true}`` or the
end of input ends it with status 0. A malformed request is answered with
``{"error": "..."}`` and the program goes on. Nothing else is written on
standard output; diagnostics go to standard error. Blank lines are ignored.

With ``--explain`` each answer also carries an optional ``"explain"`` key (FORMATS.md
section 3 allows optional keys): the candidate actions the robot weighed, encoded
as answers are, each with the points it expects for its side (``null`` where it
has no estimate), and the reason in words (``--lang es|en``) with its catalog key::

    {"bid": 3, "explain": {"candidates": [{"bid": 3, "points": 41.2}, ...],
     "reason": "...", "reason_key": "search_best", "habit_key": "bid_count"}}

``habit_key`` (``experto`` only) is the habit of ``normal`` the search kept or
overruled. Without ``--explain`` the answers are exactly as before.

A face-down hand (blind-nil games): the robot is offered ``Look`` as it would be
at a table. The protocol cannot show it the cards before it answers, so if it
chooses to look, the answer is :func:`blind_guess` (the tricks an average hand
takes), and the caller then shows it the cards and records that bid.

>>> import io, json
>>> from espadas.engine import Game, Rules
>>> from espadas.robots.protocol import request_for
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> lines = [json.dumps(request_for(game.view_for(3))), "[]", '{"quit": true}']
>>> out = io.StringIO()
>>> serve("aleatorio", 1, io.StringIO("\\n".join(lines) + "\\n"), out, io.StringIO())
0
>>> [sorted(json.loads(x)) for x in out.getvalue().splitlines()]
[['bid'], ['error']]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import sys
import traceback
from typing import IO, Any

from espadas.engine import Bid, Look, Play, PlayerView
from espadas.i18n import DEFAULT_LANG, LANGS, reason_text
from espadas.robots.explain import Candidate, Explanation
from espadas.robots.registry import LEVELS


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "robot",
        help="run a robot as an espadas-robot/1 program (JSON lines on stdin/stdout)",
        description=(
            "Runs one of the club's robots as an external program: one JSON request per"
            " line on standard input, one JSON answer per line on standard output"
            ' (protocol espadas-robot/1). {"quit": true} or end of input stops it.'
        ),
    )
    p.add_argument("level", metavar="LEVEL", choices=LEVELS, help=f"one of {', '.join(LEVELS)}")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable robot")
    p.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        metavar="MS",
        help="time per decision, in milliseconds (experto)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help='add an "explain" key to each answer: candidates weighed, points, reason',
    )
    p.add_argument(
        "--lang", choices=LANGS, default=DEFAULT_LANG, help="language of the reasons (default es)"
    )
    p.set_defaults(run=run)


def blind_guess(view: PlayerView) -> Bid:
    """The bid for a robot that wants to look at a face-down hand it cannot see: the
    legal number of 1 or more closest to ``hand_size / players`` (the lower of two).

    >>> from espadas.engine import Game, Rules
    >>> blind_guess(Game.new(Rules.from_preset("cien"), seed=3).view_for(2))
    Bid(value=3)
    """
    goal = view.rules.hand_size / view.rules.players
    numbers: list[int] = []
    for a in view.legal:
        if isinstance(a, Bid) and isinstance(a.value, int):
            numbers.append(a.value)
    counted = [b for b in numbers if b >= 1] or numbers
    if not counted:
        return next(a for a in view.legal if isinstance(a, Bid))
    best: int = min(counted, key=lambda b: (abs(b - goal), b))
    return Bid(best)


def explain_json(explanation: Explanation, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """The ``"explain"`` value of an answer: candidates encoded as answers are (bids
    and cards only), their points to one decimal, the reason in ``lang``.

    >>> from espadas.robots.explain import Candidate, Explanation
    >>> e = Explanation(Bid(3), (Candidate(Bid(3), 41.24), Candidate(Bid(4), None)), "bid_count",
    ...                 {"tricks": 3.6})
    >>> explain_json(e, "en")  # doctest: +NORMALIZE_WHITESPACE
    {'candidates': [{'bid': 3, 'points': 41.2}, {'bid': 4, 'points': None}],
     'reason': 'Counts its hand at 3.6 tricks and bids a little under that.',
     'reason_key': 'bid_count'}
    """
    from espadas.robots.protocol import response_for

    candidates = [
        {**response_for(c.action), "points": None if c.points is None else round(c.points, 1)}
        for c in explanation.candidates
        if isinstance(c.action, (Bid, Play))
    ]
    out: dict[str, Any] = {
        "candidates": candidates,
        "reason": reason_text(explanation.reason, lang, explanation.params, explanation.habit),
        "reason_key": explanation.reason,
    }
    if explanation.habit is not None:
        out["habit_key"] = explanation.habit
    return out


def _answer(
    robot: Any, line: str, explain: bool = False, lang: str = DEFAULT_LANG
) -> dict[str, Any] | None:
    """The answer to one request line (``None`` for a quit line), with an
    ``"explain"`` key when ``explain``."""
    from espadas.robots.protocol import ProtocolFault, response_for, view_from_request

    try:
        req = json.loads(line)
    except ValueError as e:
        return {"error": f"the request is not JSON: {e}"}
    if isinstance(req, dict) and req.get("quit") is True:
        return None
    try:
        view = view_from_request(req)
    except ProtocolFault as e:
        return {"error": str(e)}
    if view.phase == "bidding" and view.held is None:
        view = dataclasses.replace(view, legal=(Look(view.seat), *view.legal))
    explanation: Explanation | None = robot.explain(view) if explain else None
    action = robot.act(view) if explanation is None else explanation.action
    if isinstance(action, Look):
        action = blind_guess(view)
        if explanation is not None:
            explanation = Explanation(action, (Candidate(action),), "blind_guess")
    if action not in view.legal:
        raise RuntimeError(f"the robot chose {action!r}, which is not legal")
    answer = response_for(action)
    if explanation is not None:
        answer["explain"] = explain_json(explanation, lang)
    return answer


def serve(
    level: str,
    seed: int,
    stdin: IO[str],
    stdout: IO[str],
    stderr: IO[str],
    budget_ms: float | None = None,
    *,
    explain: bool = False,
    lang: str = DEFAULT_LANG,
) -> int:
    """Answers requests from ``stdin`` on ``stdout`` until a quit line or the end;
    with ``explain``, each answer says why (:func:`explain_json`, in ``lang``)."""
    from espadas.robots.base import fallback
    from espadas.robots.protocol import response_for, view_from_request
    from espadas.robots.registry import make_robot

    robot = make_robot(level, seed, budget_ms=budget_ms)
    while True:
        line = stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        try:
            answer = _answer(robot, line, explain, lang)
        except Exception as e:  # a robot's own bug: answer for it, keep going
            traceback.print_exc(file=stderr)
            try:
                answer = response_for(fallback(view_from_request(json.loads(line))))
            except Exception:
                answer = {"error": f"internal error: {e}"}
        if answer is None:
            return 0
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()


def run(args: argparse.Namespace) -> int:
    seed = args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        print(f"espadas robot {args.level}: seed {seed}", file=sys.stderr)
    try:
        return serve(
            args.level,
            seed,
            sys.stdin,
            sys.stdout,
            sys.stderr,
            args.budget_ms,
            explain=args.explain,
            lang=args.lang,
        )
    except BrokenPipeError:
        # The caller went away; silence the flush at exit as well.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
