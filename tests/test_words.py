"""The project speaks of the software only: no file of the source, the tests, the
scripts, CI or the documentation names the steps by which the project was built (a
numbered step, task or defect of its making, or an earlier such step). A feature
is named for what it does; a figure is given with its date, machine and command.

This file itself, which must name the words to find them, is left out.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("src", "tests", "scripts", ".ci", "docs", "README.md")
STEP = "(?:st" + "op|iss" + "ue|def" + "ect)"
PATTERNS = (
    re.compile(r"\b" + STEP + r"s?(?:'s)? #?\d+", re.IGNORECASE),
    re.compile(r"\b(?:earlier|this|last|next|previous) st" + r"ops?\b", re.IGNORECASE),
)


def offending_lines(text: str) -> list[str]:
    """The lines of ``text`` that name a step of the project's making.

    >>> len(offending_lines("a figure\\nmeasured in " + "st" + "op 3\\nno " + "stop" + "watch"))
    1
    """
    return [line for line in text.splitlines() if any(p.search(line) for p in PATTERNS)]


def tracked_files() -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z", "--", *FOLDERS],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [ROOT / name for name in out.split("\0") if name]


def test_the_patterns_catch_what_they_should() -> None:
    words = ("Iss" + "ue 19", "st" + "op 30's machine", "def" + "ect 1", "an earlier st" + "op")
    assert all(offending_lines(f"x {w} y") for w in words)
    assert not offending_lines("the stopwatch stops at 30 s; a session of 3 tissues 4")


def test_no_file_names_how_the_project_was_built() -> None:
    files = tracked_files()
    if not files:
        pytest.skip("not a git checkout")
    found = []
    for path in files:
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{path.relative_to(ROOT)}: {line.strip()}" for line in offending_lines(text)]
    assert not found, "\n".join(found)
