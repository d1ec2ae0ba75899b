"""The house stays in order: no import cycle between the modules of ``src/espadas``,
no import that runs up the layers, no Python or JavaScript source file over 500 lines.

The rules, as the checker below reads them:

- A module imports another when any ``import`` or ``from … import`` names it,
  wherever it stands: at the top, under ``if TYPE_CHECKING:``, inside a function.
  ``from espadas.engine import Game`` imports ``espadas.engine`` (its ``__init__``);
  ``from espadas.engine import game`` imports ``espadas.engine.game``. A module
  importing one of its own parent packages does not count.
- A cycle is a set of two or more modules each reachable from the others.
- The layers, bottom to top: engine, robots, tables, store, server, web, cli. The
  modules outside these folders (``espadas.i18n`` today, and the ``espadas`` package
  itself) are shared: they sit between store and server, so they may import the four
  bottom layers and are imported by server, web and cli only. A module may import
  its own layer and the ones below.
- A source file is a ``.py``, ``.js`` or ``.mjs`` file under ``src/``; its length is
  its number of lines.

Parsed with :mod:`ast`; nothing is imported or run.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "robots", "tables", "store", "server", "web", "cli")
SHARED = LAYERS.index("store") + 0.5
LIMIT = 500
SOURCES = (".py", ".js", ".mjs")


@dataclass(frozen=True)
class House:
    """What is out of order in a source tree: each list empty when all is well."""

    cycles: list[list[str]]
    upward: list[tuple[str, str]]
    long_files: list[tuple[str, int]]

    def offences(self) -> list[str]:
        """One line per offender, in house-check's words."""
        return [
            *(f"cycle: {' <-> '.join(cycle)}" for cycle in self.cycles),
            *(f"upward: {low} -> {high}" for low, high in self.upward),
            *(f"over {LIMIT}: {path} {lines}" for path, lines in self.long_files),
        ]


def module_names(src: Path) -> dict[str, Path]:
    """Every Python module under ``src``, by its dotted name (a package by its folder's)."""
    names: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def imported_names(tree: ast.Module, name: str, is_package: bool) -> set[str]:
    """Every dotted name ``tree`` (the module ``name``) imports, in any statement;
    ``from X import y`` names both ``X`` and ``X.y`` (``y`` may be a module)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module and the modules of the tree it imports (itself and its parent
    packages left out)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets: set[str] = set()
        for dotted in imported_names(tree, name, path.name == "__init__.py"):
            while dotted and dotted not in modules:  # ``pkg.mod.Name`` is ``pkg.mod``
                dotted = dotted.rpartition(".")[0]
            if dotted and dotted != name and not name.startswith(dotted + "."):
                targets.add(dotted)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of two or more modules (Tarjan's algorithm,
    without recursion), each sorted, sorted by their first module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(graph[root])))]
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def rank(name: str) -> float:
    """A module's height in the layers: its layer's place, or SHARED outside them."""
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in LAYERS:
        return LAYERS.index(parts[1])
    return SHARED


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[tuple[str, str]]:
    """The (importer, imported) pairs where the imported module stands higher."""
    return sorted(
        (low, high) for low, targets in graph.items() for high in targets if rank(high) > rank(low)
    )


def long_files(src: Path, limit: int = LIMIT) -> list[tuple[str, int]]:
    """The source files under ``src`` longer than ``limit`` lines, longest first,
    each named from the folder that holds ``src``."""
    sizes = [
        (
            path.relative_to(src.parent).as_posix(),
            len(path.read_text(encoding="utf-8").splitlines()),
        )
        for path in sorted(src.rglob("*"))
        if path.suffix in SOURCES and path.is_file()
    ]
    return sorted(((p, n) for p, n in sizes if n > limit), key=lambda item: (-item[1], item[0]))


def inspect_house(src: Path) -> House:
    graph = import_graph(module_names(src))
    return House(cycles(graph), upward_imports(graph), long_files(src))


def assert_in_order(src: Path) -> None:
    offences = inspect_house(src).offences()
    if offences:
        raise AssertionError("the house is out of order:\n" + "\n".join(offences))


# --------------------------------------------------------------------------
# the real tree


def test_the_house_is_in_order() -> None:
    assert_in_order(ROOT / "src")


# --------------------------------------------------------------------------
# the checker, on small trees


def tree(tmp_path: Path, files: Mapping[str, str]) -> Path:
    """A ``src`` folder holding ``files`` (paths under ``src/espadas``), with the
    ``__init__.py`` of every package."""
    src = tmp_path / "src"
    for relative, text in {"__init__.py": "", **files}.items():
        path = src / "espadas" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in path.relative_to(src).parents:
            package = src / folder / "__init__.py"
            if folder != Path(".") and "static" not in folder.parts and not package.exists():
                package.touch()
        path.write_text(text, encoding="utf-8")
    return src


def typing_only(statement: str) -> str:
    """A module with ``statement`` under ``if TYPE_CHECKING:``."""
    return f"from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    {statement}\n"


def lines(n: int) -> str:
    return "".join(f"x{i} = {i}\n" for i in range(n))


CLEAN = {
    "engine/__init__.py": "from espadas.engine.game import Game\n",
    "engine/game.py": '"""A game."""\nfrom . import cards\nimport espadas\n\n\nclass Game: ...\n',
    "engine/cards.py": "from espadas.engine import errors\n",
    "engine/errors.py": "import json\n",
    "robots/normal.py": "from espadas.engine import Game\nfrom ..engine.cards import *\n",
    "i18n.py": "from espadas.engine.errors import json\n",
    "server/api.py": "from espadas.i18n import x\nfrom espadas.store import y\n",
    "store/__init__.py": "from espadas.tables import table\n",
    "tables/table.py": "from espadas.robots.normal import Game\n",
    "web/site.py": "from espadas.server.api import x\n",
    "cli/main.py": "from espadas import i18n, web\nfrom espadas.engine import game\n",
    "web/static/app.js": "let a = 1;\n" * LIMIT,
    "engine/long.py": lines(LIMIT),
}


def test_a_clean_tree_is_in_order(tmp_path: Path) -> None:
    src = tree(tmp_path, CLEAN)
    assert inspect_house(src) == House([], [], [])
    assert_in_order(src)


def test_a_cycle_is_found_through_type_checking_and_function_imports(tmp_path: Path) -> None:
    src = tree(
        tmp_path,
        {
            "engine/game.py": "def record():\n    from espadas.engine.record import write\n",
            "engine/record.py": typing_only("from espadas.engine.view import View"),
            "engine/view.py": "from .game import Result\n",
            "robots/expert.py": "from espadas.robots import kernel\n",
            "robots/kernel.py": "def warm_up():\n    import espadas.robots.expert\n",
            "robots/normal.py": "from espadas.robots.kernel import x\n",  # not in the cycle
        },
    )
    assert inspect_house(src).cycles == [
        ["espadas.engine.game", "espadas.engine.record", "espadas.engine.view"],
        ["espadas.robots.expert", "espadas.robots.kernel"],
    ]
    with pytest.raises(AssertionError) as failure:
        assert_in_order(src)
    message = str(failure.value)
    assert "cycle: espadas.engine.game <-> espadas.engine.record <-> espadas.engine.view" in message
    assert "cycle: espadas.robots.expert <-> espadas.robots.kernel" in message


def test_a_cycle_through_a_package_init(tmp_path: Path) -> None:
    src = tree(
        tmp_path,
        {
            "tables/__init__.py": "from .table import Table\n",
            "tables/table.py": "from espadas.store import x\n",
            "store/__init__.py": "from espadas.tables import Table\n",
            "store/store.py": "from espadas.store import x\n",  # its own package: no cycle
        },
    )
    assert inspect_house(src).cycles == [
        ["espadas.store", "espadas.tables", "espadas.tables.table"]
    ]


def test_an_import_up_the_layers_is_found(tmp_path: Path) -> None:
    src = tree(
        tmp_path,
        {
            "engine/game.py": "def f():\n    from ..robots import normal\n",
            "robots/normal.py": "",
            "tables/table.py": typing_only("from espadas.store.store import S"),
            "store/store.py": "import espadas.i18n\n",
            "i18n.py": "from espadas.server.api import x\n",
            "server/api.py": "from espadas.cli import main\n",
            "cli/main.py": "from espadas.web.site import app\n",  # downward: fine
            "web/site.py": "",
        },
    )
    assert inspect_house(src).upward == [
        ("espadas.engine.game", "espadas.robots"),  # ``from ..robots`` runs its __init__
        ("espadas.engine.game", "espadas.robots.normal"),
        ("espadas.i18n", "espadas.server.api"),
        ("espadas.server.api", "espadas.cli"),
        ("espadas.server.api", "espadas.cli.main"),
        ("espadas.store.store", "espadas.i18n"),
        ("espadas.tables.table", "espadas.store.store"),
    ]


def test_a_long_source_file_is_found(tmp_path: Path) -> None:
    src = tree(
        tmp_path,
        {
            "robots/kernel.py": lines(LIMIT + 1),
            "engine/game.py": lines(LIMIT),
            "web/static/js/table.js": "x();\n" * (LIMIT + 40),
            "web/static/js/board.mjs": "x();\n" * (LIMIT + 2),
            "web/static/app.css": "a {}\n" * (LIMIT * 2),  # not a source file
        },
    )
    assert inspect_house(src).long_files == [
        ("src/espadas/web/static/js/table.js", LIMIT + 40),
        ("src/espadas/web/static/js/board.mjs", LIMIT + 2),
        ("src/espadas/robots/kernel.py", LIMIT + 1),
    ]


def test_the_failure_lists_every_offender(tmp_path: Path) -> None:
    src = tree(
        tmp_path,
        {
            "engine/a.py": "import espadas.engine.b\n",
            "engine/b.py": "import espadas.engine.a\nimport espadas.server.api\n",
            "server/api.py": lines(LIMIT + 5),
            "cli/play.py": lines(LIMIT + 9),
        },
    )
    with pytest.raises(AssertionError) as failure:
        assert_in_order(src)
    assert str(failure.value).splitlines()[1:] == [
        "cycle: espadas.engine.a <-> espadas.engine.b",
        "upward: espadas.engine.b -> espadas.server.api",
        f"over {LIMIT}: src/espadas/cli/play.py {LIMIT + 9}",
        f"over {LIMIT}: src/espadas/server/api.py {LIMIT + 5}",
    ]
