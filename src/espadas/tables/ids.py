"""Table ids: the one rule for what a table's id looks like, and how new ones are made.

An id is 8 to 64 characters of the URL-safe alphabet (letters, digits, ``_`` and
``-``), so that it sits in a link as it is. A new table gets 192 random bits.

>>> table_id = new_table_id()
>>> len(table_id), TABLE_ID.match(table_id) is not None
(32, True)
>>> [TABLE_ID.match(text) is not None for text in ("short", "no spaces here", "x" * 65)]
[False, False, False]
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

TABLE_ID_ALPHABET = "A-Za-z0-9_-"
"""The characters of an id, as a regular-expression class."""
TABLE_ID_MIN = 8
TABLE_ID_MAX = 64
TABLE_ID_CHARS = f"^[{TABLE_ID_ALPHABET}]+$"
"""Only the characters (the length is checked apart: :data:`TABLE_ID_MIN` to
:data:`TABLE_ID_MAX`)."""
TABLE_ID = re.compile(f"^[{TABLE_ID_ALPHABET}]{{{TABLE_ID_MIN},{TABLE_ID_MAX}}}$")
"""The whole rule, characters and length, in one pattern."""


def new_table_id() -> str:
    """A fresh table id: 192 random bits, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def rematch_id(table_id: str) -> str:
    """The id of the rematch of table ``table_id``: one per table, derived from its
    id (as secret as it is), so that every request for it, on any instance, names
    the same table and the store's key on table ids lets only one be created.

    >>> rematch_id("t1") == rematch_id("t1") != rematch_id("t2"), len(rematch_id("t1"))
    (True, 32)
    """
    digest = hashlib.sha256(b"espadas-rematch:" + table_id.encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()
