"""Seats in the kernel's arrays: ``partner[seat]`` is the seat's partner, or
:data:`NO_PARTNER` (the int arrays' ``None``) in games without partnerships.

>>> from espadas.engine import Rules
>>> partners(Rules()).tolist(), partners(Rules.from_preset("sala", players=3)).tolist()
([2, 3, 0, 1], [-1, -1, -1])
"""

from __future__ import annotations

import numpy as np

from espadas.engine import Rules

NO_PARTNER = -1
"""A seat without a partner, in the kernel's int arrays (``None`` in Python:
:meth:`~espadas.engine.Rules.partner_of`)."""


def partners(rules: Rules) -> np.ndarray:
    """The partner of each seat (int64[players]), :data:`NO_PARTNER` when none."""
    mates = (rules.partner_of(s) for s in range(rules.players))
    return np.array([NO_PARTNER if m is None else m for m in mates], dtype=np.int64)
