"""Sets of test positions and the score of a robot on them.

A position file (``espadas-positions/1``, JSON) holds positions that a
competent player gets right: each is one seat's situation written as the
``espadas-robot/1`` request that seat would receive (FORMATS.md section 3), the
list of every right answer (cards such as ``"QH"``, or bids) and a reason in
Spanish and English. Optional keys: ``deal`` (the four hands as dealt, so a test
can replay the hand through the engine), ``stage`` (``early``, ``middle``,
``late``) and ``place`` (``leading`` … ``fourth``)::

    {"format": "espadas-positions/1",
     "positions": [{"id": "cover_partner_nil-01", "category": "cover_partner_nil",
                    "request": {...}, "right": ["AD", "KD"],
                    "reason": {"en": "...", "es": "..."}}]}

:func:`load_positions` reads and checks a file (raising :class:`PositionsError`);
:func:`answer` asks a robot one position through the protocol: the request is
turned into the robot's view (:func:`~espadas.robots.protocol.view_from_request`),
and its action into an answer line that is checked against the request
(:func:`~espadas.robots.protocol.parse_response`), so a level and a ``cmd:``
program are asked exactly the same way. :func:`score` tallies by category.

>>> parse_positions({"format": "espadas-positions/1", "positions": []})
Traceback (most recent call last):
...
espadas.robots.positions.PositionsError: "positions" must be a non-empty list
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from espadas.engine import Bid, Play
from espadas.engine.codec import bid_json
from espadas.robots.base import Robot
from espadas.robots.protocol import (
    ProtocolFault,
    parse_response,
    response_for,
    view_from_request,
)
from espadas.robots.roster import own_faults

FORMAT = "espadas-positions/1"
"""The value of a position file's ``format`` key."""

CATEGORIES = (
    "cover_partner_nil",
    "bust_opponent_nil",
    "duck_own_nil",
    "tenth_bag",
    "set_opponents",
    "no_overtake",
)
"""The categories of the project's set, in the order they are reported. A file may
use other names too; they are reported after these."""

STAGES = ("early", "middle", "late")
PLACES = ("leading", "second", "third", "fourth")


class PositionsError(ValueError):
    """A position file that cannot be read or breaks ``espadas-positions/1``."""


@dataclass(frozen=True)
class Position:
    """One position: the request its seat receives and every right answer."""

    id: str
    category: str
    request: dict[str, Any]
    right: tuple[str | int, ...]
    reason: dict[str, str]
    stage: str | None = None
    place: str | None = None
    deal: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class Answer:
    """A robot's answer to one position: what it gave (``None`` after a fault)."""

    position: Position
    given: str | int | None
    fault: str | None = None

    @property
    def solved(self) -> bool:
        return self.fault is None and self.given in self.position.right


@dataclass
class Score:
    """Solved and total by category, and every answer."""

    robot: str
    answers: list[Answer] = field(default_factory=list)

    def by_category(self) -> dict[str, tuple[int, int]]:
        """(solved, total) per category, the project's categories first."""
        out: dict[str, tuple[int, int]] = {}
        seen = [c for c in CATEGORIES if any(a.position.category == c for a in self.answers)]
        seen += sorted({a.position.category for a in self.answers} - set(CATEGORIES))
        for c in seen:
            mine = [a for a in self.answers if a.position.category == c]
            out[c] = (sum(a.solved for a in mine), len(mine))
        return out

    @property
    def solved(self) -> int:
        return sum(a.solved for a in self.answers)

    @property
    def total(self) -> int:
        return len(self.answers)

    def to_json(self) -> dict[str, Any]:
        """The score as a JSON object: by category, overall, the failures."""
        return {
            "robot": self.robot,
            "categories": {
                c: {"solved": s, "total": t, "pct": _pct(s, t)}
                for c, (s, t) in self.by_category().items()
            },
            "solved": self.solved,
            "total": self.total,
            "pct": _pct(self.solved, self.total),
            "failed": [
                {"id": a.position.id, "given": a.given, "fault": a.fault}
                for a in self.answers
                if not a.solved
            ],
        }


def _pct(solved: int, total: int) -> float:
    return round(100.0 * solved / total, 1) if total else 0.0


# --- reading -----------------------------------------------------------------------------


def load_positions(path: str | Path) -> list[Position]:
    """The positions of a file, checked: raises :class:`PositionsError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionsError(f"cannot read {path}: {exc}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise PositionsError(f"{path} is not JSON: {exc}") from None
    return parse_positions(doc)


def parse_positions(doc: Any) -> list[Position]:
    """The positions of a decoded file, checked: raises :class:`PositionsError`."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PositionsError(f'a position file is an object with "format": "{FORMAT}"')
    items = doc.get("positions")
    if not isinstance(items, list) or not items:
        raise PositionsError('"positions" must be a non-empty list')
    out = [_position(item, i) for i, item in enumerate(items)]
    ids = [p.id for p in out]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise PositionsError(f"ids appear twice: {', '.join(twice)}")
    return out


def _position(item: Any, i: int) -> Position:
    where = f"positions[{i}]"
    if not isinstance(item, dict):
        raise PositionsError(f"{where} must be an object")
    for key in ("id", "category", "request", "right", "reason"):
        if key not in item:
            raise PositionsError(f"{where} lacks {key!r}")
    pid, category = item["id"], item["category"]
    if not isinstance(pid, str) or not pid or not isinstance(category, str) or not category:
        raise PositionsError(f"{where}: id and category must be non-empty strings")
    where = f"position {pid}"
    try:
        view_from_request(item["request"])
    except ProtocolFault as exc:
        raise PositionsError(f"{where}: the request is malformed: {exc}") from None
    request: dict[str, Any] = item["request"]
    right = item["right"]
    legal = request["legal"]
    if not isinstance(right, list) or not right:
        raise PositionsError(f"{where}: right must be a non-empty list")
    if request["phase"] == "play" and not all(isinstance(r, str) for r in right):
        raise PositionsError(f"{where}: right cards are written as in legal, such as 'QH'")
    bad = [r for r in right if r not in legal]
    if bad:
        raise PositionsError(f"{where}: right answers that are not legal: {bad}")
    if len(set(right)) == len(legal):
        raise PositionsError(f"{where}: every legal answer is right: nothing to get wrong")
    reason = item["reason"]
    if not isinstance(reason, dict) or not all(
        isinstance(reason.get(lang), str) and reason[lang] for lang in ("es", "en")
    ):
        raise PositionsError(f'{where}: reason must be {{"es": ..., "en": ...}}')
    stage, place = item.get("stage"), item.get("place")
    if stage is not None and stage not in STAGES:
        raise PositionsError(f"{where}: stage must be one of {', '.join(STAGES)}")
    if place is not None and place not in PLACES:
        raise PositionsError(f"{where}: place must be one of {', '.join(PLACES)}")
    deal = item.get("deal")
    if deal is not None and not (
        isinstance(deal, list)
        and len(deal) == request["players"]
        and all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in deal)
    ):
        raise PositionsError(f"{where}: deal must be a list of hands (lists of cards) by seat")
    return Position(
        pid,
        category,
        request,
        tuple(right),
        dict(reason),
        stage,
        place,
        None if deal is None else tuple(tuple(h) for h in deal),
    )


# --- asking ------------------------------------------------------------------------------


def answer(robot: Robot, position: Position) -> Answer:
    """``robot``'s answer to ``position``, asked through ``espadas-robot/1``. A robot
    that counts its own faults (a ``cmd:`` program) and counts one here has not
    answered: the position is failed with the fault."""
    request = position.request
    view = view_from_request(request)
    before = own_faults(robot)
    try:
        action = robot.act(view)
        parsed = parse_response(response_for(action), request)
    except (ProtocolFault, ValueError) as exc:
        return Answer(position, None, str(exc))
    if own_faults(robot) > before:
        log = getattr(robot, "fault_log", None)
        last = log[-1] if isinstance(log, list) and log else "fault"
        return Answer(position, None, str(last))
    if isinstance(parsed, Play):
        return Answer(position, str(parsed.card))
    assert isinstance(parsed, Bid)
    return Answer(position, bid_json(parsed.value))


def score(
    name: str,
    positions: Sequence[Position],
    make: Callable[[int], Robot],
    seed: int = 1,
    progress: Callable[[Answer], None] | None = None,
) -> Score:
    """The score of a robot on ``positions``. ``make(seed)`` gives the robot for one
    position; position ``i`` is asked by ``make(seed + i)``, so each answer depends
    only on the seed and the position."""
    result = Score(name)
    for i, position in enumerate(positions):
        a = answer(make(seed + i), position)
        result.answers.append(a)
        if progress is not None:
            progress(a)
    return result


def categories_of(positions: Iterable[Position]) -> list[str]:
    """The categories present, the project's first."""
    present = {p.category for p in positions}
    return [c for c in CATEGORIES if c in present] + sorted(present - set(CATEGORIES))
