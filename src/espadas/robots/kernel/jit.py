"""How the kernel is compiled: :func:`jit` compiles a function with numba (cached on
disk, without the GIL) when numba is installed (it is a dependency), and leaves it
plain Python otherwise; :data:`COMPILED` says which.

numba checks a cached compilation against the source file of the function it
compiled, but not against the files of the functions it calls, which the kernel
spreads over several modules. So every cache entry of the kernel is stamped with
a digest of all its source files (:data:`SOURCES`): editing any of them
recompiles the whole kernel.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

SOURCES = (
    *sorted(Path(__file__).parent.glob("*.py")),
    Path(__file__).parent.parent / "tricks.py",
)
"""The source files whose compiled code the kernel links together."""


def _digest() -> str:
    h = hashlib.sha256()
    for path in SOURCES:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


try:  # pragma: no branch
    from numba import njit as _njit

    COMPILED = True
except ImportError:  # pragma: no cover - numba is a dependency; this is a fallback
    COMPILED = False

_STAMP = _digest() if COMPILED else ""


def jit(fn: F) -> F:
    """``fn`` compiled by numba (``cache=True, nogil=True``), or ``fn`` itself without
    numba."""
    return _compile(fn, "never")


def jit_inline(fn: F) -> F:
    """:func:`jit`, and compiled into each compiled caller rather than called: for
    the policy's leads and follows, which take arrays (a call that passes arrays
    counts their references, which costs more than the rest of a small function)."""
    return _compile(fn, "always")


def _compile(fn: F, inline: Literal["never", "always"]) -> F:
    if not COMPILED:  # pragma: no cover
        return fn
    dispatcher = _njit(cache=True, nogil=True, inline=inline)(fn)
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is not None and hasattr(cache_file, "_source_stamp"):
        cache_file._source_stamp = (cache_file._source_stamp, _STAMP)
    return dispatcher  # type: ignore[return-value]
