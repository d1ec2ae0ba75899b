"""Verifiable deals: a SHA-256 commitment shown when a hand starts, checked when it ends.

A table deals each hand with a cryptographic random source and draws a fresh
salt (:func:`fresh_deal`). Before anyone bids it shows the commitment, the
SHA-256 of this serialization of the deal and the salt (:func:`serialize`)::

    UTF-8 of  "espadas-deal/1\\n" + "\\n".join(deal) + "\\n" + salt + "\\n"

- ``deal``: one hand per seat, in seat order, in the PBN form a game record
  writes (``AKQ.JT9.8765.432``: spades first, ranks high to low, ``T`` for the
  ten, nothing between the dots for a void). Other spellings the record reader
  accepts (``10H``, lower case, ``-`` for a void) are first put in this form.
- ``salt``: lowercase hexadecimal (:data:`SALT_BYTES` random bytes when the
  table draws it).
- the commitment: the SHA-256 digest in lowercase hexadecimal.

When the hand ends the deal and the salt are revealed and go into the record:
a hand's object carries ``"commitment"`` and ``"salt"`` beside ``"deal"``, and
:func:`verify_record` (``espadas verify RECORD.json``) checks every hand.

A worked example, one suit per seat:

>>> deal = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
>>> salt = "00112233445566778899aabbccddeeff"
>>> serialize(deal, salt)
b'espadas-deal/1\\nAKQJT98765432...\\n.AKQJT98765432..\\n..AKQJT98765432.\\n...AKQJT98765432\\n00112233445566778899aabbccddeeff\\n'
>>> commit(deal, salt)
'10cef5d9b6cb538afb46d6ac96c7309d53f170428dcc1dd547f422fb932ee7b5'
>>> commit(["akqjt98765432.-.-.-", *deal[1:]], salt) == commit(deal, salt)
True
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from espadas.engine.cardset import CardSet
from espadas.engine.deal import deal_cards
from espadas.engine.errors import RecordError
from espadas.engine.record import check_record
from espadas.engine.rules import Rules


@dataclass
class Revealed:
    """A hand's deal with its commitment; ``salt`` stays secret until the hand ends."""

    commitment: str
    salt: str
    deal: list[str]


SALT_BYTES = 16
"""Random bytes in a salt the table draws (32 hexadecimal digits)."""

HEADER = "espadas-deal/1"
"""The first line of the serialization: names this scheme and its version."""

Status = Literal["ok", "mismatch", "missing"]

_SALT = re.compile(r"(?:[0-9a-f]{2})+")
_DIGEST = re.compile(r"[0-9a-f]{64}")


def serialize(deal: Sequence[str], salt: str) -> bytes:
    """The bytes a commitment hashes (see the module docstring).

    Raises :class:`~espadas.engine.errors.ParseError` for a hand that is not PBN
    and ``ValueError`` for a salt that is not lowercase hexadecimal.

    >>> serialize(["AK.-.-.-", "QJ..."], "ab")
    b'espadas-deal/1\\nAK...\\nQJ...\\nab\\n'
    """
    if not isinstance(salt, str) or not _SALT.fullmatch(salt):
        raise ValueError(f"the salt must be lowercase hexadecimal, not {salt!r}")
    hands = [str(CardSet.parse(text)) for text in deal]
    return (HEADER + "\n" + "\n".join(hands) + "\n" + salt + "\n").encode("utf-8")


def commit(deal: Sequence[str], salt: str) -> str:
    """The commitment: lowercase hexadecimal SHA-256 of :func:`serialize`."""
    return hashlib.sha256(serialize(deal, salt)).hexdigest()


def deal_text(deal: Sequence[int]) -> list[str]:
    """A deal of card masks as a record writes it, one PBN hand per seat.

    >>> deal_text([CardSet.parse("AK..."), CardSet.parse(".AK..")])
    ['AK...', '.AK..']
    """
    return [str(CardSet(mask)) for mask in deal]


def fresh_deal(rules: Rules, dealer: int) -> tuple[tuple[int, ...], str]:
    """A deal from the operating system's cryptographic source, and a fresh salt.

    The cards go out as :func:`~espadas.engine.deal.deal_cards` deals them (one
    card mask per seat, the seat left of ``dealer`` first), shuffled with
    :class:`random.SystemRandom`; the salt is :data:`SALT_BYTES` bytes from
    :mod:`secrets`, in hexadecimal.

    >>> deal, salt = fresh_deal(Rules.from_preset("estandar"), dealer=0)
    >>> [h.bit_count() for h in deal], len(salt)
    ([13, 13, 13, 13], 32)
    >>> len(commit(deal_text(deal), salt))
    64
    """
    if not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat 0..{rules.players - 1}")
    return deal_cards(rules, random.SystemRandom(), dealer), secrets.token_hex(SALT_BYTES)


class HandCheck(NamedTuple):
    """The check of one hand. ``hand`` counts from 1; ``expected`` is the recorded
    commitment and ``actual`` the one computed from the deal and the salt (each
    ``None`` when the record lacks what it needs)."""

    hand: int
    status: Status
    expected: str | None
    actual: str | None


def verify_record(record: Any) -> list[HandCheck]:
    """Checks each hand's commitment against its revealed deal and salt.

    A hand is ``ok`` when the commitment matches, ``mismatch`` when it does not,
    ``missing`` when the record has no commitment or no salt for it. Raises
    :class:`~espadas.engine.errors.RecordError` for a malformed record,
    including a commitment that is not 64 lowercase hexadecimal digits or a salt
    that is not lowercase hexadecimal. Its message counts hands from 0, as the
    engine's record errors do.

    >>> from espadas.engine import Game
    >>> from espadas.engine.record import game_record
    >>> rec = game_record(Game.new(Rules.from_preset("pagat"), seed=1))
    >>> hand = rec["hands"][0]
    >>> verify_record(rec)
    [HandCheck(hand=1, status='missing', expected=None, actual=None)]
    >>> hand["salt"] = "ab" * SALT_BYTES
    >>> hand["commitment"] = commit(hand["deal"], hand["salt"])
    >>> verify_record(rec)[0].status
    'ok'
    >>> hand["salt"] = "cd" * SALT_BYTES
    >>> verify_record(rec)[0].status
    'mismatch'
    """
    check_record(record)
    checks: list[HandCheck] = []
    for h, hand in enumerate(record["hands"]):
        expected = hand.get("commitment")
        salt = hand.get("salt")
        if expected is not None and not (isinstance(expected, str) and _DIGEST.fullmatch(expected)):
            raise RecordError(
                "commitment",
                f"hand {h}: the commitment must be 64 lowercase hexadecimal digits "
                f"(a SHA-256 digest), not {expected!r}",
            )
        if salt is not None and not (isinstance(salt, str) and _SALT.fullmatch(salt)):
            raise RecordError(
                "salt",
                f"hand {h}: the salt must be lowercase hexadecimal digits, not {salt!r}",
            )
        actual = None if salt is None else commit(hand["deal"], salt)
        status: Status
        if expected is None or actual is None:
            status = "missing"
        else:
            status = "ok" if expected == actual else "mismatch"
        checks.append(HandCheck(h + 1, status, expected, actual))
    return checks
