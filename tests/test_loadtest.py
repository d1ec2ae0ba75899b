"""``espadas loadtest`` against a real server: simulated people play real games
over WebSockets (actions over the socket, or over HTTP) and the report adds up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server_helpers import running_server, settings_for


@pytest.mark.parametrize("via", ["ws", "http"])
def test_loadtest_plays_and_reports(tmp_path: Path, via: str) -> None:
    settings = settings_for(tmp_path, robot_workers=0, rate=1000, burst=100_000)
    with running_server(settings) as url:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "espadas.cli.main",
                "loadtest",
                url,
                "--tables",
                "3",
                "--players",
                "10",
                "--duration",
                "6",
                "--speed",
                "full",
                "--via",
                via,
                "--json",
                "--no-echo",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["via"] == via
    assert report["tables"] == 3 and report["players"] == 9  # 3 people a table, 1 robot
    assert report["errors"] == 0, report["error_samples"]
    assert report["actions"] > 20
    # every action reaches the 3 people of its table (a view may cover several)
    assert report["views"] >= report["actions"]
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"]
    assert report["server_rss_mb"]["after"][0] > 0


def test_loadtest_refuses_bad_numbers() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "espadas.cli.main",
            "loadtest",
            "http://127.0.0.1:9",
            "--tables",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "must be positive" in done.stderr
