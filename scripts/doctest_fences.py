"""A griffe extension for the documentation's API reference: the doctest examples
of a docstring (``>>>`` lines and the output that follows them) shown as Python
code blocks, as they read in the source, instead of as Markdown text; and the
cross-reference roles of the docstrings (``:class:`~espadas.engine.Card```) shown
as code (``Card``)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|meth|func|mod|attr|data|exc|obj):`(~?)([^`]+)`")


def fence(text: str) -> str:
    r"""Puts each run of doctest lines (a ``>>>`` line, its ``...`` lines and the
    output up to a blank line) in a fenced ``pycon`` block.

    >>> fence("Deals.\n\n>>> 1 + 1\n2\n\nMore.").splitlines()
    ['Deals.', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'More.']
    """
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not inside:
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


def roles(text: str) -> str:
    """Cross-reference roles as code, the last part only where ``~`` asks for it.

    >>> roles("A :class:`~espadas.engine.card.Card` or :func:`deal_cards`.")
    'A `Card` or `deal_cards`.'
    """
    return ROLE.sub(lambda m: "`" + (m[2].rsplit(".", 1)[-1] if m[1] else m[2]) + "`", text)


class DoctestFences(griffe.Extension):
    """Fences the doctest examples of every docstring the reference shows."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(roles(obj.docstring.value))
