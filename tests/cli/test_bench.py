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


def test_play_random_hands_plays_exactly_that_many_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop whose instructions ``scripts/engine-instructions`` counts deals and
    plays out ``count`` hands, across games that end (a low target)."""
    import random

    from espadas.cli import bench
    from espadas.engine import Game, Rules
    from espadas.engine import deal_cards as real

    dealt: list[int] = []

    def counting(rules: Rules, rng: random.Random, dealer: int = 0) -> tuple[int, ...]:
        dealt.append(dealer)
        return real(rules, rng, dealer)

    monkeypatch.setattr(bench, "deal_cards", counting)
    rules = Rules.from_preset("estandar", target=100)
    bench.play_random_hands(rules, random.Random(3), Game(rules, first_dealer=0), 40)
    assert len(dealt) == 40
    assert 1 in dealt  # the deal passes to the left within a game
    assert dealt.count(0) > 1  # and games end and start again (at dealer 0)
