"""Duplicate scoring (tables/duplicate.py) against hand-computed examples, and the
properties every field has: points above the field sum to zero on a board, and
matchpoints average 50."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.tables.duplicate import DuplicateError, Result, score


def test_a_board_against_its_field_by_hand() -> None:
    # board 1: 120, 80, 80, 20 -> ana's field is {80, 80, 20}: mean 60, ana beats all three
    table = score(
        [Result("ana", 1, 0, 120), Result("bea", 1, 0, 80), Result("cai", 1, 0, 80),
         Result("dan", 1, 0, 20)]
    )  # fmt: skip
    lines = {name: own[0] for name, own in table.lines.items()}
    assert (lines["ana"].field, lines["ana"].above, lines["ana"].matchpoints) == (60.0, 60.0, 100.0)
    # bea: field {120, 80, 20}, mean 73.33; beats dan, ties cai, loses to ana: 1.5 of 3
    assert lines["bea"].field == pytest.approx(220 / 3)
    assert lines["bea"].above == pytest.approx(80 - 220 / 3)
    assert lines["bea"].matchpoints == 50.0
    assert lines["dan"].matchpoints == 0.0 and lines["dan"].above == pytest.approx(20 - 280 / 3)
    assert [(s.rank, s.entrant) for s in table.standings] == [
        (1, "ana"), (2, "bea"), (2, "cai"), (4, "dan"),
    ]  # fmt: skip


def test_ties_share_a_rank_and_the_other_figure_breaks_ties() -> None:
    results = [
        Result("ana", 1, 0, 100), Result("bea", 1, 0, 40), Result("cai", 1, 0, 40),
        Result("ana", 2, 0, 0), Result("bea", 2, 0, 60), Result("cai", 2, 0, 70),
    ]  # fmt: skip
    by_mp = score(results, method="matchpoints")
    # matchpoints: ana 100 + 0 -> 50; bea 25 + 50 -> 37.5; cai 25 + 100 -> 62.5
    assert [(s.entrant, s.matchpoints) for s in by_mp.standings] == [
        ("cai", 62.5), ("ana", 50.0), ("bea", 37.5),
    ]  # fmt: skip
    # totals: ana +60 - 65 = -5; bea -30 + 25 = -5; cai -30 + 40 = +10: ana and bea
    # are equal on total, and ana's matchpoints put her ahead
    by_total = score(results, method="total")
    assert [(s.rank, s.entrant, s.total) for s in by_total.standings] == [
        (1, "cai", 10.0), (2, "ana", -5.0), (3, "bea", -5.0),
    ]  # fmt: skip
    same = score([Result("ana", 1, 0, 10), Result("bea", 1, 0, 10)])
    assert [s.rank for s in same.standings] == [1, 1]


def test_a_board_nobody_else_played_counts_as_the_field() -> None:
    table = score([Result("ana", 1, 0, 90), Result("bea", 1, 0, 30), Result("ana", 2, 0, -200)])
    alone = table.lines["ana"][1]
    assert (alone.field_size, alone.field, alone.above, alone.matchpoints) == (0, None, 0.0, 50.0)
    ana = next(s for s in table.standings if s.entrant == "ana")
    assert (ana.boards, ana.total, ana.matchpoints) == (2, 60.0, 75.0)


def test_a_player_who_left_is_scored_on_the_robots_results() -> None:
    results = [
        Result("ana", 1, 0, 50), Result("bea", 1, 0, 10, robot=True),
        Result("ana", 2, 0, 20), Result("bea", 2, 0, 80, robot=True),
    ]  # fmt: skip
    table = score(results)
    bea = next(s for s in table.standings if s.entrant == "bea")
    assert bea.boards == 2 and bea.total == 20.0 and bea.matchpoints == 50.0
    assert all(line.result.robot for line in table.lines["bea"])


def test_directions_are_fields_apart_and_par_is_never_in_the_field() -> None:
    table = score(
        [Result("ana", 1, 0, 100), Result("bea", 1, 0, 0), Result("cai", 1, 1, -500)],
        par={(1, 0): 1000, (1, 1): -10},
    )
    assert table.lines["ana"][0].field == 0.0 and table.lines["ana"][0].par == 1000
    assert table.lines["cai"][0].field is None and table.lines["cai"][0].par == -10


def test_refusals() -> None:
    with pytest.raises(DuplicateError, match="two results on board 1"):
        score([Result("ana", 1, 0, 1), Result("ana", 1, 1, 2)])
    with pytest.raises(DuplicateError, match="method"):
        score([], method="imps")  # type: ignore[arg-type]


boards = st.lists(st.integers(-400, 400), min_size=2, max_size=8)


@given(st.lists(boards, min_size=1, max_size=5))
def test_above_sums_to_zero_and_matchpoints_average_fifty(per_board: list[list[int]]) -> None:
    results = [
        Result(f"p{i}", b + 1, 0, points)
        for b, field in enumerate(per_board)
        for i, points in enumerate(field)
    ]
    table = score(results)
    for b, field in enumerate(per_board):
        lines = [line for own in table.lines.values() for line in own if line.result.board == b + 1]
        assert len(lines) == len(field)
        assert sum(line.above for line in lines) == pytest.approx(0, abs=1e-6)
        assert sum(line.matchpoints for line in lines) / len(lines) == pytest.approx(50)
        best = max(field)
        assert all(line.matchpoints == 100 for line in lines if field.count(best) == 1
                   and line.result.points == best)  # fmt: skip


@given(st.lists(boards, min_size=1, max_size=4), st.randoms())
def test_the_order_of_results_does_not_matter(per_board: list[list[int]], rnd: object) -> None:
    results = [
        Result(f"p{i}", b + 1, 0, points)
        for b, field in enumerate(per_board)
        for i, points in enumerate(field)
    ]
    shuffled = list(results)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert score(shuffled).standings == score(results).standings
