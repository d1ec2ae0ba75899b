"""The examples in the README, the documentation pages and the docstrings run as written.

A module promises examples when any docstring in its source (the module's, a
class's, a function's or a method's, at any depth, as :mod:`ast` reads them) holds
one by doctest's own reading (a ``>>>`` line, see :class:`doctest.DocTestParser`).
Each such docstring must be one that doctest collects from the imported module, so
that its examples run: one written where doctest never looks (a function nested in
another, a function behind a decorator that drops its docstring) breaks the promise,
and so does a module that promises examples and runs none.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

import espadas

ROOT = Path(__file__).resolve().parent.parent
MODULES = [
    m.name
    for m in pkgutil.walk_packages(espadas.__path__, "espadas.")
    if ".migrations" not in m.name  # run by Alembic, not importable on their own
]
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
PARSER = doctest.DocTestParser()


def promised_examples(source: str) -> dict[str, str]:
    """Each docstring of ``source`` that holds an example, cleaned as
    :func:`inspect.cleandoc` does, by where it stands (``name:line``)."""
    found: dict[str, str] = {}

    def visit(node: ast.AST, path: list[str]) -> None:
        if isinstance(node, DOCUMENTED):
            if not isinstance(node, ast.Module):
                path = [*path, node.name]
            text = ast.get_docstring(node, clean=True)
            if text is not None and has_examples(text):
                found[f"{'.'.join(path) or '(module)'}:{getattr(node, 'lineno', 1)}"] = text
        for child in ast.iter_child_nodes(node):
            visit(child, path)

    visit(ast.parse(source), [])
    return found


def has_examples(text: str) -> bool:
    try:
        return bool(PARSER.get_examples(text))
    except ValueError:  # a malformed example is still a promise (and fails when run)
        return True


def check_examples(module: ModuleType) -> list[str]:
    """Runs the examples of ``module``'s docstrings; returns what is wrong: the examples
    that fail, the docstrings whose examples doctest never collects, or a module that
    promises examples and runs none."""
    tests = doctest.DocTestFinder().find(module)
    runner = doctest.DocTestRunner(verbose=False, optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    problems = [f"{result.failed} example(s) failed"] if result.failed else []
    source = Path(inspect.getfile(module)).read_text(encoding="utf-8")
    promised = promised_examples(source)
    collected = {inspect.cleandoc(test.docstring or "") for test in tests if test.examples}
    problems += [
        f"{where}: its examples are never collected, so they never run"
        for where, text in promised.items()
        if text not in collected
    ]
    if promised and not result.attempted:
        problems.append(f"promises examples ({', '.join(promised)}) and runs none")
    return problems


@pytest.mark.parametrize("name", MODULES)
def test_module_docstrings(name: str) -> None:
    module = importlib.import_module(name)
    problems = check_examples(module)
    assert not problems, f"{name}: " + "; ".join(problems)


PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False)
    assert result.failed == 0


def test_the_pages_hold_examples() -> None:
    attempted = sum(
        doctest.testfile(str(p), module_relative=False, report=False).attempted for p in PAGES
    )
    assert attempted > 3


def test_the_readme_links_to_pages_that_exist() -> None:
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\((docs/[^)#]*)", text)
    assert len(links) >= 8
    assert [link for link in links if not (ROOT / link).exists()] == []
    assert len(text.splitlines()) <= 200


# --------------------------------------------------------------------------
# the check itself, on modules written for it

KEPT = '''
"""A module whose examples all run.

>>> double(2)
4
"""

import functools


def double(x: int) -> int:
    """An example.

    >>> double(3)
    6
    """
    return 2 * x


def logged(f):
    @functools.wraps(f)
    def inner(*args):
        return f(*args)
    return inner


class Box:
    @logged
    def size(self) -> int:
        """An example.

        >>> Box().size()
        0
        """
        return 0
'''

NESTED = '''
"""A module with no example of its own."""


def outer() -> int:
    def inner() -> int:
        """An example.

        >>> inner()
        1
        """
        return 1
    return inner()
'''

HIDDEN = '''
"""Its only example sits behind a decorator that drops the docstring."""


def plain(f):
    def inner(*args):
        return f(*args)
    return inner


@plain
def triple(x: int) -> int:
    """An example.

    >>> triple(2)
    6
    """
    return 3 * x
'''

PARTLY = KEPT + NESTED.split('"""A module with no example of its own."""')[1]

WRONG = '''
def one() -> int:
    """An example.

    >>> one()
    2
    """
    return 1
'''

SILENT = '''
"""Examples? None here: the word alone is no promise."""


def one() -> int:
    """One."""
    return 1
'''


def module_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> ModuleType:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return importlib.import_module(name)


def test_a_module_that_keeps_its_promise_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = module_from(tmp_path, monkeypatch, "docs_kept", KEPT)
    assert len(promised_examples(inspect.getsource(kept))) == 3
    assert check_examples(kept) == []
    assert check_examples(module_from(tmp_path, monkeypatch, "docs_silent", SILENT)) == []


def test_a_module_whose_examples_never_run_is_flagged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nested = module_from(tmp_path, monkeypatch, "docs_nested", NESTED)
    assert doctest.testmod(nested).attempted == 0  # what the old test took for a pass
    assert check_examples(nested) == [
        "outer.inner:6: its examples are never collected, so they never run",
        "promises examples (outer.inner:6) and runs none",
    ]
    hidden = module_from(tmp_path, monkeypatch, "docs_hidden", HIDDEN)
    assert check_examples(hidden) == [
        "triple:12: its examples are never collected, so they never run",
        "promises examples (triple:12) and runs none",
    ]


def test_one_example_that_never_runs_is_flagged_beside_others_that_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    partly = module_from(tmp_path, monkeypatch, "docs_partly", PARTLY)
    assert doctest.testmod(partly).attempted == 3
    problems = check_examples(partly)
    assert len(problems) == 1 and "outer.inner:" in problems[0] and "never run" in problems[0]


def test_a_failing_example_is_flagged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wrong = module_from(tmp_path, monkeypatch, "docs_wrong", WRONG)
    assert check_examples(wrong) == ["1 example(s) failed"]
