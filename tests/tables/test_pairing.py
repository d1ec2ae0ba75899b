"""Quick pairing: whatever waits, tables are of the right size, nobody sits twice,
nobody sits with someone they blocked (or who blocked them), ratings are within
everyone's range, and the ranges widen with the wait."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from espadas.tables.pairing import (
    RANGE_MAX,
    RANGE_START,
    Waiting,
    compatible,
    fill,
    pair,
    rating_range,
)

IDS = [f"p{i}" for i in range(14)]


@st.composite
def queues(draw: st.DrawFn) -> list[Waiting]:
    ids = draw(st.lists(st.sampled_from(IDS), max_size=14))  # repeats: one person twice
    people = []
    for person in ids:
        blocks = draw(st.frozensets(st.sampled_from(IDS), max_size=3))
        people.append(
            Waiting(
                person,
                draw(st.integers(800, 2600)),
                draw(st.floats(0, 60)),
                blocks,
                draw(st.sampled_from([1.0, 20.0, 60.0])),
            )
        )
    return people


def _checked(
    tables: list[tuple[Waiting, ...]], people: list[Waiting], size: int, full: bool
) -> set[str]:
    seated: list[str] = [p.id for t in tables for p in t]
    assert len(seated) == len(set(seated)), "a person at two tables"
    assert set(seated) <= {p.id for p in people}
    for table in tables:
        assert (len(table) == size) if full else (1 <= len(table) <= size)
        for a in table:
            for b in table:
                if a is not b:
                    assert b.id not in a.blocks, (a, b)
    return set(seated)


@given(queues(), st.sampled_from([3, 4, 5, 6]), st.floats(60, 120))
def test_tables_are_full_and_seat_nobody_twice_nor_beside_a_block(
    people: list[Waiting], size: int, now: float
) -> None:
    tables = pair(people, size, now)
    _checked(tables, people, size, full=True)
    for table in tables:
        for a in table:
            for b in table:
                if a is not b:
                    assert compatible(a, b, now)


@given(queues(), st.sampled_from([3, 4, 5, 6]), st.floats(60, 120))
def test_after_pairing_robots_fill_only_those_who_waited_their_wait(
    people: list[Waiting], size: int, now: float
) -> None:
    paired = _checked(pair(people, size, now), people, size, full=True)
    left = [p for p in people if p.id not in paired]
    filled = fill(left, size, now)
    seated = _checked(filled, left, size, full=False)
    for table in filled:
        assert now - min(p.since for p in table) >= min(p.wait for p in table)
    earliest = {p.id: min(q.since for q in people if q.id == p.id) for p in left}
    for person in left:  # whoever waited long enough is seated
        wait = next(q.wait for q in people if q.id == person.id and q.since == earliest[person.id])
        if now - earliest[person.id] >= wait:
            assert person.id in seated


@given(st.integers(1, 30), st.sampled_from([3, 4, 5, 6]), st.integers(1000, 2000))
def test_people_alike_without_blocks_fill_every_table_they_can(
    count: int, size: int, rating: int
) -> None:
    people = [Waiting(f"p{i}", rating + i % 7, float(i % 5)) for i in range(count)]
    tables = pair(people, size, 10.0)
    assert len(tables) == count // size


@given(st.floats(0, 3600), st.floats(0, 3600))
def test_the_range_widens_with_the_wait_up_to_its_cap(a: float, b: float) -> None:
    low, high = sorted((a, b))
    assert RANGE_START <= rating_range(low) <= rating_range(high) <= RANGE_MAX


def test_nearest_ratings_sit_together() -> None:
    people = [
        Waiting("a", 1500, 0.0),
        Waiting("b", 1900, 0.0),
        Waiting("c", 1510, 0.0),
        Waiting("d", 1890, 0.0),
    ]
    tables = pair(people, 2, 30.0)  # after 30 s everyone accepts 900 points
    assert sorted(sorted(p.id for p in t) for t in tables) == [["a", "c"], ["b", "d"]]


def test_a_new_arrival_far_away_waits_until_the_range_reaches() -> None:
    people = [Waiting("a", 1500, 0.0), Waiting("b", 1800, 0.0)]
    assert pair(people, 2, 0.0) == []  # 300 apart, 150 accepted at once
    assert len(pair(people, 2, 6.0)) == 1  # 150 + 6 * 25 = 300


def test_one_who_blocked_is_never_seated_even_by_robots_fill() -> None:
    people = [Waiting("a", 1500, 0.0, frozenset({"b"})), Waiting("b", 1500, 0.0)]
    assert pair(people, 2, 100.0) == []
    filled = fill(people, 4, 100.0)
    assert sorted(len(t) for t in filled) == [1, 1]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(IDS),
            st.one_of(st.none(), st.floats(0, 1)),
            st.sampled_from([0.0, 0.5, 0.9, 1.0]),
        ),
        max_size=14,
    ),
    st.sampled_from([3, 4, 6]),
    st.floats(0, 120),
)
def test_nobody_sits_beside_a_completion_rate_they_refused(
    asked: list[tuple[str, float | None, float]], size: int, now: float
) -> None:
    people = [Waiting(p, 1500, 0.0, completion=c, min_completion=m) for p, c, m in asked]
    for table in pair(people, size, now) + fill(people, size, now):
        for a in table:
            for b in table:
                if a is not b and b.completion is not None:
                    assert b.completion >= a.min_completion, (a, b)
