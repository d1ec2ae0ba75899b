"""The rule sets of quick play: each a preset and its options, named as the lobby
and ``espadas loadtest --lobby`` name them.

>>> RULE_SETS["sala-5"]
('sala', {'players': 5})
>>> MINE in RULE_SETS
False
"""

from __future__ import annotations

from typing import Any

RULE_SETS: dict[str, tuple[str, dict[str, Any]]] = {
    "estandar": ("estandar", {}),
    "pagat": ("pagat", {}),
    "cien": ("cien", {}),
    "sala": ("sala", {}),
    "sala-3": ("sala", {"players": 3}),
    "sala-5": ("sala", {"players": 5}),
    "sala-6": ("sala", {"players": 6}),
}
"""The rule sets of quick play: a preset and its options. ``mine`` (the rules of
the person's last table) is one more."""
MINE = "mine"
"""Quick play with the rules of the person's last table."""
