"""The boards [repartos] of an event: a set of deals committed to all at once.

Every entrant of a daily challenge or a duplicate tournament plays the same
boards, dealt once before the event starts. Each board is committed to with the
tables' scheme (:mod:`espadas.tables.commitment`: the SHA-256 of its deal and a
salt of its own), so the hand of a record that played it verifies as any hand
does; and the **set** is committed to from the first minute by one digest, the
SHA-256 of::

    UTF-8 of  "espadas-boards/1\\n" + one line per board: its commitment + "\\n"

(in board order). After the event the boards file reveals every deal and salt
(``espadas-boards/1``, see :func:`boards_json`), and :func:`verify_boards`
(``espadas verify BOARDS.json``) checks each board and the set.

>>> from espadas.engine import Rules
>>> boards = fresh_boards(Rules.from_preset("estandar"), 3)
>>> [b.dealer for b in boards.boards], len(boards.commitment)
([0, 1, 2], 64)
>>> published = boards_json(boards, reveal=False)
>>> sorted(published["boards"][0])
['board', 'commitment', 'dealer']
>>> checks, whole = verify_boards(boards_json(boards, reveal=True))
>>> [c.status for c in checks], whole
(['ok', 'ok', 'ok'], 'ok')
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from espadas.engine.errors import EspadasError, RecordError
from espadas.engine.rules import Rules
from espadas.tables.commitment import HandCheck, Status, commit, deal_text, fresh_deal

HEADER = "espadas-boards/1"
"""The first line of the set's serialization, and the ``format`` of a boards file."""

_DIGEST = re.compile(r"[0-9a-f]{64}")
_SALT = re.compile(r"(?:[0-9a-f]{2})+")


@dataclass(frozen=True)
class Board:
    """One board: its number (from 1), dealer, cards (one mask per seat) and salt."""

    number: int
    dealer: int
    deal: tuple[int, ...]
    salt: str

    @property
    def commitment(self) -> str:
        return commit(deal_text(self.deal), self.salt)


@dataclass(frozen=True)
class Boards:
    """An event's boards under one rule set."""

    rules: Rules
    boards: tuple[Board, ...]

    @property
    def commitment(self) -> str:
        """The set's commitment (see the module docstring)."""
        return set_commitment([b.commitment for b in self.boards])


def set_commitment(commitments: list[str]) -> str:
    """The SHA-256 of the set's serialization, from each board's commitment.

    >>> set_commitment(["0" * 64]) == hashlib.sha256(
    ...     ("espadas-boards/1\\n" + "0" * 64 + "\\n").encode()).hexdigest()
    True
    """
    text = HEADER + "\n" + "".join(c + "\n" for c in commitments)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def fresh_boards(rules: Rules, count: int) -> Boards:
    """``count`` boards dealt from the operating system's cryptographic source, each
    with a fresh salt; the dealer rotates from seat 0 (board ``n`` is dealt by seat
    ``(n - 1) % players``), so every seat leads as often."""
    if not 1 <= count <= 100:
        raise ValueError(f"an event has 1 to 100 boards, not {count}")
    out = []
    for i in range(count):
        dealer = i % rules.players
        deal, salt = fresh_deal(rules, dealer)
        out.append(Board(i + 1, dealer, deal, salt))
    return Boards(rules, tuple(out))


def boards_json(boards: Boards, reveal: bool) -> dict[str, Any]:
    """The boards file: before the event ends (``reveal=False``) each board's number,
    dealer and commitment; after it, its deal (PBN, one hand per seat) and salt too."""
    items = []
    for b in boards.boards:
        item: dict[str, Any] = {"board": b.number, "dealer": b.dealer, "commitment": b.commitment}
        if reveal:
            item["deal"] = deal_text(b.deal)
            item["salt"] = b.salt
        items.append(item)
    return {
        "format": HEADER,
        "rules": boards.rules.to_dict(),
        "commitment": boards.commitment,
        "boards": items,
    }


def verify_boards(data: object) -> tuple[list[HandCheck], Status]:
    """Checks a boards file: each board's deal and salt against its commitment (a
    :class:`~espadas.tables.commitment.HandCheck` per board, numbered from 1), and the
    set's commitment against the boards' commitments (``ok``, ``mismatch``).
    Raises :class:`~espadas.engine.errors.RecordError` for a malformed file."""
    if not isinstance(data, dict) or data.get("format") != HEADER:
        raise RecordError("format", f'a boards file has "format": "{HEADER}"')
    whole, items = data.get("commitment"), data.get("boards")
    if not isinstance(whole, str) or not _DIGEST.fullmatch(whole):
        raise RecordError("commitment", "the set's commitment must be 64 hexadecimal digits")
    if not isinstance(items, list) or not items:
        raise RecordError("boards", "boards must be a non-empty list")
    checks: list[HandCheck] = []
    stated: list[str] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or item.get("board") != i + 1:
            raise RecordError("boards", f"boards[{i}] must be an object with board {i + 1}")
        expected, salt, deal = item.get("commitment"), item.get("salt"), item.get("deal")
        if not isinstance(expected, str) or not _DIGEST.fullmatch(expected):
            raise RecordError("commitment", f"board {i + 1}: the commitment must be a digest")
        stated.append(expected)
        if salt is None or deal is None:
            checks.append(HandCheck(i + 1, "missing", expected, None))
            continue
        if not isinstance(salt, str) or not _SALT.fullmatch(salt) or not isinstance(deal, list):
            raise RecordError("boards", f"board {i + 1}: a deal is a list of hands, a salt hex")
        try:
            actual = commit([str(h) for h in deal], salt)
        except EspadasError as exc:
            raise RecordError("deal", f"board {i + 1}: {exc.message}") from None
        status: Status = "ok" if actual == expected else "mismatch"
        checks.append(HandCheck(i + 1, status, expected, actual))
    return checks, "ok" if set_commitment(stated) == whole else "mismatch"
