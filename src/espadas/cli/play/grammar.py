"""What the player types at ``espadas play``: the words of the input grammar and the
commands a line of input becomes (:func:`parse_command`).

Bids and cards are only recognised here; whether they are allowed now is the
engine's decision.

>>> parse_command(""), parse_command("AYUDA"), parse_command("hola")
(Word(name='enter'), Word(name='help'), Unknown(text='hola'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from espadas.engine import BLIND_NIL, Action, Bid, Card, ParseError, Play

HELP_WORDS = frozenset({"?", "ayuda", "help"})
QUIT_WORDS = frozenset({"q", "salir", "quit", "exit"})
LOOK_WORDS = frozenset({"mirar", "look"})
NIL_WORDS = frozenset({"nil"})
BLIND_WORDS = frozenset({"ciegas", "a ciegas", "nil a ciegas", "blind", "blind nil", "blind_nil"})
ACCUSE_WORDS = frozenset({"acusar", "accuse"})
SEAT_WORDS = {
    "n": 0, "norte": 0, "north": 0,
    "e": 1, "este": 1, "east": 1,
    "s": 2, "sur": 2, "south": 2,
    "o": 3, "oeste": 3, "w": 3, "west": 3,
}  # fmt: skip


@dataclass(frozen=True)
class Word:
    """A command word: ``help``, ``quit``, ``enter`` (an empty line) or ``look``."""

    name: str


@dataclass(frozen=True)
class Accusing:
    """``acusar E``: the accused seat, ``None`` when the text names no seat."""

    against: int | None


@dataclass(frozen=True)
class Move:
    """A bid or a card, for the engine to accept or refuse."""

    action: Action


@dataclass(frozen=True)
class Unknown:
    """Text that is neither a command, a bid nor a card."""

    text: str


Command = Word | Accusing | Move | Unknown
Outcome = Literal["done", "again", "quit"]
"""What handling a command did: changed the game, asks for another line, or quits."""


def parse_command(text: str, players: int = 4) -> Command:
    """Reads one line of input. Bids and cards are only recognised here; whether
    they are allowed now is the engine's decision.

    >>> parse_command("10h"), parse_command(" Nil "), parse_command("acusar O")
    (Move(action=Play(card=Card('TH'))), Move(action=Bid(value=0)), Accusing(against=3))
    """
    t = " ".join(text.strip().lower().split())
    first, _, rest = t.partition(" ")
    if t == "":
        return Word("enter")
    if t in HELP_WORDS:
        return Word("help")
    if t in QUIT_WORDS:
        return Word("quit")
    if t in LOOK_WORDS:
        return Word("look")
    if first in ACCUSE_WORDS:
        return Accusing(parse_seat(rest, players))
    return parse_move(t) or Unknown(text.strip())


def parse_move(t: str) -> Command | None:
    """A bid (``3``, ``nil``, ``ciegas``) or a card (``AS``, ``10h``, ``A♠``)."""
    if t in NIL_WORDS:
        return Move(Bid(0))
    if t in BLIND_WORDS:
        return Move(Bid(BLIND_NIL))
    if t.isascii() and t.isdigit():
        return Move(Bid(int(t)))
    try:
        return Move(Play(Card.parse(t.replace(" ", ""))))
    except ParseError:
        return None


def parse_seat(text: str, players: int) -> int | None:
    """``E``, ``oeste``, ``W`` (4 players) or a seat number."""
    t = text.strip().lower()
    if players == 4 and t in SEAT_WORDS:
        return SEAT_WORDS[t]
    if t.isascii() and t.isdigit() and int(t) < players:
        return int(t)
    return None
