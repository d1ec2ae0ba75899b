"""The daily challenge's tables: board i dealt as hand i (its commitment the
board's), no deal past the last board, results equal to duplicate scoring's reading
of the record, leaving hands the seat to the robot, and the days."""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.engine import Bid
from espadas.engine.errors import GameOver
from espadas.tables.boards import Boards, boards_json, fresh_boards
from espadas.tables.challenge import (
    SEAT,
    ChallengeOver,
    board_dealer,
    boards_from_json,
    boards_played,
    challenge_rules,
    challenge_table_id,
    day_of,
    day_window,
    finished_results,
    leave,
    table_day,
)
from espadas.tables.commitment import commit, deal_text
from espadas.tables.duplicate import Result, record_results, score
from espadas.tables.finish import finished_from_log
from espadas.tables.table import Table

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _challenge_table(count: int = 3) -> tuple[Table, Boards]:
    boards = fresh_boards(challenge_rules(), count)
    table, _ = Table.create(
        "reto-test-table", boards.rules, "ana", "Ana", T0, rated=False, boards=count
    )
    table.add_robots("ana", "normal", T0)
    table.start("ana", T0, dealer=board_dealer(boards, table))
    return table, boards


def _play_hand(table: Table, rng: random.Random) -> None:
    """Every seat plays random legal moves until the hand ends."""
    assert table.game is not None
    while table.game.phase in ("bidding", "playing"):
        seat = table.game.to_act
        assert seat is not None
        actions = table.game.legal_actions()
        modest = [a for a in actions if isinstance(a, Bid) and a.value in (2, 3, 4)]
        table.robot_move(seat, rng.choice(modest or actions), T0)


def test_board_i_is_hand_i_and_nothing_past_the_last() -> None:
    table, boards = _challenge_table(3)
    rng = random.Random(4)
    dealer = board_dealer(boards, table)
    for i in range(3):
        assert table.game is not None
        assert len(table.game.hands) == i + 1
        board = boards.boards[i]
        hand = table.game.hands[i]
        assert tuple(hand.deal) == board.deal and hand.dealer == board.dealer
        assert table.deals[i].commitment == board.commitment
        assert table.deals[i].commitment == commit(deal_text(board.deal), board.salt)
        _play_hand(table, rng)
        if i < 2:
            table.act("ana", "next_hand", T0, dealer=dealer)
    assert boards_played(table) == 3
    # the game ends with the last board: no next hand, the side ahead wins
    assert table.status == "finished" and table.game is not None
    result = table.game.result
    assert result is not None and result.reason == "boards" and result.loser is None
    scores = table.game.scores
    assert scores[result.winner] == max(scores)
    assert result.winner == min(s for s, v in enumerate(scores) if v == max(scores))
    with pytest.raises(GameOver):
        table.act("ana", "next_hand", T0, dealer=dealer)
    table.act("ana", "confirm_end", T0)
    assert table.game.phase == "game_over"
    # the log replays to the same end; the club does not count it (counted apart)
    again = Table.rebuild(table.id, table.events)
    assert again.status == "finished" and again.game is not None
    assert again.game.result == result and again.game.phase == "game_over"
    assert finished_from_log(table.id, table.events) is None
    # the record stays a plain record: every board, verifiable, no end of its own
    record = table.record()
    assert len(record["hands"]) == 3 and "end" not in record


def test_a_dealer_past_the_last_board_refuses() -> None:
    boards = fresh_boards(challenge_rules(), 1)
    table, _ = Table.create("reto-test-table", boards.rules, "ana", "Ana", T0)  # no limit
    table.add_robots("ana", "normal", T0)
    dealer = board_dealer(boards, table)
    table.start("ana", T0, dealer=dealer)
    _play_hand(table, random.Random(2))
    assert table.status == "playing"
    with pytest.raises(ChallengeOver):
        table.act("ana", "next_hand", T0, dealer=dealer)


def test_results_equal_duplicate_scorings_reading_of_the_record() -> None:
    table, boards = _challenge_table(3)
    rng = random.Random(9)
    dealer = board_dealer(boards, table)
    for i in range(3):
        _play_hand(table, rng)
        assert finished_results(table) == [
            (p.board, p.points) for p in record_results(table.record(), SEAT)
        ]
        if i < 2:
            table.act("ana", "next_hand", T0, dealer=dealer)
    assert [b for b, _ in finished_results(table, first=2)] == [2, 3]
    assert len(finished_results(table)) == 3


def test_a_wrong_dealer_is_refused() -> None:
    boards = fresh_boards(challenge_rules(), 2)
    table, _ = Table.create("reto-x-table", boards.rules, "ana", "Ana", T0)
    deal = board_dealer(boards, table)
    with pytest.raises(Exception, match="dealt by seat"):
        deal(boards.rules, 3)


def test_leaving_hands_the_seat_to_the_robot_mid_hand_only() -> None:
    table, _ = _challenge_table(2)
    assert table.seat_of("ana") == SEAT
    events = leave(table, "normal", T0)
    assert [e.type for e in events] == ["robot"]
    assert table.seat_of("ana") is None
    seat = table.seats[SEAT]
    assert seat is not None and seat.robot == "normal"
    assert leave(table, "normal", T0) == []  # already the robot's
    rebuilt = Table.rebuild(table.id, table.events)
    assert rebuilt.seats[SEAT] == seat
    # between hands nothing is added
    table2, _ = _challenge_table(2)
    _play_hand(table2, random.Random(1))
    assert leave(table2, "normal", T0) == []


def test_boards_file_round_trip() -> None:
    boards = fresh_boards(challenge_rules(), 4)
    again = boards_from_json(boards_json(boards, reveal=True))
    assert again == boards and again.commitment == boards.commitment


def test_challenge_rules() -> None:
    rules = challenge_rules()
    assert rules.renege == "prevented" and rules.first_dealer == "creator"
    assert rules.mercy is None and rules.target >= 100_000


def test_table_ids_name_their_day() -> None:
    a, b = challenge_table_id("2026-12-01"), challenge_table_id("2026-12-01")
    assert a != b and len(a) <= 64
    assert table_day(a) == "2026-12-01"
    assert table_day("reto-2026-bad") is None
    assert table_day("x" * 32) is None


@given(
    st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)),
    st.integers(0, 23),
    st.integers(0, 59),
)
def test_every_instant_lies_in_its_days_window(at: datetime, hour: int, minute: int) -> None:
    at = at.replace(tzinfo=UTC)
    start = time(hour, minute)
    opens, closes = day_window(day_of(at, start), start)
    assert opens <= at < closes and closes - opens == timedelta(days=1)


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(1, 4), st.integers(-30, 30)), max_size=80)
)
def test_a_days_field_scores_as_summing_the_others_one_by_one(
    rows: list[tuple[int, int, int]],
) -> None:
    """The leaderboard's scoring (a board's results sorted once) gives exactly the
    figures of the definition: each result against the mean of all the others and
    the share of them it beats."""
    seen = {(e, b): p * 10 for e, b, p in rows}
    results = [Result(f"e{e}", b, SEAT, p) for (e, b), p in seen.items()]
    table = score(results)
    for name, lines in table.lines.items():
        for line in lines:
            field = [
                r.points for r in results if r.board == line.result.board and r.entrant != name
            ]
            assert line.field_size == len(field)
            if not field:
                assert (line.field, line.above, line.matchpoints) == (None, 0.0, 50.0)
                continue
            mean = sum(field) / len(field)
            beaten = sum(
                1.0 if line.result.points > p else 0.5 if line.result.points == p else 0.0
                for p in field
            )
            assert line.field == mean and line.above == line.result.points - mean
            assert line.matchpoints == 100 * beaten / len(field)
