"""The refusals of table commands, each with the HTTP status that answers it.

>>> NotAllowed("not_creator", "only the table's creator may do that").status
403
"""

from __future__ import annotations

from espadas.engine import EspadasError


class TableError(EspadasError):
    """A table command that is not allowed now; ``status`` is the HTTP status."""

    status = 409


class NotAllowed(TableError):
    """The person asking may not do this (not seated, not the creator, ...)."""

    status = 403


class BadCommand(TableError):
    """A malformed command (unknown kind, a value of the wrong type)."""

    status = 422
