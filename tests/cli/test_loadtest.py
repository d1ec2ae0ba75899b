"""``espadas loadtest`` against a real server: simulated people play real games
over WebSockets (actions over the socket, or over HTTP) and the report adds up."""

from __future__ import annotations

import json
import platform
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
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    memory = report["server_rss_mb"]
    assert memory["after"][0] > 0
    assert memory["samples"][0] == [0.0, memory["before"]]
    assert memory["growth_per_minute"] == [None]  # a 6 s run has no minute to judge
    # the p99 of each progress window: two windows (5 s, then the last second)
    windows = report["p99_by_window"]
    assert round(windows[0][0]) == 5 and round(windows[-1][0]) == 6
    assert all(p99 is None or 0 < p99 <= latency["max"] for _, p99 in windows)
    # progress goes to stderr, also with --json (stdout holds the JSON alone)
    assert "playing for 6 s" in done.stderr


def test_memory_growth_is_the_slope_after_the_first_minute() -> None:
    from espadas.cli.figures import growth

    # two servers: one flat after its start, one growing 2 MB a minute; a failed
    # sample (0) of the second is left out
    samples = [(0.0, [100.0, 100.0])]
    samples += [(t, [180.0 + (t % 60 == 0), 150.0 + 2 * t / 60]) for t in range(30, 601, 30)]
    samples[5] = (samples[5][0], [samples[5][1][0], 0.0])
    flat, growing = growth(samples)
    assert flat is not None and abs(flat) < 0.05
    assert growing == 2.0


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


MMAP_PROBE = """
import ctypes, sys
from espadas.cli.serve import _fixed_mmap_threshold

class Info(ctypes.Structure):
    names = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"
    _fields_ = [(n, ctypes.c_size_t) for n in names.split()]

libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = Info
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
if sys.argv[1] == "fixed":
    _fixed_mmap_threshold()
libc.free(libc.malloc(4 << 20))  # a freed large block raises glibc's own threshold
# the heap's free top would serve a large block whatever the threshold (the
# imports above leave more or less of it free, more when they compiled a module):
# give it back, then use up what is left of it in small blocks
libc.malloc_trim(0)
kept = []
while libc.mallinfo2().keepcost > 16 << 10:
    kept.append(libc.malloc(8 << 10))
# ...and a free chunk inside the heap would serve it too: ask for more than all
# the heap's free space together, and still well under the moving threshold
size = max(200 << 10, libc.mallinfo2().fordblks + (64 << 10))
assert size < 2 << 20, size
before = libc.mallinfo2().hblks
block = libc.malloc(size)
print(libc.mallinfo2().hblks - before)
libc.free(block)
"""


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc",
    reason="glibc's allocator only",
)
def test_serve_keeps_large_blocks_mapped_on_their_own() -> None:
    """With the fixed threshold a large block (200 KiB or more) is mapped on its own
    even after a 4 MiB block was freed; with glibc's moving threshold it lands in
    the heap."""

    def mapped(mode: str) -> int:
        out = subprocess.run(
            [sys.executable, "-c", MMAP_PROBE, mode], capture_output=True, text=True, check=True
        )
        return int(out.stdout)

    assert mapped("fixed") == 1
    assert mapped("moving") == 0


def test_play_over_http_never_stalls(tmp_path: Path) -> None:
    """A person's HTTP answer can come after the socket's view of their own move;
    the view that came meanwhile must still be acted on (it used to be dropped, and
    a table whose next move was that person's stopped for good after a few
    seconds)."""
    settings = settings_for(tmp_path, robot_workers=0, rate=1000, burst=100_000)
    with running_server(settings) as url:
        done = subprocess.run(
            [sys.executable, "-m", "espadas.cli.main", "loadtest", url, "--tables", "2",
             "--players", "8", "--duration", "16", "--speed", "full", "--via", "http",
             "--json", "--no-echo"],
            capture_output=True,
            text=True,
            timeout=120,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["errors"] == 0, report["error_samples"]
    # each 5-second window saw views arrive (a stalled run shows None)
    full = [p99 for t, p99 in report["p99_by_window"] if t <= 15.5]
    assert len(full) == 3 and all(p99 is not None for p99 in full), report["p99_by_window"]
