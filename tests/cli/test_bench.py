"""The benchmark command's output contract (its speed is reported, not asserted)."""

from __future__ import annotations

import json

import pytest

from espadas.cli.main import main


def test_bench_engine_prints_rate_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "engine", "--seconds", "0.3", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("hands_per_second=")
    rate = int(lines[-1].split("=")[1])
    data = json.loads(lines[0])
    assert data["hands_per_second"] == rate and data["hands"] > 0
    assert data["rounds"] == 3
    assert 0 < data["median_hands_per_second"] <= rate


def test_bench_kernel_prints_rate_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "kernel", "--seconds", "0.3", "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("playouts_per_second=")
    rate = int(lines[-1].split("=")[1])
    data = json.loads(lines[0])
    assert data["playouts_per_second"] == rate and data["playouts"] == 3 * 50_000
    assert data["compiled"] is True
    assert 0 < data["median_playouts_per_second"] <= rate
