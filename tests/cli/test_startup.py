"""Starting any espadas command, ``serve`` included, leaves the robots' search
and numba's compiled kernel unloaded until a robot decides (they take about
75 MB of the server's memory: ``espadas analyze`` once loaded them for every
command through its module's imports)."""

from __future__ import annotations

import subprocess
import sys


def test_the_command_and_the_site_do_not_load_the_search() -> None:
    probe = (
        "import sys, espadas.cli.main, espadas.web.site; "
        "print(sorted(m for m in ('numba', 'espadas.robots.kernel', 'espadas.robots.expert') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_command_loads_no_server_stack_before_its_sub_command_runs() -> None:
    """Building the parser of every sub-command imports neither the web framework
    nor the database layer: ``espadas replay`` or ``espadas verify`` start in a
    fraction of a second (the load test's options once imported the server)."""
    probe = (
        "import sys, espadas.cli.main; espadas.cli.main.build_parser(); "
        "print(sorted(m for m in ('fastapi', 'starlette', 'sqlalchemy', 'uvicorn', 'pydantic') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
