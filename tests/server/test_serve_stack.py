"""``espadas serve`` runs on uvloop's event loop and httptools' HTTP parser (the
load figures in the README are measured so)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from server_helpers import free_port, serve_process


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs Linux's /proc")
def test_serve_loads_uvloop_and_httptools(tmp_path: Path) -> None:
    server = serve_process(tmp_path, free_port())
    try:
        maps = Path(f"/proc/{server.pid}/maps").read_text()
        assert "uvloop" in maps  # uvloop/loop.cpython-*.so, a C extension
        assert "httptools" in maps
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(30)
