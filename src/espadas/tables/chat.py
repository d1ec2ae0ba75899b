"""Chat at a table: short messages and quick phrases, kept in the table's log.

A message is an event of the table's log (``chat``), so it is stored before
anyone is told, survives a restart and reaches everyone as a new version of
the table, like a card played. The creator's switch for spectators' chat is
another event (``chat_spectators``). Neither is part of the game: the engine
never sees them, so no robot's view (an engine view) holds anything of a
message, and the game's record stays as it was.

Who may write (:func:`chat_command`): the people seated at the table, and
signed-in people watching it (spectators, marked as such) unless the creator
has turned spectators' chat off. Robots never write: they only play.

What a message holds: either a ``text`` of at most :data:`TEXT_MAX` characters
once trimmed, by the rule of :mod:`espadas.tables.names` for characters (no
control characters, no invisible or direction-changing ones, no pile of
marks, something visible), stored as given and never read as HTML; or a
``phrase``, one of :data:`PHRASES`, which each reader's page says in their
own language.

How often (:data:`LIMITS`): at most 5 messages in 10 seconds and 30 in 10
minutes per person at a table; more is refused with ``chat_too_fast`` (429),
which says how many seconds to wait. The times come from the log, so the
limit holds across restarts and instances.

>>> from datetime import UTC, datetime, timedelta
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
>>> [e.type for e in chat_command(table, "ana", "Ana", "say", at, text="  ¡Hola!  ")]
['chat']
>>> _ = chat_command(table, "luis", "Luis", "say", at, phrase="well_played")
>>> [(m.name, m.spectator, m.text, m.phrase) for m in table.chat.messages]
[('Ana', False, '¡Hola!', None), ('Luis', True, None, 'well_played')]
>>> _ = chat_command(table, "ana", "Ana", "chat_spectators", at, value="off")
>>> chat_command(table, "luis", "Luis", "say", at, text="¿Y yo?")
Traceback (most recent call last):
...
espadas.tables.errors.NotAllowed: the table's creator has turned spectators' chat off
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.event import Event
from espadas.tables.names import has_visible, refused_character, shown_name, too_many_marks
from espadas.tables.presence import Presence

TEXT_MAX = 200
"""The most characters a message has, once trimmed."""
RAW_MAX = 1000
"""The most characters a message may arrive with (spaces around it included)."""
SHOWN = 20
"""The most recent messages a view carries (older ones stay in the log). Every
view sent after every move carries them, so they are few: a view of a game in
progress is about 1.3 kB, and 20 messages of 200 characters add about 7 kB
(the page keeps up to 100 of those it has received)."""
PHRASES = ("well_played", "sorry", "thanks_partner", "one_moment")
"""The quick phrases ("¡Bien jugado!", "Lo siento", "¡Gracias, compañero!",
"Un momento"): stored by name, said in each reader's language."""
LIMITS = ((5, timedelta(seconds=10)), (30, timedelta(minutes=10)))
"""Per person at a table: at most ``count`` messages within ``window``."""
COMMANDS = frozenset({"say", "chat_spectators"})
"""The table commands of the chat (sent as actions: ``{"type": "say", ...}``)."""
EVENTS = frozenset({"chat", "chat_spectators"})
"""The events of the chat in a table's log."""


class ChatRefused(TableError):
    """A message the rule refuses (empty, too long, a refused character)."""

    status = 422


class TooFast(TableError):
    """Over the per-person limit of :data:`LIMITS`."""

    status = 429


def author_key(player: str) -> str:
    """A stable pseudonym of a person for the pages (to mute them), which does
    not show their id.

    >>> author_key("p1") == author_key("p1") != author_key("p2"), len(author_key("p1"))
    (True, 16)
    """
    return hashlib.sha256(f"espadas-chat/1\n{player}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Message:
    """One message as the table keeps it (the view shows it without the player)."""

    seq: int
    at: datetime
    author: str
    name: str
    seat: int | None
    text: str | None = None
    phrase: str | None = None

    @property
    def spectator(self) -> bool:
        """Whether it was written by someone watching (not seated)."""
        return self.seat is None

    def to_json(self) -> dict[str, Any]:
        """The message as views carry it."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "at": self.at.isoformat(),
            "author": self.author,
            "name": self.name,
            "seat": self.seat,
            "spectator": self.spectator,
        }
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        return out


@dataclass
class Chat:
    """The chat of one table: the latest messages, the spectators' switch, and
    each person's recent times (for :data:`LIMITS`)."""

    messages: deque[Message] = field(default_factory=lambda: deque(maxlen=SHOWN))
    count: int = 0
    """Messages in the whole log (the view shows the last :data:`SHOWN`)."""
    spectators: bool = True
    """Whether people watching may write."""
    events: int = 0
    """Chat events in the log so far (messages and switches): a table's version
    less this counts the events of the game (see :func:`game_version`)."""
    _times: dict[str, deque[datetime]] = field(default_factory=dict)

    def handler(self, event: Event) -> Callable[..., None] | None:
        """What applies ``event`` (given its data), if it is a chat event."""
        if event.type == "chat":
            return partial(self._on_chat, event.seq, event.at)
        if event.type == "chat_spectators":
            return self._on_chat_spectators
        return None

    def _on_chat(
        self,
        seq: int,
        at: datetime,
        player: str,
        name: str,
        seat: int | None,
        text: str | None = None,
        phrase: str | None = None,
    ) -> None:
        self.messages.append(Message(seq, at, author_key(player), name, seat, text, phrase))
        self.count += 1
        self.events += 1
        times = self._times.get(player)
        if times is None:
            times = self._times[player] = deque(maxlen=max(n for n, _ in LIMITS))
        times.append(at)

    def _on_chat_spectators(self, on: bool) -> None:
        self.spectators = on
        self.events += 1

    def wait(self, player: str, at: datetime) -> int:
        """Seconds ``player`` must wait before writing again (0: now)."""
        times = self._times.get(player, ())
        wait = 0.0
        for count, window in LIMITS:
            if len(times) >= count:
                left = (times[-count] + window - at).total_seconds()
                wait = max(wait, left)
        return math.ceil(wait) if wait > 0 else 0

    def to_json(self) -> dict[str, Any]:
        """The chat as views carry it."""
        return {
            "spectators": self.spectators,
            "count": self.count,
            "messages": [m.to_json() for m in self.messages],
        }


def game_version(table: ChatTable) -> int:
    """How many events of ``table``'s log are not the chat's (nor a seat's
    :mod:`~espadas.tables.presence`): it grows with every move, seat and deal,
    and not with messages. A robot's decision taken at one game version still
    holds while only messages have come since.

    >>> from espadas.engine import Rules
    >>> from espadas.tables.table import Table
    >>> from datetime import UTC, datetime
    >>> at = datetime(2026, 1, 1, tzinfo=UTC)
    >>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
    >>> _ = chat_command(table, "ana", "Ana", "say", at, text="hola")
    >>> table.version, game_version(table)
    (2, 1)
    """
    return table.version - table.chat.events - table.presence.events


class ChatTable(Protocol):
    """What a chat command needs of a table (:class:`~espadas.tables.table.Table`)."""

    version: int
    creator: str
    chat: Chat
    presence: Presence

    def seat_of(self, player: str | None) -> int | None: ...

    def apply(self, event: Event) -> None: ...


def message_text(text: object) -> str:
    """``text`` trimmed, or :class:`ChatRefused` when the rule refuses it.

    >>> message_text("  buena mano  ")
    'buena mano'
    >>> for bad in ("", "a\\nb", "\\u202eola", "x" * 201):
    ...     try:
    ...         message_text(bad)
    ...     except ChatRefused as err:
    ...         print(err.code)
    chat_empty
    chat_control
    chat_format
    chat_long
    """
    if not isinstance(text, str):
        raise ChatRefused("chat_empty", "write a message or choose a quick phrase")
    if len(text) > RAW_MAX:
        raise ChatRefused("chat_long", f"a message has at most {TEXT_MAX} characters", max=TEXT_MAX)
    trimmed = text.strip()
    refused = refused_character(trimmed)
    if refused is not None:
        kind, char = refused
        raise ChatRefused(
            f"chat_{kind}",
            f"a message may not contain {kind} characters ({char})",
            char=char,
        )
    if len(trimmed) > TEXT_MAX:
        raise ChatRefused("chat_long", f"a message has at most {TEXT_MAX} characters", max=TEXT_MAX)
    if not has_visible(trimmed):
        raise ChatRefused("chat_empty", "write a message or choose a quick phrase")
    if too_many_marks(trimmed):
        raise ChatRefused("chat_marks", "too many marks on one character", max=4)
    return trimmed


def phrase_value(phrase: object) -> str:
    """A quick phrase's name, or ``bad_phrase``."""
    if not isinstance(phrase, str) or phrase not in PHRASES:
        raise BadCommand("bad_phrase", f"a quick phrase is one of {', '.join(PHRASES)}")
    return phrase


def switch_value(value: object) -> bool:
    """``"on"`` or ``"off"`` (also ``true``/``false``), or ``bad_switch``."""
    if value in ("on", True):
        return True
    if value in ("off", False):
        return False
    raise BadCommand("bad_switch", "say on or off")


def chat_command(
    table: ChatTable,
    player: str,
    name: str,
    kind: str,
    at: datetime,
    *,
    text: object = None,
    phrase: object = None,
    value: object = None,
) -> list[Event]:
    """``say`` (a ``text`` or a ``phrase``) by ``player`` (shown as ``name``), or
    ``chat_spectators`` (``value`` on/off, the creator only): the events it
    adds to ``table``, applied. A refused command changes nothing."""
    if kind == "chat_spectators":
        if text is not None or phrase is not None:
            raise BadCommand("bad_action", "the switch has a value (on or off), not a text")
        if player != table.creator:
            raise NotAllowed("not_creator", "only the table's creator may do that")
        on = switch_value(value)
        if on == table.chat.spectators:
            return []
        return [_new(table, "chat_spectators", at, on=on)]
    if kind != "say":
        raise BadCommand("bad_action", f"unknown action {kind!r}", kind=str(kind)[:40])
    if value is not None:
        raise BadCommand("bad_action", "a message has a text or a phrase, not a value")
    seat = table.seat_of(player)
    if seat is None and not table.chat.spectators:
        raise NotAllowed("chat_closed", "the table's creator has turned spectators' chat off")
    if (text is None) == (phrase is None):
        raise ChatRefused("chat_empty", "write a message or choose a quick phrase")
    content = (
        {"phrase": phrase_value(phrase)} if phrase is not None else {"text": message_text(text)}
    )
    wait = table.chat.wait(player, at)
    if wait:
        raise TooFast(
            "chat_too_fast", f"too many messages: wait {wait} s before the next", seconds=wait
        )
    data: dict[str, Any] = {"player": player, "name": shown_name(name), "seat": seat, **content}
    return [_new(table, "chat", at, **data)]


def _new(table: ChatTable, type_: str, at: datetime, **data: Any) -> Event:
    event = Event(table.version + 1, type_, data, at)
    table.apply(event)
    return event
