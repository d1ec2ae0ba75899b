"""The completion rate from real table logs (tables made through the Table API):
whoever abandons, is claimed against or is replaced has left; the others
finished; an unrated game or a person not seated counts for nobody."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from espadas.engine import Rules
from espadas.tables.absent import replace
from espadas.tables.completion import completion_of
from espadas.tables.presence import drop
from espadas.tables.table import Table

AT = datetime(2026, 1, 1, tzinfo=UTC)
PEOPLE = ["ana", "luis", "marta", "pedro"]


def four(rated: bool = True, absent: str = "claim") -> Table:
    table, _ = Table.create("t", Rules(), "ana", "Ana", AT, rated=rated, absent=absent)
    for player in PEOPLE[1:]:
        table.join(player, player.title(), AT)
    table.start("ana", AT)
    return table


@given(st.sampled_from(PEOPLE), st.booleans())
def test_the_person_who_abandons_has_left(who: str, rated: bool) -> None:
    table = four(rated)
    table.act(who, "abandon", AT)
    for player in [*PEOPLE, "eva"]:
        found = completion_of(player, [table.events])
        if not rated or player == "eva":
            assert found.games == 0
        else:
            assert (found.finished, found.left) == ((0, 1) if player == who else (1, 0))


def test_a_claim_and_a_robot_in_the_seat_are_leaving() -> None:
    claimed = four()
    waiting = claimed.game.to_act if claimed.game else None
    assert waiting is not None
    by = PEOPLE[(waiting + 1) % 4]
    claimed.act(by, "claim", AT + timedelta(hours=49), turn_limit=timedelta(hours=48))
    claimed_person = PEOPLE[waiting]
    assert completion_of(claimed_person, [claimed.events]).left == 1
    replaced = four(absent="robot")
    drop(replaced, "marta", AT, timedelta(seconds=1))  # an away entry changes nothing
    late = AT + timedelta(hours=49)
    waiting = replaced.game.to_act if replaced.game else None
    assert waiting is not None
    replace(replaced, "ana" if waiting != 0 else "luis", late)
    gone = PEOPLE[waiting]
    both = completion_of(gone, [claimed.events, replaced.events])
    assert both.left == 1 + (gone == claimed_person)
    assert completion_of(gone, [replaced.events]).rate == 0.0
