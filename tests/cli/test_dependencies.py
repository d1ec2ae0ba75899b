"""Every third-party package the code imports is pinned in the runtime lock, so that
every command runs from ``pip install -r requirements.lock`` (``scripts/run``).

Imports are read with :mod:`ast` from every module under ``src/espadas``, at any
depth (inside functions and ``TYPE_CHECKING`` blocks too); only an import inside
``try: … except ImportError`` is optional and left out. A module name becomes a
distribution name through the installed packages' metadata
(:func:`importlib.metadata.packages_distributions`: ``py_vapid`` is ``py-vapid``),
else it is taken as its own distribution name."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "espadas"
OPTIONAL = frozenset({"ImportError", "ModuleNotFoundError"})


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def locked(path: Path) -> set[str]:
    """The distributions pinned in a lock file (``name==version`` lines)."""
    pins = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==", path.read_text(), re.M)
    return {normalise(name) for name in pins}


def is_optional(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any(isinstance(n, ast.Name) and n.id in OPTIONAL for n in names)


def imported(tree: ast.AST, optional: bool = False) -> set[str]:
    """The top-level module names ``tree`` imports outside ``try … except
    ImportError``."""
    found: set[str] = set()
    if isinstance(tree, ast.Try) and any(is_optional(h) for h in tree.handlers):
        optional = True
    if not optional:
        if isinstance(tree, ast.Import):
            found |= {alias.name.split(".")[0] for alias in tree.names}
        elif isinstance(tree, ast.ImportFrom) and tree.level == 0 and tree.module:
            found.add(tree.module.split(".")[0])
    for child in ast.iter_child_nodes(tree):
        found |= imported(child, optional)
    return found


def third_party() -> dict[str, set[str]]:
    """Each third-party module name imported under ``src/espadas`` -> the files."""
    uses: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name in imported(tree):
            if name in sys.stdlib_module_names or name in ("espadas", "__future__"):
                continue
            uses.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return uses


def test_the_import_reader_sees_nested_imports_and_skips_optional_ones() -> None:
    code = (
        "import a.b\nfrom c import d\nfrom . import e\n"
        "def f():\n    import g\n"
        "try:\n    import h\nexcept ImportError:\n    h = None\n"
        "try:\n    import i\nexcept ValueError:\n    pass\n"
    )
    assert imported(ast.parse(code)) == {"a", "c", "g", "i"}


def test_every_imported_package_is_in_the_runtime_lock() -> None:
    pins = locked(ROOT / "requirements.lock")
    dists = packages_distributions()
    uses = third_party()
    assert {"fastapi", "httpx", "rich"} <= set(uses), "the reader found the known imports"
    missing = {
        name: sorted(files)
        for name, files in uses.items()
        if not any(normalise(d) in pins for d in dists.get(name, [name]))
    }
    assert not missing, f"imported but not in requirements.lock: {missing}"


def test_runtime_requirements_are_declared_in_pyproject_and_requirements_in() -> None:
    def names(lines: list[str]) -> set[str]:
        return {normalise(re.split(r"[<>=!~\[; ]", line.strip(), maxsplit=1)[0]) for line in lines}

    listed = [line for line in (ROOT / "requirements.in").read_text().splitlines() if line.strip()]
    with (ROOT / "pyproject.toml").open("rb") as file:
        declared: list[str] = tomllib.load(file)["project"]["dependencies"]
    assert names(listed) == names(declared)
    assert {"httpx", "rich"} <= names(listed)
    assert names(listed) <= locked(ROOT / "requirements.lock")
