"""Shared fixtures of the suite. The test folders follow the layers (engine, robots,
tables, store, server, web, cli); the helpers they share live beside this file
(``engine_helpers``, ``robot_helpers``, ``server_helpers``, ``table_helpers``) and
are imported as plain modules.

The server fixture: ``base`` is the address of a real server (uvicorn, API and
pages) that runs for the whole test module. A module changes its settings by
overriding ``server_options``, and runs each of its tests on several databases with
``pytestmark = pytest.mark.databases("sqlite", "postgresql")`` (SQLite alone
otherwise).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from profile_helpers import FAST_EXAMPLES
from server_helpers import Client, LobbySocket, People

settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
"""The suite's hypothesis profile: at most 50 examples where a test does not set its
own number, no per-example deadline (a loaded 2-core machine is slow, not wrong), and
the reproduction blob printed with any failure. ``HYPOTHESIS_PROFILE=default`` runs
hypothesis's own defaults instead."""
settings.register_profile("fast", parent=settings.get_profile("ci"), max_examples=FAST_EXAMPLES)
"""The profile of ``scripts/test --fast``: fewer examples everywhere (see
``profile_helpers.examples``), for the loop of a change; CI runs the ``ci`` profile."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "databases(*kinds): run the module's tests once per database of its server"
        " ('sqlite', 'postgresql')",
    )
    config.addinivalue_line("markers", "browser: drives chromium (every test under tests/web)")
    config.addinivalue_line(
        "markers",
        "slow: kills a server or a worker, fuzzes every route or loads a server"
        " (left out by --fast)",
    )


SLOW_MODULES = (
    "test_schemathesis",
    "test_server_crash",
    "test_loadtest",
    "test_copy_db",
    "test_backup_restore",
    "test_lobby_load",
    "test_orphan_workers",
    "test_reverse_proxy",
)
"""The modules of crash, fuzzing and load tests, and the hosting recipes run whole
(database copies, backups and restores, the proxy with its own nginx), the longest
first: ``scripts/test --fast`` leaves them out, and the suite starts them first, in
this order."""


LONG_MODULES = (
    "test_table_layout",
    "test_web",
    "test_properties",
    "test_server",
    "test_lobby_web",
    "test_app_install_web",
    "test_accounts",
    "test_club_store",
    "test_robot_queue",
    "test_analysis_marks",
)
"""The other modules that take a worker 20 s or more (``scripts/test --durations=0``),
the longest first: begun right after the slow modules, so that none of them begins
last, while the other workers have nothing left to do."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks each test by where it lives: ``browser`` under ``tests/web``, ``slow`` in
    :data:`SLOW_MODULES`, so that a new test file is classified without a word.

    Then runs the longest files first: the slow modules in their order, then the
    long ones (:data:`LONG_MODULES`) in theirs, then the browser tests, then the
    rest, these two groups with the files of more tests first. ``scripts/test``
    hands the workers the files in this order (``--no-loadscope-reorder``): a long
    file begun last would leave the others idle at the end."""
    tests_in = Counter(item.path for item in items)
    for item in items:
        path = item.path
        if path.parent.name == "web":
            item.add_marker(pytest.mark.browser)
        if path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)

    def order(item: pytest.Item) -> tuple[int, int, str]:
        """(group, then the slow or long modules' own order or fewer tests later, then path)."""
        path = item.path
        if path.stem in SLOW_MODULES:
            return (0, SLOW_MODULES.index(path.stem), "")
        if path.stem in LONG_MODULES:
            return (1, LONG_MODULES.index(path.stem), "")
        return (2 if path.parent.name == "web" else 3, -tests_in[path], str(path))

    items.sort(key=order)  # stable: a file's tests keep their order


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("databases")
    if marker is not None and "database" in metafunc.fixturenames:
        metafunc.parametrize("database", marker.args, indirect=True, scope="module")


@pytest.fixture(scope="module")
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The database of the module's server: ``None`` for a SQLite file in its data
    folder, or the address of a fresh PostgreSQL database (``"postgresql"``)."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield None
        return
    assert kind == "postgresql", kind
    from server_helpers import fresh_postgres

    with fresh_postgres() as url:
        yield url


@pytest.fixture(scope="module")
def server_options() -> dict[str, Any]:
    """The settings of the module's server besides its data folder and database."""
    return {"robot_workers": 0, "rate": 10_000, "burst": 10_000}


@pytest.fixture(scope="module")
def base(
    tmp_path_factory: pytest.TempPathFactory, database: str | None, server_options: dict[str, Any]
) -> Iterator[str]:
    """The address of a server that runs for the whole module."""
    from server_helpers import running_server, settings_for

    settings = settings_for(tmp_path_factory.mktemp("server"), database, **server_options)
    with running_server(settings) as url:
        yield url


@pytest.fixture
def smtp() -> Iterator[tuple[Any, int]]:
    """A real SMTP server on loopback: its :class:`mail_helpers.Sink` and its port."""
    from aiosmtpd.controller import Controller

    from mail_helpers import Sink
    from server_helpers import free_port

    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    yield sink, port
    controller.stop()


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The test Redis (``ESPADAS_TEST_REDIS``, database 5 of 127.0.0.1:6379): skipped
    when it cannot be reached, except in CI, where that fails."""
    import os
    import socket
    from urllib.parse import urlsplit

    from server_helpers import REDIS

    where = urlsplit(REDIS)
    try:
        socket.create_connection((where.hostname, where.port or 6379), timeout=2).close()
    except OSError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is needed at {REDIS} and cannot be reached: {exc}")
        pytest.skip(f"Redis not reachable at {REDIS}: {exc}")
    yield REDIS


@pytest.fixture(scope="module")
def browser() -> Any:
    """The browser of the browser tests (``web_helpers.CHROMIUM``), kept from one
    browser test module to the next (:func:`web_helpers.launch`)."""
    from web_helpers import CHROMIUM, launch

    return launch(CHROMIUM)


@pytest.fixture(autouse=True, scope="module")
def _browsers_only_beside_browser_tests(request: pytest.FixtureRequest) -> None:
    """Before a module outside ``tests/web``, the browsers kept by the browser tests
    are closed: their driver's event loop would make ``asyncio.run()`` refuse."""
    if request.path.parent.name != "web" and "web_helpers" in sys.modules:
        sys.modules["web_helpers"].close_browsers()


def pytest_sessionfinish() -> None:
    """The browsers kept by the last browser module are closed with the process."""
    if "web_helpers" in sys.modules:
        sys.modules["web_helpers"].close_browsers()


@pytest.fixture
def people(base: str) -> Iterator[People]:
    """People in the lobby (the server tests): each made by ``people(name, lang)``,
    a signed-in client with a lobby socket open, both closed after the test."""
    made: list[tuple[Client, LobbySocket]] = []

    def make(name: str, lang: str = "es") -> tuple[Client, LobbySocket]:
        client = Client(base, lang)
        client.sign_in(name)
        socket = LobbySocket(base, client.cookie_header())
        made.append((client, socket))
        return client, socket

    yield make
    for client, socket in made:
        socket.close()
        client.close()
