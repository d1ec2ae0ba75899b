"""An absent entrant at an event's table (the event's ``absent`` option and
:mod:`espadas.tables.absent`): the option chosen and stored, the tables opened
with it, the organiser (not seated, not the pseudo-creator) and the other side
allowed to replace after the limit, nobody else, the notices and views that say
so, and a round that finishes though one entrant never plays.

The pure domain: fixed times, no server."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from espadas.engine import Bid
from espadas.tables.absent import replace, replace_open_at, replacer
from espadas.tables.errors import NotAllowed, TableError
from espadas.tables.notice import plan
from espadas.tables.table import Table
from espadas.tables.tournament import (
    EventSpec,
    Seating,
    TournamentError,
    deal_boards,
    make_spec,
    open_table,
    record_results_of,
    seat_entrants,
    standings,
    table_done,
    table_id,
    tournament_dealer,
)
from espadas.tables.view import ViewText, table_view

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
LIMIT = timedelta(hours=2)
PSEUDO = ("torneo:ev1234567890", "Martes")
SEATS = ("a", "b", "c", "d")  # pairs a & c (North-South), b & d (East-West)


def event_table(absent: str = "robot", boards: int = 2, organiser: str | None = "org") -> Table:
    spec = make_spec("Martes", boards=boards, robot="aleatorio", absent=absent)
    names = {p: p.upper() for p in SEATS}
    table, _ = open_table(
        table_id("ev1234567890"), spec, Seating(1, 1, SEATS), names, PSEUDO,
        deal_boards(spec), T0, organiser,
    )  # fmt: skip
    return table


def test_the_option_is_chosen_stored_and_checked() -> None:
    assert make_spec("x").absent == "robot"  # an event must not stop for one person
    claim = make_spec("x", absent="claim")
    assert claim.absent == "claim" and EventSpec.from_dict(claim.to_dict()) == claim
    stored_before = {k: v for k, v in make_spec("x").to_dict().items() if k != "absent"}
    assert EventSpec.from_dict(stored_before).absent == "claim"  # what its tables do
    with pytest.raises(TournamentError) as err:
        make_spec("x", absent="forfeit")
    assert err.value.code == "event_absent" and err.value.status == 422


def test_the_tables_are_opened_with_the_option_and_the_organiser() -> None:
    table = event_table()
    assert (table.absent, table.organiser, table.creator) == ("robot", "org", PSEUDO[0])
    assert replacer(table) == "org" and table.seat_of("org") is None
    create = table.events[0]
    assert create.data["absent"] == "robot" and create.data["organiser"] == "org"
    again = Table.rebuild(table.id, table.events)
    assert (again.absent, again.organiser) == ("robot", "org")
    plain = event_table("claim", organiser=None)
    assert (plain.absent, plain.organiser, replacer(plain)) == ("claim", None, PSEUDO[0])
    assert "absent" not in plain.events[0].data and "organiser" not in plain.events[0].data
    assert plain.spare_robot == "aleatorio"  # every table of the event replaces alike


def test_who_may_replace_and_when() -> None:
    table = event_table()
    assert table.game is not None and table.game.to_act == 1  # b bids first
    opens = T0 + LIMIT
    assert replace_open_at(table, "org", LIMIT) == opens
    assert replace_open_at(table, "a", LIMIT) == opens  # the other side
    assert replace_open_at(table, "c", LIMIT) == opens
    for nobody in ("d", PSEUDO[0], "zoe", None):  # b's partner, the pseudo-player, a stranger
        assert replace_open_at(table, nobody, LIMIT) is None
    with pytest.raises(TableError) as early:
        replace(table, "org", opens - timedelta(seconds=1), None, LIMIT)
    assert early.value.code == "replace_early"
    with pytest.raises(TableError) as own:
        replace(table, "d", opens, None, LIMIT)
    assert own.value.code == "replace_own"
    for stranger in (PSEUDO[0], "zoe"):
        with pytest.raises(NotAllowed) as refused:
            replace(table, stranger, opens, None, LIMIT)
        assert refused.value.code == "not_seated"
    [event] = replace(table, "org", opens, None, LIMIT)
    assert event.data == {"by": "org", "seat": 1, "level": "aleatorio", "player": "b"}
    assert table.replaced == [1] and table.robot_to_act == 1 and table.seat_of("b") is None


def test_a_seated_opponent_replaces_as_at_an_ordinary_table() -> None:
    table = event_table()
    [event] = replace(table, "c", T0 + LIMIT, "normal", LIMIT)
    assert (event.data["by"], event.data["level"]) == ("c", "normal")


def test_a_claim_event_table_claims() -> None:
    table = event_table("claim")
    assert replace_open_at(table, "org", LIMIT) is None
    with pytest.raises(TableError) as off:
        replace(table, "org", T0 + LIMIT, None, LIMIT)
    assert off.value.code == "replace_off"
    spec = make_spec("Martes", boards=2, absent="claim")
    assert not table_done(spec, table)
    assert [e.type for e in table.act("a", "claim", T0 + LIMIT, turn_limit=LIMIT)] == ["claim"]
    assert table_done(spec, table)  # the game is over: its round does not wait for it


def test_the_organiser_is_told_and_sees_when() -> None:
    table = event_table()
    told = {(n.player, n.kind) for n in plan(table, LIMIT)}
    assert ("org", "claimable") in told and ("a", "claimable") in told
    assert not any(n.player == PSEUDO[0] for n in plan(table, LIMIT))
    assert ("org", "claimable") not in {
        (n.player, n.kind) for n in plan(event_table("claim"), LIMIT)
    }
    view = table_view(table, "org", turn_limit=LIMIT)
    assert view["replace_at"] == (T0 + LIMIT).isoformat() and view["you"] is None
    assert view["game"]["hand"] is None  # the organiser sees no card
    text = ViewText(table)
    assert json.loads(text.of(table, "zoe", LIMIT))["replace_at"] is None  # a spectator
    assert json.loads(text.of(table, "org", LIMIT))["replace_at"] == view["replace_at"]


def _robot_moves(table: Table, rng: random.Random, at: datetime) -> None:
    """Every robot's and present person's move until the table waits for ``b``
    (a person never playing) or the board is over."""
    assert table.game is not None
    while table.game.phase in ("bidding", "playing"):
        seat = table.game.to_act
        assert seat is not None
        occupant = table.seats[seat]
        if occupant is not None and occupant.player == "b":
            return
        actions = table.game.legal_actions()
        modest = [a for a in actions if isinstance(a, Bid) and a.value in (2, 3, 4)]
        table.robot_move(seat, rng.choice(modest or actions), at)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["org", "a", "c"]))
def test_a_round_finishes_though_an_entrant_never_plays(seed: int, who: str) -> None:
    spec = make_spec("Martes", boards=2, robot="aleatorio")
    table = event_table(boards=2)
    boards_ = deal_boards(spec)
    dealer = tournament_dealer(spec, boards_, 1, table)
    rng = random.Random(seed)
    at = T0
    for board in range(spec.per_round):
        _robot_moves(table, rng, at)
        assert table.game is not None
        if table.game.phase in ("bidding", "playing"):  # waits for b
            scores = list(table.game.scores)
            at = at + LIMIT
            replace(table, who, at, None, LIMIT)
            assert list(table.game.scores) == scores  # the scores so far are kept
            _robot_moves(table, rng, at)
        assert table.game.phase not in ("bidding", "playing")
        if board + 1 < spec.per_round:
            table.act("a", "next_hand", at, dealer=dealer)
    assert table_done(spec, table)
    record = table.record()
    assert record["players"][1] == "robot:aleatorio"
    # with the names the event seated, b keeps their place: the pair B & D is ranked
    bare = {r.entrant for r in record_results_of(spec, 1, record)}
    assert bare == {"A & C", "robot:aleatorio & D"}
    named = record | {"entrants": seat_entrants(SEATS, {p: p.upper() for p in SEATS})}
    results = record_results_of(spec, 1, named)
    assert {r.entrant for r in results} == {"A & C", "B & D"}
    assert len(results) == 2 * spec.per_round
    assert standings(spec, [(1, named)]).overall.standings[0].boards == spec.per_round
