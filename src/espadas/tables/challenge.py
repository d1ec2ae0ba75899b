"""The daily challenge [reto diario]: one set of boards a day, each player alone at a
private table with robots, every player in the same seat on the same deals.

This module is the challenge's part of the domain (no I/O): the challenge day of
an instant, the rules a challenge table plays under, the dealer that deals board
``i`` as hand ``i`` (so each hand's commitment is the board's), the results of
the boards a table has finished, and a player's leaving (the robot takes their
seat for the hand in progress).

- A **day** runs from the administrator's start time (UTC, default 00:00) to the
  same time the next day; it is named by the date it starts on (``YYYY-MM-DD``).
- A challenge table's id is ``reto-YYYYMMDD-`` and 144 random bits: it names its
  day, and nobody can guess another player's table.
- The player sits at :data:`SEAT` (seat 0); board ``n`` is dealt by seat
  ``(n - 1) % players``, as :func:`~espadas.tables.boards.fresh_boards` deals.
- A result is the deal score of the player's side (:func:`~espadas.engine.deal_scores`:
  from 0-0, each bag costed at 10 points), as duplicate scoring compares them.

>>> from datetime import UTC, datetime, time
>>> day_of(datetime(2026, 3, 2, 5, 0, tzinfo=UTC), time(6, 0))
'2026-03-01'
>>> [t.isoformat() for t in day_window("2026-03-01", time(6, 0))]
['2026-03-01T06:00:00+00:00', '2026-03-02T06:00:00+00:00']
>>> table_day(challenge_table_id("2026-03-01")), table_day("abcdefgh12345678")
('2026-03-01', None)
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from espadas.engine import CardSet, Rules, deal_scores
from espadas.tables.boards import Board, Boards
from espadas.tables.errors import TableError
from espadas.tables.event import Event
from espadas.tables.table import Dealer, Table

SEAT = 0
"""The seat every player of a challenge holds (the creator's seat)."""

TARGET = 1_000_000
"""A challenge table's target: never reached, the table plays its boards."""

PREFIX = "reto-"
_TABLE_ID = re.compile(r"^reto-(\d{4})(\d{2})(\d{2})-[A-Za-z0-9_-]{24}$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ChallengeOver(TableError):
    """Every board of the challenge is played: there is no next hand."""

    status = 409


def challenge_rules(preset: str = "estandar") -> Rules:
    """The rules of a challenge: the preset with renege prevented (nothing to
    accuse, a robot's or a person's card is always proper), the creator dealing
    first, no target in reach and no mercy rule (the boards decide the end)."""
    return Rules.from_preset(
        preset, renege="prevented", first_dealer="creator", target=TARGET, mercy=None
    )


def is_day(text: str) -> bool:
    """Whether ``text`` names a day (``YYYY-MM-DD``, a real date)."""
    if not _DAY.match(text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def day_of(at: datetime, start: time) -> str:
    """The challenge day of instant ``at`` when days start at ``start`` (UTC)."""
    shifted = at.astimezone(UTC) - timedelta(hours=start.hour, minutes=start.minute)
    return shifted.date().isoformat()


def day_window(day: str, start: time) -> tuple[datetime, datetime]:
    """When ``day`` opens and closes (the next day's opening)."""
    opens = datetime.combine(date.fromisoformat(day), start, tzinfo=UTC)
    return opens, opens + timedelta(days=1)


def challenge_table_id(day: str) -> str:
    """A fresh id for a table of ``day``'s challenge (unguessable, 38 characters)."""
    return PREFIX + day.replace("-", "") + "-" + secrets.token_urlsafe(18)


def table_day(table_id: str) -> str | None:
    """The day of a challenge table's id, or ``None`` for any other table."""
    if not table_id.startswith(PREFIX):
        return None
    found = _TABLE_ID.match(table_id)
    return None if found is None else "-".join(found.groups())


def boards_from_json(data: Mapping[str, Any]) -> Boards:
    """The boards of a revealed boards file (``boards_json(boards, reveal=True)``)."""
    rules = Rules.from_dict(data["rules"])
    boards = tuple(
        Board(
            int(item["board"]),
            int(item["dealer"]),
            tuple(int(CardSet.parse(h)) for h in item["deal"]),
            str(item["salt"]),
        )
        for item in data["boards"]
    )
    return Boards(rules, boards)


def board_dealer(boards: Boards, table: Table) -> Dealer:
    """The dealer of a challenge table: the next hand is the next board (its cards
    and salt, so the hand's commitment is the board's). Past the last board it
    refuses (:class:`ChallengeOver`)."""

    def deal(rules: Rules, dealer: int) -> tuple[tuple[int, ...], str]:
        index = 0 if table.game is None else len(table.game.hands)
        if index >= len(boards.boards):
            raise ChallengeOver("challenge_over", "every board of the challenge is played")
        board = boards.boards[index]
        if board.dealer != dealer:
            raise TableError("bad_board", f"board {board.number} is dealt by seat {board.dealer}")
        return board.deal, board.salt

    return deal


def boards_played(table: Table) -> int:
    """How many boards the table has finished (each scored hand is one)."""
    return 0 if table.game is None else len(table.game.scored)


def finished_results(table: Table, first: int = 1) -> list[tuple[int, int]]:
    """``(board, points)`` of each finished board from number ``first`` on: the deal
    score of the side of :data:`SEAT`."""
    game = table.game
    if game is None:
        return []
    rules = table.rules
    side = rules.side_of(SEAT)
    out = []
    for i, hand in enumerate(game.hands[: len(game.scored)]):
        if i + 1 < first:
            continue
        bids = [0 if b is None else b for b in hand.bids]
        points, _ = deal_scores(rules, bids, hand.blind, hand.tricks)
        out.append((i + 1, points[side]))
    return out


def in_progress(table: Table) -> bool:
    """Whether a hand is being bid or played (not between hands)."""
    return table.game is not None and table.game.phase in ("bidding", "playing")


def leave(table: Table, level: str, at: datetime) -> list[Event]:
    """The player leaves: with a hand in progress the robot ``level`` takes their
    seat and plays it out; between hands nothing is added (the boards not reached
    are scored as the robot's own play, see :mod:`espadas.server.challenges`)."""
    seat = table.seats[SEAT]
    if not in_progress(table) or seat is None or seat.robot is not None:
        return []
    event = Event(table.version + 1, "robot", {"seat": SEAT, "level": level}, at)
    table.apply(event)
    return [event]
