"""An absent person's turn (:mod:`espadas.tables.absent`): the table's ``absent``
option, claims refused at a ``robot`` table, replacing the person by a robot (who
may, when, which robot), what the views and notices say afterwards, and whole
games in which people are replaced at random moments (the scores so far never
change, the game finishes with the robots playing on).

The pure domain: fixed times, seeded dealers and robots, no server."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from espadas.engine import Rules
from espadas.engine.deal import deal_cards
from espadas.robots.registry import make_robot
from espadas.tables.absent import (
    ABSENT,
    absent_option,
    replace,
    replace_open_at,
    robot_level,
)
from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.finish import finished_game
from espadas.tables.notice import plan, replaced, still_due
from espadas.tables.table import Dealer, Table
from espadas.tables.view import action_json, table_view

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LIMIT = timedelta(hours=48)
PEOPLE = {"ana": "Ana", "luis": "Luis", "eva": "Eva", "juan": "Juan"}


def seeded(seed: int) -> Dealer:
    rng = random.Random(seed)

    def dealer(rules: Rules, seat: int) -> tuple[tuple[int, ...], str]:
        return tuple(deal_cards(rules, rng, seat)), f"{rng.getrandbits(128):032x}"

    return dealer


def table_of(
    absent: str = "robot",
    people: tuple[str, ...] = ("luis", "eva", "juan"),
    robot: str | None = None,
    preset: str = "estandar",
    seed: int = 1,
    **options: object,
) -> Table:
    """Ana's table, started: ``people`` after her, ``robot`` in the empty seats.
    Ana (seat 0) deals first, so Luis (seat 1) is to bid."""
    rules = Rules.from_preset(preset, first_dealer="creator", **options)
    table, _ = Table.create("t1", rules, "ana", "Ana", T0, absent=absent)
    for player in people:
        table.join(player, PEOPLE[player], T0)
    if robot is not None:
        table.add_robots("ana", robot, T0)
    table.start("ana", T0, dealer=seeded(seed))
    return table


def refused(code: str, call: object, *args: object, **kwargs: object) -> None:
    assert callable(call)
    with pytest.raises(TableError) as err:
        call(*args, **kwargs)
    assert err.value.code == code, err.value.code


# -- the option ----------------------------------------------------------------------


def test_the_option_is_in_the_create_event_only_when_robot() -> None:
    rules = Rules.from_preset("estandar")
    plain, events = Table.create("t1", rules, "ana", "Ana", T0)
    assert "absent" not in events[0].data and plain.absent == "claim"
    robot, events = Table.create("t2", rules, "ana", "Ana", T0, absent="robot")
    assert events[0].data["absent"] == "robot"
    assert Table.rebuild("t2", events).absent == "robot"
    with pytest.raises(BadCommand) as err:
        Table.create("t3", rules, "ana", "Ana", T0, absent="forfeit")
    assert err.value.code == "bad_absent"
    assert ABSENT == ("claim", "robot") and absent_option("claim") == "claim"
    assert table_view(robot, None)["absent"] == "robot"
    assert table_view(plain, None)["absent"] == "claim"


def test_a_rematch_keeps_the_option() -> None:
    table = table_of(people=(), robot="normal")
    table.act("ana", "abandon", T0)
    rematch, events = Table.rematch_from(table, "t1-2", T0)
    assert rematch.absent == "robot" and events[0].data["absent"] == "robot"


def test_a_rematch_after_a_replacement_seats_the_robot_and_keeps_rated() -> None:
    table = table_of()
    replace(table, "ana", T0 + LIMIT, "normal", LIMIT)
    table.act("ana", "abandon", T0 + LIMIT)
    assert finished_game(table).rated is False  # a replaced seat: not rated
    rematch, _ = Table.rematch_from(table, "t1-2", T0 + LIMIT)
    assert rematch.rated is True and rematch.replaced == []
    assert rematch.seats[1] is not None and rematch.seats[1].robot == "normal"
    assert rematch.seat_of("luis") is None


# -- refusals ------------------------------------------------------------------------


def test_who_may_replace_and_when() -> None:
    table = table_of()  # Luis (E, seat 1) to bid; his partner is Juan (W, seat 3)
    late = T0 + LIMIT
    before = [(s.name if s else None) for s in table.seats], table.version
    refused("replace_early", replace, table, "ana", late - timedelta(seconds=1), None, LIMIT)
    refused("replace_own", replace, table, "juan", late, None, LIMIT)
    with pytest.raises(NotAllowed) as err:
        replace(table, "stranger", late, None, LIMIT)
    assert err.value.code == "not_seated"
    refused("bad_robot", replace, table, "eva", late, "maestro", LIMIT)
    refused("bad_robot", replace, table, "eva", late, 3, LIMIT)
    refused("claim_robot", table.act, "eva", "claim", late + timedelta(days=9))
    assert ([(s.name if s else None) for s in table.seats], table.version) == before
    # the views: the creator and the other side may, Luis's side may not
    assert table_view(table, "ana")["replace_at"] == late.isoformat()
    assert table_view(table, "eva")["replace_at"] == late.isoformat()
    for nobody in ("juan", "luis", None, "stranger"):
        assert table_view(table, nobody)["replace_at"] is None
        assert replace_open_at(table, nobody, LIMIT) is None
    for anyone in ("ana", "eva", "juan", None):
        assert table_view(table, anyone)["claim_at"] is None  # no claims here


def test_a_claim_table_refuses_replacing_and_its_claims_are_unchanged() -> None:
    table = table_of(absent="claim")
    refused("replace_off", replace, table, "ana", T0 + timedelta(days=9), None, LIMIT)
    assert table_view(table, "ana")["replace_at"] is None
    assert table_view(table, "ana")["claim_at"] == (T0 + LIMIT).isoformat()
    assert [e.type for e in table.act("eva", "claim", T0 + LIMIT)] == ["claim"]


def test_nobody_to_replace_before_the_start_or_while_a_robot_plays() -> None:
    rules = Rules.from_preset("estandar")
    waiting, _ = Table.create("t1", rules, "ana", "Ana", T0, absent="robot")
    refused("no_replace", replace, waiting, "ana", T0 + timedelta(days=9))
    table = table_of(people=("luis",), robot="normal")
    table.act("luis", "bid", T0, value=3)
    assert table.robot_to_act == 2
    refused("no_replace", replace, table, "ana", T0 + timedelta(days=9))


def test_the_creator_may_replace_their_own_partner() -> None:
    table = table_of()
    table.act("luis", "bid", T0, value=3)  # now Eva (S, Ana's partner) is to bid
    assert table.game is not None and table.game.to_act == 2
    assert table_view(table, "ana")["replace_at"] == (T0 + LIMIT).isoformat()
    events = replace(table, "ana", T0 + LIMIT, "normal", LIMIT)
    assert [(e.type, e.data) for e in events] == [
        ("replace", {"by": "ana", "seat": 2, "level": "normal", "player": "eva"})
    ]


# -- the replacement -----------------------------------------------------------------


def test_replacing_seats_a_robot_and_play_goes_on() -> None:
    table = table_of()
    late = T0 + LIMIT + timedelta(hours=3)
    game = table.game
    assert game is not None
    scores, hands = list(game.scores), len(game.scored)
    [event] = replace(table, "eva", late, None, LIMIT)
    assert event.data == {"by": "eva", "seat": 1, "level": "experto", "player": "luis"}
    assert table.seats[1] is not None and table.seats[1].robot == "experto"
    assert table.robot_to_act == 1 and table.replaced == [1]
    assert (list(game.scores), len(game.scored)) == (scores, hands)
    # a new turn, the robot's: the turn limit restarts, nobody may replace it
    assert (table.turn_since, table.turn_version) == (late, event.seq)
    assert table_view(table, "ana")["replace_at"] is None
    refused("no_replace", replace, table, "ana", late + timedelta(days=9), None, LIMIT)
    # Luis watches now, and may not sit down again
    seen = table_view(table, "luis")
    assert seen["you"] is None and seen["game"]["hand"] is None
    assert seen["seats"][1]["robot"] == "experto" and seen["replaced"] == [1]
    assert table.join("luis", "Luis", late) == []
    with pytest.raises(NotAllowed):
        table.act("luis", "bid", late, value=3)
    # the log gives the same table
    again = Table.rebuild("t1", table.events)
    assert again.seats == table.seats and again.replaced == [1]
    assert again.game is not None and again.game.to_act == 1


def test_the_replacement_robot_is_the_tables_robot_level() -> None:
    table = table_of(people=("luis",), robot="aleatorio")
    assert robot_level(table) == "aleatorio"
    [event] = replace(table, "ana", T0 + LIMIT)
    assert event.data["level"] == "aleatorio"


def test_the_creator_is_told_when_their_own_partner_may_be_replaced() -> None:
    table = table_of()
    table.act("luis", "bid", T0, value=3)  # Eva, Ana's partner, is to bid
    told = sorted(n.player for n in plan(table, LIMIT) if n.kind == "claimable")
    assert told == ["ana", "juan", "luis"]
    plain = table_of(absent="claim")
    plain.act("luis", "bid", T0, value=3)
    assert sorted(n.player for n in plan(plain, LIMIT) if n.kind == "claimable") == [
        "juan",
        "luis",
    ]


def test_the_notices_of_a_replacement() -> None:
    table = table_of()
    before = plan(table, LIMIT)
    assert {n.kind for n in before} == {"turn", "reminder_half", "reminder_90", "claimable"}
    events = replace(table, "ana", T0 + LIMIT, None, LIMIT)
    assert plan(table, LIMIT) == []  # a robot is to act: nobody is told
    assert not any(still_due(table, n) for n in before)  # Luis's notices stop
    [told] = replaced(table, events)
    assert (told.player, told.kind, told.due_at) == ("luis", "replaced", T0 + LIMIT)
    assert still_due(table, told)
    assert replaced(table, table.events[:-1]) == []


# -- whole games ---------------------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    moments=st.lists(st.integers(0, 120), max_size=4),
)
def test_replacing_never_changes_the_scores_and_the_game_finishes(
    seed: int, moments: list[int]
) -> None:
    table = table_of(seed=seed, renege="prevented")  # mercy ends random games soon
    robots = [make_robot("aleatorio", seed + seat) for seat in range(4)]
    dealer = seeded(seed + 1)
    at = T0
    step = 0
    game = table.game
    assert game is not None
    while table.status != "finished":
        step += 1
        assert step < 5_000, "the game does not finish"
        at += timedelta(seconds=1)
        if game.phase == "hand_end":
            table.act_seat(game.hand.dealer, "next_hand", at, dealer=dealer)
            continue
        seat = game.to_act
        assert seat is not None
        occupant = table.seats[seat]
        assert occupant is not None
        if step in moments and occupant.player is not None:
            at += LIMIT
            others = [o.player for i, o in enumerate(table.seats) if i % 2 != seat % 2 and o]
            by = "ana" if seat != 0 else next((p for p in others if p is not None), None)
            if by is None:
                continue  # nobody left on the other side to do it
            scores, scored = list(game.scores), list(game.scored)
            replace(table, by, at, "aleatorio", LIMIT)
            assert (list(game.scores), list(game.scored)) == (scores, scored)
            assert table.robot_to_act == seat
            continue
        action = robots[seat].act(game.view_for(seat))
        if occupant.robot is not None:
            table.robot_move(seat, action, at)
        else:
            move = action_json(action)
            assert occupant.player is not None
            table.act(occupant.player, move["type"], at, value=move.get("value"))
    done = finished_game(table)
    assert done.rated == (not table.replaced)
    for seat in table.replaced:
        assert done.seats[seat].subject == "robot-aleatorio"
    again = Table.rebuild("t1", table.events)
    assert again.game is not None and again.game.scores == game.scores
    assert again.replaced == table.replaced
