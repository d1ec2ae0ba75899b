"""The examples in the README and in the docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import espadas

ROOT = Path(__file__).resolve().parent.parent
MODULES = [
    m.name
    for m in pkgutil.walk_packages(espadas.__path__, "espadas.")
    if ".migrations" not in m.name  # run by Alembic, not importable on their own
]


@pytest.mark.parametrize("name", MODULES)
def test_module_docstrings(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.failed == 0 and result.attempted > 3
