"""Duplicate events among people, the domain: the choices checked, the boards of
each round dealt in order at every table, the movements (pairs and individuals),
and the standings per round and overall against hand-computed figures."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.engine import Bid
from espadas.engine.errors import GameOver
from espadas.tables.boards import Boards
from espadas.tables.duplicate import Result
from espadas.tables.table import Table
from espadas.tables.tournament import (
    EventSpec,
    Seating,
    TournamentError,
    deal_boards,
    entrant_name,
    event_of_table,
    make_spec,
    may_join,
    open_table,
    record_results_of,
    round_boards,
    seat_round,
    standings,
    standings_of,
    table_done,
    table_id,
    tournament_dealer,
)

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def test_the_choices_are_checked() -> None:
    spec = make_spec("  Torneo   de martes ", "pagat", {"bags_reset": True}, "allowed", 6, 3)
    assert spec.name == "Torneo de martes" and spec.per_round == 2
    assert spec.rules.renege == "allowed" and spec.rules.bags_reset
    assert spec.rules.target == 1_000_000 and spec.rules.mercy is None
    assert EventSpec.from_dict(spec.to_dict()) == spec
    sala = make_spec("Sala", "sala", {"players": 5}, mode="individual", boards=5)
    assert sala.mode == "individual" and sala.rules.players == 5
    for bad, code in (
        ({"name": ""}, "event_name"),
        ({"name": "x", "boards": 7, "rounds": 2}, "event_boards"),
        ({"name": "x", "boards": 0}, "event_boards"),
        ({"name": "x", "boards": 101}, "event_boards"),
        ({"name": "x", "mode": "individual"}, "event_mode"),
        ({"name": "x", "robot": "maestro"}, "event_robot"),
        ({"name": "x", "days": 0}, "event_days"),
        ({"name": "x", "invited": [" "]}, "event_invited"),
        ({"name": "x", "renege": "sometimes"}, "event_rules"),
        ({"name": "x", "preset": "nope"}, "event_rules"),
        ({"name": "x", "options": {"players": 7}}, "event_rules"),
    ):
        with pytest.raises(TournamentError) as err:
            make_spec(**bad)
        assert err.value.code == code and err.value.status == 422


def test_who_may_join() -> None:
    assert may_join(make_spec("x"), "p1", "Ana")
    listed = make_spec("x", invited=["p9", "Bea", "bea"])
    assert listed.invited == ("p9", "Bea", "bea")
    assert may_join(listed, "p9", "Zoe") and may_join(listed, "p2", "BEA")
    assert not may_join(listed, "p1", "Ana")


def test_event_table_ids() -> None:
    for _ in range(200):  # the random part may hold "-" and "_"
        made = table_id("ev1234567890")
        assert event_of_table(made) == "ev1234567890" and len(made) <= 64
    assert event_of_table("abcdefgh12345678") is None
    assert event_of_table("torneo-x") is None
    assert event_of_table("torneo-ev1234567890-" + "x" * 23) is None


def test_pairs_movement_by_hand() -> None:
    spec = make_spec("x", boards=3, rounds=3)
    people = ["a", "b", "c", "d", "e", "f", "g"]  # pairs ab cd ef g+robot
    one, two, three = (seat_round(spec, people, r) for r in (1, 2, 3))
    assert [s.seats for s in one] == [("a", "e", "b", "f"), ("c", "g", "d", None)]
    assert [s.seats for s in two] == [("g", "a", None, "b"), ("e", "c", "f", "d")]
    assert [s.seats for s in three] == [("a", "e", "b", "f"), ("c", "g", "d", None)]
    assert seat_round(spec, [], 1) == []
    assert [s.seats for s in seat_round(spec, ["a"], 1)] == [("a", None, None, None)]


@given(st.integers(1, 40), st.sampled_from([3, 4, 5, 6]), st.integers(1, 6))
def test_individuals_each_seated_once_a_round(count: int, players: int, round_: int) -> None:
    spec = make_spec("x", "sala", {"players": players}, boards=6, rounds=6)
    people = [f"p{i}" for i in range(count)]
    tables = seat_round(spec, people, round_)
    seated = [p for t in tables for p in t.seats if p is not None]
    assert sorted(seated) == sorted(people)
    assert all(len(t.seats) == players for t in tables)
    assert len(tables) == -(-count // players)  # no table of robots only
    if round_ > 1 and count > 1:  # everybody moves
        before = seat_round(spec, people, round_ - 1)
        place = {p: (t.number, s) for t in before for s, p in enumerate(t.seats) if p}
        now = {p: (t.number, s) for t in tables for s, p in enumerate(t.seats) if p}
        assert all(place[p] != now[p] for p in people)


def _play_out(table: Table, rng: random.Random) -> None:
    assert table.game is not None
    while table.game.phase in ("bidding", "playing"):
        seat = table.game.to_act
        assert seat is not None
        actions = table.game.legal_actions()
        modest = [a for a in actions if isinstance(a, Bid) and a.value in (2, 3, 4)]
        table.robot_move(seat, rng.choice(modest or actions), T0)


def _play_round(
    spec: EventSpec, boards_: Boards, seating: Seating, seed: int
) -> tuple[Table, list[list[int]]]:
    names = {p: p.upper() for p in seating.seats if p}
    table, _ = open_table(
        table_id("ev1234567890"), spec, seating, names, ("org", "Org"), boards_, T0
    )
    rng = random.Random(seed)
    deals = []
    dealer = tournament_dealer(spec, boards_, seating.round, table)
    for i in range(spec.per_round):
        assert table.game is not None
        deals.append(list(table.game.hands[i].deal))
        _play_out(table, rng)
        if i + 1 < spec.per_round:
            table.act(seating.seats[1] or "org", "next_hand", T0, dealer=dealer)
    return table, deals


def test_every_table_of_a_round_plays_the_same_boards() -> None:
    spec = make_spec("x", boards=4, rounds=2, robot="aleatorio")
    boards_ = deal_boards(spec)
    people = ["a", "b", "c", "d", "e", "f", "g", "h"]
    played = {}
    for round_ in (1, 2):
        for seating in seat_round(spec, people, round_):
            table, deals = _play_round(spec, boards_, seating, seating.number * 10 + round_)
            expected = [list(b.deal) for b in round_boards(spec, boards_, round_).boards]
            assert deals == expected
            assert table.creator == "org" and table.seat_of("org") is None
            assert table_done(spec, table)
            # the round's last board ends the table's game: nothing more is offered
            assert table.status == "finished" and table.game is not None
            assert table.game.result is not None and table.game.result.reason == "boards"
            with pytest.raises(GameOver):
                table.act(
                    seating.seats[1] or "org",
                    "next_hand",
                    T0,
                    dealer=tournament_dealer(spec, boards_, round_, table),
                )
            played[(round_, seating.number)] = table.record()
    result = standings(spec, [(r, rec) for (r, _n), rec in played.items()])
    overall = result.overall
    assert sorted(s.entrant for s in overall.standings) == ["A & B", "C & D", "E & F", "G & H"]
    # each pair played all 4 boards; per round two pairs per direction compared
    assert all(s.boards == 4 for s in overall.standings)
    assert all(s.boards == 2 for s in result.rounds[1].standings)
    for line in overall.lines["A & B"]:
        assert line.field_size == 1


def test_robots_are_not_ranked_and_the_record_names_the_entrants() -> None:
    spec = make_spec("x", boards=1, robot="aleatorio")
    boards_ = deal_boards(spec)
    seating = seat_round(spec, ["a", "b", "c"], 1)[0]
    assert seating.seats == ("a", "c", "b", None)
    table, _ = _play_round(spec, boards_, seating, 3)
    record = table.record()
    assert record["players"] == ["A", "C", "B", "robot:aleatorio"]
    assert entrant_name(spec, record["players"], 1) == "C & robot:aleatorio"
    results = record_results_of(spec, 1, record)
    assert sorted(r.entrant for r in results) == ["A & B", "C & robot:aleatorio"]
    lonely = make_spec("x", "sala", {"players": 3}, boards=1, robot="aleatorio")
    seating = seat_round(lonely, ["a"], 1)[0]
    table, _ = _play_round(lonely, deal_boards(lonely), seating, 4)
    assert [r.entrant for r in record_results_of(lonely, 1, table.record())] == ["A"]


def test_standings_by_hand() -> None:
    """Two rounds of one board each, four pairs (two tables a round).

    Round 1, board 1: NS  P1 +120, P3 +80   EW  P2 -120, P4 -80
    Round 2, board 2: NS  P2 +60,  P4 +60   EW  P1 -60,  P3 -60 (all tied)
    Matchpoints of round 1: P1 100, P3 0, P2 0, P4 100 (EW: -80 beats -120);
    above the field: P1 +40, P3 -40, P2 -40, P4 +40. Round 2: 50 each, 0 above.
    Overall: P1 and P4 75 mp / +40, P2 and P3 25 mp / -40."""
    spec = make_spec("x", boards=2, rounds=2)
    results = [
        Result("P1", 1, 0, 120),
        Result("P3", 1, 0, 80),
        Result("P2", 1, 1, -120),
        Result("P4", 1, 1, -80),
        Result("P2", 2, 0, 60),
        Result("P4", 2, 0, 60),
        Result("P1", 2, 1, -60),
        Result("P3", 2, 1, -60),
    ]
    got = standings_of(spec, results)
    first = [(s.rank, s.entrant, s.matchpoints, s.total) for s in got.rounds[1].standings]
    assert first == [
        (1, "P1", 100.0, 40.0),
        (1, "P4", 100.0, 40.0),
        (3, "P2", 0.0, -40.0),
        (3, "P3", 0.0, -40.0),
    ]
    assert {s.matchpoints for s in got.rounds[2].standings} == {50.0}
    assert {s.total for s in got.rounds[2].standings} == {0.0}
    overall = [(s.rank, s.entrant, s.matchpoints, s.total) for s in got.overall.standings]
    assert overall == [
        (1, "P1", 75.0, 40.0),
        (1, "P4", 75.0, 40.0),
        (3, "P2", 25.0, -40.0),
        (3, "P3", 25.0, -40.0),
    ]


def test_a_board_nobody_else_played() -> None:
    """One table only: nobody to compare with, 50 matchpoints and 0 above."""
    spec = make_spec("x", boards=1)
    got = standings_of(spec, [Result("P1", 1, 0, 200), Result("P2", 1, 1, -50)])
    assert [(s.matchpoints, s.total) for s in got.overall.standings] == [(50.0, 0.0)] * 2


def test_live_standings_count_a_board_once_every_table_played_it() -> None:
    spec = make_spec("x", boards=2, robot="aleatorio")
    boards_ = deal_boards(spec)
    one, two = seat_round(spec, ["a", "b", "c", "d", "e", "f", "g", "h"], 1)
    first, _ = _play_round(spec, boards_, one, 1)  # both boards
    names = {p: p.upper() for p in two.seats if p}
    second, _ = open_table(table_id("ev1234567890"), spec, two, names, ("o", "O"), boards_, T0)
    _play_out(second, random.Random(2))  # board 1 only
    records = [(1, first.record()), (1, second.record())]
    live = standings(spec, records, final=False)
    assert {line.result.board for lines in live.overall.lines.values() for line in lines} == {1}
    whole = standings(spec, records, final=True)
    assert len(whole.overall.lines["A & B"]) == 2
    assert standings(spec, [(1, first.record())], final=False).overall.standings != []
