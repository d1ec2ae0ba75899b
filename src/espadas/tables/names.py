"""Display names: the one rule for what a person may be called at a table.

A name is text someone typed. :func:`display_name` normalises it (Unicode NFC,
runs of spaces made one space, trimmed) and refuses it, with a
:class:`BadName` whose code the catalog says in Spanish and English, when it

- is longer than :data:`NAME_MAX` characters (``name_long``);
- holds a control character: line breaks, tabs, NUL and the other ``Cc``
  characters, line and paragraph separators, surrogates, private-use and
  unassigned code points (``name_control``);
- holds an invisible format character (``Cf``): bidirectional embeddings,
  overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
  U+061C), zero-width space, word joiner, soft hyphen, byte-order mark, tag
  characters…, or a filler that shows as a blank (Hangul fillers, the blank
  braille pattern) (``name_format``). Only the zero-width joiner and
  non-joiner (U+200D, U+200C) are kept, and only between two visible
  characters, as emoji sequences and some scripts need them;
- has nothing visible: no letter, digit, punctuation or symbol, only spaces,
  joiners or combining marks (``name_empty``);
- piles more than :data:`MARKS_MAX` combining marks on one character,
  counted decomposed (NFD), so that "é" is one mark (``name_marks``);
- begins with the word "robot" in any case, spacing, accent or lookalike
  letters: ``robot:normal``, ``Robot normal``, ``ROBOT  experto``,
  ``Rоbot`` with a Cyrillic о (``name_robot``), because robots are shown
  as ``robot:LEVEL`` in records and "Robot LEVEL" at the table.

>>> display_name("  Ana   María ")
'Ana María'
>>> display_name("Jose\\u0301")  # NFC: one é
'José'
>>> for bad in ("Evil\\r\\nBcc: x@example.org", "\\u202eanA", "\\u200b", "Robot  Normal"):
...     try:
...         display_name(bad)
...     except BadName as err:
...         print(err.code)
name_control
name_format
name_format
name_robot
>>> shown_name("Evil\\r\\nBcc: x"), shown_name("\\u200b\\u200b")
('Evil Bcc: x', '?')
"""

from __future__ import annotations

import re
import unicodedata

from espadas.tables.errors import TableError

FORMER = "former:player"
"""What a deleted account's seats are called in logs and records (pages say
"antiguo jugador" / "former player"); nobody can take this name."""
NAME_MAX = 40
"""The most characters a name has (after normalising)."""
MARKS_MAX = 4
"""The most combining marks on one character."""
CONTROL = frozenset({"Cc", "Zl", "Zp", "Cs", "Co", "Cn"})
"""Categories refused as control characters (``Cn``: unassigned code points)."""
JOINERS = frozenset({"\u200c", "\u200d"})
"""The format characters a name may hold, between two visible characters."""
BLANKS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"})
"""Letters and symbols that show as nothing (Hangul fillers, blank braille)."""
VISIBLE = frozenset("LNPS")
"""The first letters of the categories that show something by themselves."""
ROBOT = "robot"
LEVELS = (
    "aleatorio",
    "random",
    "normal",
    "experto",
    "expert",
    "omnisciente",
    "omniscient",
)
"""Robot levels in Spanish and English, as a name might copy them."""
LOOKALIKES = str.maketrans(
    {
        "0": "o",
        "о": "o",  # Cyrillic
        "ο": "o",  # Greek
        "σ": "o",
        "ө": "o",
        "г": "r",
        "ʀ": "r",
        "в": "b",
        "ь": "b",
        "β": "b",
        "ƅ": "b",
        "т": "t",
        "τ": "t",
        "ţ": "t",
    }
)
"""Letters that pass for those of "robot" (after case folding)."""
_SPACES = re.compile(r"\s+")


class BadName(TableError):
    """A display name the rule refuses (see the module)."""

    status = 422


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] in VISIBLE and char not in BLANKS


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def refused_character(text: str) -> tuple[str, str] | None:
    """The first character of ``text`` the rule refuses, as ``(kind, code point)``:
    ``"control"`` for a control character, ``"format"`` for an invisible format
    character or a filler; ``None`` when there is none. Chat messages follow the
    same rule (:mod:`espadas.tables.chat`).

    >>> [refused_character(t) for t in ("Ana\\tB", "\\u202eanA", "A\\u200dB")]
    [('control', 'U+0009'), ('format', 'U+202E'), None]
    """
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        if category in CONTROL:
            return "control", _code_point(char)
        if category == "Cf" or char in BLANKS:
            before = text[i - 1] if i > 0 else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            joins = (
                char in JOINERS
                and before != ""
                and (_visible(before) or unicodedata.category(before)[0] == "M")
                and after != ""
                and _visible(after)
            )
            if not joins:
                return "format", _code_point(char)
    return None


def too_many_marks(text: str) -> bool:
    """Whether some character of ``text`` carries more than :data:`MARKS_MAX`
    combining marks (counted decomposed).

    >>> too_many_marks("José"), too_many_marks("e" + "\\u0301" * 5)
    (False, True)
    """
    marks = 0
    for char in unicodedata.normalize("NFD", text):
        marks = marks + 1 if unicodedata.category(char)[0] == "M" else 0
        if marks > MARKS_MAX:
            return True
    return False


def has_visible(text: str) -> bool:
    """Whether ``text`` shows something: a letter, digit, punctuation or symbol."""
    return any(_visible(c) for c in text)


def _check_characters(text: str) -> None:
    """Refuses control and format characters, and fillers."""
    refused = refused_character(text)
    if refused is None:
        return
    kind, char = refused
    if kind == "control":
        raise BadName(
            "name_control", f"a name may not contain control characters ({char})", char=char
        )
    raise BadName(
        "name_format",
        f"a name may not contain invisible or direction-changing characters ({char})",
        char=char,
    )


def _spaced(text: str) -> str:
    """Runs of spaces (any ``Zs``) made one ASCII space, and trimmed."""
    out = "".join(" " if unicodedata.category(c) == "Zs" else c for c in text)
    return _SPACES.sub(" ", out).strip()


def _skeleton(text: str) -> str:
    """Lower-case letters only, accents dropped, lookalikes read as Latin;
    anything else becomes a space."""
    folded = unicodedata.normalize("NFKD", text).casefold().translate(LOOKALIKES)
    letters = []
    for char in folded:
        category = unicodedata.category(char)
        if category[0] == "M":
            continue
        letters.append(char if category[0] == "L" else " ")
    return "".join(letters)


def imitates_robot(text: str) -> bool:
    """Whether ``text`` begins with the word "robot" (or runs "robot" into a
    robot level, as ``RobotNormal``).

    >>> [imitates_robot(t) for t in ("robot:normal", "R o b o t", "Robotina", "Mi robot")]
    [True, True, False, False]
    """
    skeleton = _skeleton(text)
    words = skeleton.split()
    if words and words[0] in (ROBOT, ROBOT + "s"):
        return True
    letters = "".join(words)
    if not letters.startswith(ROBOT):
        return False
    rest = letters[len(ROBOT) :]
    if rest == "" or rest.startswith(LEVELS):
        return True
    # "R o b o t", "r-o-b-o-t Ana": the word spelt out with separators
    spelt = "".join(w for w in words if len(w) == 1)
    return spelt.startswith(ROBOT) and words[0] == ROBOT[0]


def display_name(text: str) -> str:
    """The name ``text`` normalised, or :class:`BadName` when the rule refuses it."""
    if len(text) > NAME_MAX:
        raise BadName("name_long", f"a name has at most {NAME_MAX} characters", max=NAME_MAX)
    name = unicodedata.normalize("NFC", text)
    _check_characters(name)
    name = _spaced(name)
    if len(name) > NAME_MAX:
        raise BadName("name_long", f"a name has at most {NAME_MAX} characters", max=NAME_MAX)
    if not has_visible(name):
        raise BadName("name_empty", "a name needs a visible letter, digit or sign")
    if too_many_marks(name):
        raise BadName("name_marks", "too many marks on one character", max=MARKS_MAX)
    if imitates_robot(name):
        raise BadName("name_robot", "a name may not begin with the word robot")
    return name


def shown_name(text: str) -> str:
    """What a name stored before the rule may show: every character the rule
    refuses becomes a space, runs of spaces one, trimmed; ``?`` when nothing
    visible is left. A name the rule accepts is shown as it is."""
    kept = []
    for i, char in enumerate(text):
        category = unicodedata.category(char)
        refused = category in CONTROL or category == "Cf" or char in BLANKS
        if char in JOINERS and 0 < i < len(text) - 1:
            refused = not (_visible(text[i + 1]) and text[i - 1] not in JOINERS)
        kept.append(" " if refused else char)
    name = _spaced("".join(kept))[: NAME_MAX * 2]
    return name if any(_visible(c) for c in name) else "?"
