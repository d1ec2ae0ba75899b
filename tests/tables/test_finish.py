"""What the club counts of a finished table (espadas.tables.finish) and the
``rated`` option: places and wins when a side leaves (abandon, a claim after the
turn limit), individual rankings with ties, robots as ``robot-LEVEL``, the
option in the log, the view and rematches, and the same account from the log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from club_helpers import played_table
from espadas.engine import Rules
from espadas.tables.finish import finished_from_log, finished_game
from espadas.tables.table import Table
from espadas.tables.view import table_view

AT = datetime(2026, 5, 1, tzinfo=UTC)


def four(rated: bool = True) -> Table:
    table, _ = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", AT, rated=rated)
    for who in ("luis", "eva"):
        table.join(who, who.title(), AT)
    table.add_robots("ana", "experto", AT)
    table.start("ana", AT)
    return table


def test_rated_by_default_and_said_only_when_off() -> None:
    on, off = four(), four(rated=False)
    assert on.rated and not off.rated
    create_on, create_off = on.events[0].data, off.events[0].data
    assert "rated" not in create_on and create_off["rated"] is False
    assert table_view(on, None)["rated"] is True and table_view(off, "ana")["rated"] is False
    assert Table.rebuild("t1", off.events).rated is False


def test_a_rematch_keeps_the_choice() -> None:
    table = four(rated=False)
    table.act("luis", "abandon", AT)
    again, _ = Table.rematch_from(table, "t2", AT)
    assert again.rated is False


def test_the_side_that_abandons_loses_and_is_last() -> None:
    table = four()
    table.act("luis", "abandon", AT + timedelta(minutes=3))  # Luis sits East: EW lose
    done = finished_game(table)
    assert done.reason == "abandon" and done.kind == "partnership" and done.rated
    assert [(s.subject, s.side, s.place, s.won) for s in done.seats] == [
        ("ana", 0, 1, True),
        ("luis", 1, 2, False),
        ("eva", 0, 1, True),
        ("robot-experto", 1, 2, False),
    ]
    assert done.ranks == [1, 2] and done.finished_at == AT + timedelta(minutes=3)


def test_a_claim_after_the_turn_limit_is_a_loss_for_the_side_that_waited() -> None:
    table = four()  # Luis (East) bids first and does not
    late = AT + timedelta(hours=49)
    table.act("ana", "claim", late)
    done = finished_game(table)
    assert done.reason == "timeout" and done.ranks == [1, 2]
    assert [s.won for s in done.seats] == [True, False, True, False]


def test_individual_places_put_the_leaver_last() -> None:
    rules = Rules.from_preset("estandar", players=5, renege="prevented")
    table, _ = Table.create("t5", rules, "ana", "Ana", AT)
    table.add_robots("ana", "normal", AT)
    table.start("ana", AT)
    table.act("ana", "abandon", AT)
    done = finished_game(table)
    assert done.kind == "individual" and done.players == 5
    # no hand was scored: every other side ties at 0 and shares first place
    assert done.ranks == [5, 1, 1, 1, 1]
    assert [s.subject for s in done.seats] == ["ana"] + ["robot-normal"] * 4
    assert done.seats[0].won is False and done.seats[1].won is True


@pytest.mark.parametrize("seed", [1, 2])
def test_the_log_gives_the_same_account(seed: int) -> None:
    table, log, ended = played_table("p1", ["ana", "bea", "robot:normal", "carla"], seed)
    live = finished_game(table)
    assert finished_from_log("p1", log) == live
    assert finished_from_log("p1", log[:ended]) is None
    assert live.seats[0].stats.hands == len(table.game.scored)  # type: ignore[union-attr]
