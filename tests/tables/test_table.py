"""Tables: seats, partner choice, robots, play through the log, accusations, claims,
the record with its commitments, what each person may see, rematches.

Everything here is the pure domain: fixed times, deterministic dealers, no server."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engine_helpers import deal_of
from espadas.engine import (
    Bid,
    Card,
    CardSet,
    Game,
    IllegalAccusation,
    IllegalBid,
    IllegalPlay,
    NotYourTurn,
    Play,
    RuleError,
    Rules,
    deal_cards,
)
from espadas.engine.errors import EspadasError
from espadas.tables.commitment import commit, deal_text, verify_record
from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.event import Event
from espadas.tables.table import Dealer, Table
from espadas.tables.view import ViewText, table_view

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
PEOPLE = {
    "ana": "Ana",
    "luis": "Luis",
    "eva": "Eva",
    "juan": "Juan",
    "rosa": "Rosa",
    "pepe": "Pepe",
}
NS, EW = "ns", "ew"

# The deal of test_views: E (seat 1) holds T987 of hearts, S (seat 2) 6543 of hearts and
# clubs; with seat 0 dealing, E bids first and leads.
EVEN = deal_of("AKQ.AKQJ.AKQ.AKQ", "JT9.T987.JT9.JT9", "876.6543.876.876", "5432.2.5432.5432")


def at(minutes: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes)


def seeded_dealer(seed: int) -> Dealer:
    """Deals as a table does (deal_cards from the dealer's left) with a seeded rng,
    and a salt from the same rng: the same seed gives the same deals."""
    rng = random.Random(seed)

    def dealer(rules: Rules, dealer_seat: int) -> tuple[tuple[int, ...], str]:
        masks = deal_cards(rules, rng, dealer_seat)
        return masks, f"{rng.getrandbits(128):032x}"

    return dealer


def fixed_dealer(*deals: tuple[int, ...]) -> Dealer:
    """Deals these deals in turn (then again from the first)."""
    count = iter(range(10**6))

    def dealer(rules: Rules, dealer_seat: int) -> tuple[tuple[int, ...], str]:
        k = next(count)
        return deals[k % len(deals)], f"{k:02x}" * 16

    return dealer


def game_of(table: Table) -> Game:
    assert table.game is not None
    return table.game


def new_table(
    people: tuple[str, ...] = ("luis",),
    robots: str | None = "normal",
    rules: Rules | None = None,
    table_id: str = "t1",
) -> Table:
    """Ana's table: ``people`` join in order, robots of level ``robots`` fill the rest."""
    table, _ = Table.create(table_id, rules or Rules.from_preset("estandar"), "ana", "Ana", at())
    for person in people:
        assert table.join(person, PEOPLE[person], at()) != []
    if robots is not None:
        table.add_robots("ana", robots, at())
    return table


def started(
    people: tuple[str, ...] = ("luis",),
    dealer: Dealer | None = None,
    rules: Rules | None = None,
    robots: str | None = "normal",
) -> Table:
    table = new_table(people, robots, rules)
    table.start("ana", at(), dealer or seeded_dealer(1))
    return table


def viewers(table: Table) -> list[str | None]:
    """Every seated person, a stranger and an anonymous spectator."""
    seated = [s.player for s in table.seats if s is not None and s.player is not None]
    return [*seated, "stranger", None]


def snapshot(table: Table) -> tuple[int, list[str]]:
    """The version and what every viewer sees, as text."""
    return table.version, [json.dumps(table_view(table, p), sort_keys=True) for p in viewers(table)]


class Driver:
    """Plays a table with legal moves: people through :meth:`Table.act`, robots
    through :meth:`Table.robot_move`; bids of 3, proper cards chosen by a seeded rng."""

    def __init__(self, table: Table, dealer: Dealer, seed: int = 0) -> None:
        self.table = table
        self.dealer = dealer
        self.rng = random.Random(seed)
        self.minute = 1

    def now(self) -> datetime:
        self.minute += 1
        return at(self.minute)

    def step(self) -> list[Event]:
        table, game = self.table, game_of(self.table)
        if game.phase in ("bidding", "playing"):
            seat = game.to_act
            assert seat is not None
            occupant = table.seats[seat]
            assert occupant is not None
            view = game.view_for(seat)
            if game.phase == "bidding":
                bids = [a for a in view.legal if isinstance(a, Bid)]
                choice: Bid | Play = next((b for b in bids if b.value == 3), bids[0])
            else:
                proper = list(view.proper_plays)
                assert proper
                assert {Play(c) for c in proper} <= set(view.legal)
                choice = Play(proper[self.rng.randrange(len(proper))])
            if occupant.robot is not None:
                assert table.robot_to_act == seat
                return table.robot_move(seat, choice, self.now())
            assert occupant.player is not None
            assert table.robot_to_act is None
            if isinstance(choice, Bid):
                return table.act(occupant.player, "bid", self.now(), value=choice.value)
            value = str(choice.card)
            return table.act(occupant.player, "play", self.now(), value=value)
        assert game.phase == "hand_end"
        kind = "next_hand" if game.result is None else "confirm_end"
        return table.act("ana", kind, self.now(), dealer=self.dealer)

    def steps(self) -> Iterator[list[Event]]:
        """Steps until the last hand of the game is closed."""
        for _ in range(100_000):
            if game_of(self.table).phase == "game_over":
                return
            yield self.step()
        raise AssertionError("the game did not end")


def ordered_cards(mask: int) -> list[str]:
    return sorted(str(c) for c in CardSet(mask))


# -- join -------------------------------------------------------------------------------


def test_people_sit_in_order_then_watch() -> None:
    table, _ = Table.create("t1", Rules.from_preset("estandar"), "ana", "Ana", at())
    assert table.seat_of("ana") == 0
    for seat, person in enumerate(("luis", "eva", "juan"), start=1):
        events = table.join(person, PEOPLE[person], at(seat))
        assert [(e.type, e.data["seat"], e.data["player"]) for e in events] == [
            ("sit", seat, person)
        ]
        assert table.seat_of(person) == seat
    version = table.version
    assert table.join("rosa", "Rosa", at(9)) == []  # the table is full: Rosa watches
    assert table.seat_of("rosa") is None
    assert table.version == version
    assert [s.player for s in table.seats if s is not None] == ["ana", "luis", "eva", "juan"]


def test_joining_twice_keeps_one_seat() -> None:
    table = new_table(people=("luis",), robots=None)
    assert table.join("luis", "Luis", at(1)) == []
    assert table.join("ana", "Ana", at(1)) == []  # the creator is seated already
    assert [None if s is None else s.player for s in table.seats] == ["ana", "luis", None, None]
    assert table.version == 2


def test_nobody_new_sits_after_the_start() -> None:
    table = started()
    version = table.version
    assert table.join("eva", "Eva", at(5)) == []
    assert table.seat_of("eva") is None
    assert table.version == version
    view = table_view(table, "eva")
    assert view["you"] is None
    assert view["game"]["hand"] is None


INDIVIDUAL: list[dict[str, Any]] = [
    {"players": 3},
    {"players": 4, "partnerships": False},
    {"players": 5},
    {"players": 6},
]


@pytest.mark.parametrize("options", INDIVIDUAL, ids=lambda o: f"{o['players']}p")
def test_individual_tables_seat_everyone_in_order(options: dict[str, Any]) -> None:
    rules = Rules.from_preset("sala", **options)
    n = options["players"]
    assert (rules.players, rules.partnerships, rules.sides) == (n, False, n)
    table, _ = Table.create("t1", rules, "ana", "Ana", at())
    assert len(table.seats) == n
    people = list(PEOPLE)[1:n]
    for seat, person in enumerate(people, start=1):
        assert [e.data["seat"] for e in table.join(person, PEOPLE[person], at())] == [seat]
    assert table.join("someone", "Someone", at()) == []
    assert table.seat_of("someone") is None
    with pytest.raises(TableError) as err:
        table.choose_partner("ana", 1, at())
    assert err.value.code == "no_partners"
    table.start("ana", at(), seeded_dealer(3))
    hand_size = {3: 17, 4: 13, 5: 10, 6: 8}[n]
    for person in ["ana", *people]:
        view = table_view(table, person)
        assert len(view["game"]["hand"]) == hand_size
        assert view["game"]["sides"] == [str(s) for s in range(n)]


# -- choose_partner -----------------------------------------------------------------------


def four_people() -> Table:
    return new_table(people=("luis", "eva", "juan"), robots=None)


@pytest.mark.parametrize("seat", [1, 3])
def test_the_chosen_partner_moves_opposite(seat: int) -> None:
    table = four_people()
    before = [s.player if s is not None else None for s in table.seats]
    events = table.choose_partner("ana", seat, at(1))
    assert [(e.type, e.data) for e in events] == [("partner", {"seat": seat})]
    after = [s.player if s is not None else None for s in table.seats]
    expected = list(before)
    expected[2], expected[seat] = before[seat], before[2]
    assert after == expected
    assert table.seat_of(before[seat]) == 2
    assert table.seat_of(before[2]) == seat
    assert Table.rebuild("t1", table.events).seats == table.seats


def test_choosing_the_partner_already_opposite_changes_nothing() -> None:
    table = four_people()
    assert table.choose_partner("ana", 2, at(1)) == []
    assert table.seat_of("eva") == 2
    assert table.version == 4


@pytest.mark.parametrize(
    ("who", "seat", "error", "code"),
    [
        ("luis", 1, NotAllowed, "not_creator"),
        ("stranger", 3, NotAllowed, "not_creator"),
        ("ana", 0, BadCommand, "bad_partner"),
        ("ana", 4, BadCommand, "bad_partner"),
        ("ana", -1, BadCommand, "bad_partner"),
    ],
)
def test_choosing_a_partner_is_refused(
    who: str, seat: int, error: type[TableError], code: str
) -> None:
    table = four_people()
    before = snapshot(table)
    with pytest.raises(error) as err:
        table.choose_partner(who, seat, at(1))
    assert err.value.code == code
    assert snapshot(table) == before


def test_no_partner_choice_after_the_start() -> None:
    table = started(people=("luis", "eva", "juan"), robots=None)
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.choose_partner("ana", 1, at(1))
    assert err.value.code == "already_started"
    assert snapshot(table) == before


# -- robots, freeing seats, starting -----------------------------------------------------


def test_robots_fill_the_empty_seats() -> None:
    table = new_table(people=("luis",), robots=None)
    events = table.add_robots("ana", "experto", at(1))
    assert [(e.type, e.data) for e in events] == [
        ("robot", {"seat": 2, "level": "experto"}),
        ("robot", {"seat": 3, "level": "experto"}),
    ]
    assert [s.robot if s is not None else "empty" for s in table.seats] == [
        None,
        None,
        "experto",
        "experto",
    ]
    assert table.players() == ["Ana", "Luis", "robot:experto", "robot:experto"]
    assert table.add_robots("ana", "normal", at(2)) == []  # nothing left to fill


def test_robots_in_chosen_seats() -> None:
    table = new_table(people=(), robots=None)
    events = table.add_robots("ana", "aleatorio", at(1), seats=[3])
    assert [e.data["seat"] for e in events] == [3]
    assert table.seats[1] is None and table.seats[2] is None
    assert table.join("luis", "Luis", at(2))[0].data["seat"] == 1


@pytest.mark.parametrize(
    ("who", "level", "seats", "levels", "error", "code"),
    [
        ("ana", "genius", None, (), BadCommand, "bad_robot"),
        ("ana", "experto", None, ("aleatorio", "normal"), BadCommand, "bad_robot"),
        ("ana", "normal", [1], (), TableError, "seat_taken"),
        ("ana", "normal", [0], (), TableError, "seat_taken"),
        ("ana", "normal", [3, 1], (), TableError, "seat_taken"),  # nothing seated at 3 either
        ("ana", "normal", [7], (), TableError, "seat_taken"),
        ("luis", "normal", None, (), NotAllowed, "not_creator"),
    ],
)
def test_adding_robots_is_refused(
    who: str,
    level: str,
    seats: list[int] | None,
    levels: tuple[str, ...],
    error: type[TableError],
    code: str,
) -> None:
    table = new_table(people=("luis",), robots=None)
    before = snapshot(table)
    with pytest.raises(error) as err:
        table.add_robots(who, level, at(1), seats=seats, levels=levels)
    assert err.value.code == code
    assert snapshot(table) == before


def test_a_freed_seat_is_empty_again() -> None:
    table = new_table(people=("luis",), robots="normal")
    events = table.free_seat("ana", 2, at(1))
    assert [(e.type, e.data) for e in events] == [("free", {"seat": 2})]
    assert table.seats[2] is None
    assert table.seats[3] is not None and table.seats[3].robot == "normal"
    assert table.join("eva", "Eva", at(2))[0].data["seat"] == 2
    assert Table.rebuild("t1", table.events).seats == table.seats


@pytest.mark.parametrize(
    ("who", "seat", "error", "code"),
    [
        ("luis", 2, NotAllowed, "not_creator"),
        ("ana", 1, TableError, "not_robot"),  # a person's seat
        ("ana", 0, TableError, "not_robot"),
        ("ana", 9, TableError, "not_robot"),
        ("ana", -1, TableError, "not_robot"),
    ],
)
def test_freeing_a_seat_is_refused(who: str, seat: int, error: type[TableError], code: str) -> None:
    table = new_table(people=("luis",), robots="normal")
    before = snapshot(table)
    with pytest.raises(error) as err:
        table.free_seat(who, seat, at(1))
    assert err.value.code == code
    assert snapshot(table) == before


def test_no_robots_or_freeing_after_the_start() -> None:
    table = started()
    before = snapshot(table)
    commands: list[Callable[[], object]] = [
        lambda: table.add_robots("ana", "normal", at(1)),
        lambda: table.free_seat("ana", 2, at(1)),
    ]
    for command in commands:
        with pytest.raises(TableError) as err:
            command()
        assert err.value.code == "already_started"
    assert snapshot(table) == before


def test_start_needs_every_seat_taken() -> None:
    table = new_table(people=("luis",), robots=None)
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.start("ana", at(1), seeded_dealer(1))
    assert err.value.code == "seats_empty"
    assert snapshot(table) == before
    assert table.status == "waiting" and table.game is None


def test_only_the_creator_starts_and_only_once() -> None:
    table = new_table()
    with pytest.raises(NotAllowed):
        table.start("luis", at(1), seeded_dealer(1))
    assert table.status == "waiting"
    events = table.start("ana", at(1), seeded_dealer(1))
    assert [e.type for e in events] == ["start", "deal"]
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.start("ana", at(2), seeded_dealer(1))
    assert err.value.code == "already_started"
    assert snapshot(table) == before


def test_the_creator_deals_first_in_estandar() -> None:
    table = started(dealer=seeded_dealer(4))
    game = game_of(table)
    assert table.status == "playing"
    assert table.events[-2].data == {"first_dealer": 0}
    assert game.dealer == 0
    assert (game.phase, game.to_act) == ("bidding", 1)  # bidding starts left of the dealer
    deal = table.events[-1].data
    expected_masks, expected_salt = seeded_dealer(4)(table.rules, 0)
    assert deal["hands"] == deal_text(expected_masks)
    assert deal["salt"] == expected_salt
    assert deal["commitment"] == commit(deal["hands"], deal["salt"])


# -- a full game ---------------------------------------------------------------------------


def check_record(table: Table, hands: int) -> None:
    record = table.record()
    assert record["table"] == table.id
    assert record["players"] == table.players()
    assert len(record["hands"]) == hands
    for entry, revealed in zip(record["hands"], table.deals, strict=False):
        assert entry["deal"] == revealed.deal
        assert entry["salt"] == revealed.salt
        assert entry["commitment"] == revealed.commitment
    checks = verify_record(record)
    assert [c.status for c in checks] == ["ok"] * hands


def test_a_full_game_through_the_table() -> None:
    dealer = seeded_dealer(11)
    table = started(people=("luis",), dealer=dealer)
    driver = Driver(table, dealer, seed=5)
    check_record(table, 0)
    hand_ends = 0
    for events in driver.steps():
        game = game_of(table)
        assert events, "every move logs an event"
        assert [e.seq for e in events] == list(
            range(table.version - len(events) + 1, table.version + 1)
        )
        if game.phase == "hand_end" and events[-1].type == "play":
            hand_ends += 1
            check_record(table, len(game.scored))
        elif game.result is None and (
            events[-1].type == "deal" or (game.phase == "playing" and len(game.hand.plays) == 26)
        ):
            # a hand just dealt, or half played: the record has only the finished hands
            assert len(game.hands) == len(game.scored) + 1
            check_record(table, len(game.scored))
        assert table.status == ("finished" if game.result is not None else "playing")
    game = game_of(table)
    assert game.result is not None
    assert game.result.reason in ("target", "mercy")
    assert hand_ends == len(game.hands) == len(game.scored) == len(table.deals) > 1
    assert table.status == "finished"
    assert table.events[-1].type == "confirm_end"
    assert [e.seq for e in table.events] == list(range(1, table.version + 1))
    check_record(table, len(game.hands))
    assert table_view(table, "ana")["game"]["legal"] == []

    again = Table.rebuild(table.id, table.events)
    assert again.version == table.version
    assert again.status == "finished"
    assert game_of(again).scores == game.scores
    assert game_of(again).bags == game.bags
    assert game_of(again).result == game.result
    assert again.record() == table.record()
    for person in viewers(table):
        assert table_view(again, person) == table_view(table, person)


def test_replay_refuses_a_gap_or_an_unknown_event() -> None:
    table = started()
    events = table.events
    with pytest.raises(TableError) as err:
        Table.rebuild("t1", [events[0], events[2]])
    assert err.value.code == "bad_seq"
    with pytest.raises(BadCommand):
        Table.rebuild("t1", [events[0], Event(2, "teleport", {}, at())])


def test_the_record_during_the_game() -> None:
    dealer = seeded_dealer(2)
    table = started(dealer=dealer)
    driver = Driver(table, dealer, seed=1)
    steps = driver.steps()
    while game_of(table).phase != "hand_end":
        next(steps)
    check_record(table, 1)
    first = table.record()["hands"][0]
    next(steps)  # next hand: a fresh deal, still secret
    assert table.events[-1].type == "deal"
    check_record(table, 1)
    current = table.events[-1].data
    text = json.dumps(table.record())
    assert current["salt"] not in text
    assert current["commitment"] not in text
    assert table.record()["hands"][0] == first


# -- accusations -------------------------------------------------------------------------


def renege_position(robots_at_south: bool = False) -> Table:
    """E leads TH; S, holding hearts, is to play (four people, or a robot at S)."""
    people = ("luis",) if robots_at_south else ("luis", "eva", "juan")
    table = new_table(people=people, robots=None)
    if robots_at_south:
        table.add_robots("ana", "normal", at(), seats=[2])
        table.join("juan", "Juan", at())
    table.start("ana", at(), fixed_dealer(EVEN))
    for minute, seat in enumerate((1, 2, 3, 0), start=1):
        table.act_seat(seat, "bid", at(minute), value=3)
    table.act("luis", "play", at(5), value="10H")
    assert game_of(table).to_act == 2
    return table


def test_a_renege_is_a_legal_but_improper_card() -> None:
    table = renege_position()
    view = game_of(table).view_for(2)
    assert Play(Card.parse("8C")) in view.legal
    assert Card.parse("8C") not in view.proper_plays
    assert set(view.proper_plays) == set(CardSet.parse(".6543.."))
    shown = table_view(table, "eva")["game"]
    assert {"type": "play", "value": "8C"} in shown["legal"]
    assert "8C" not in shown["proper_plays"]
    # the accusations a person is offered: the two opponents
    assert [a for a in shown["legal"] if a["type"] == "accuse"] == [
        {"type": "accuse", "value": 1},
        {"type": "accuse", "value": 3},
    ]


def test_a_true_accusation_makes_the_reneging_side_lose() -> None:
    table = renege_position()
    table.act("eva", "play", at(6), value="8C")  # a renege: Eva holds hearts
    assert table.status == "playing"
    events = table.act("juan", "accuse", at(7), value=2)
    assert [(e.type, e.data) for e in events] == [("accuse", {"by": 3, "against": 2})]
    assert table.status == "finished"
    result = table_view(table, "ana")["game"]["result"]
    assert result["winner"] == EW and result["loser"] == NS and result["reason"] == "renege"
    with pytest.raises(RuleError):
        table.act("luis", "play", at(8), value="JD")


def test_a_false_accusation_makes_the_accusers_side_lose() -> None:
    table = renege_position()
    table.act("eva", "play", at(6), value="6H")  # follows suit
    table.act("juan", "play", at(7), value="2H")
    table.act("luis", "accuse", at(8), value=2)
    assert table.status == "finished"
    result = table_view(table, None)["game"]["result"]
    assert result["winner"] == NS and result["loser"] == EW
    assert result["reason"] == "false_accusation"


def test_a_renege_by_someone_else_does_not_make_an_accusation_true() -> None:
    table = renege_position()
    table.act("eva", "play", at(6), value="8C")  # Eva (S) reneges
    table.act("luis", "accuse", at(7), value=0)  # ...but Luis accuses Ana (N)
    result = table_view(table, None)["game"]["result"]
    assert (result["loser"], result["reason"]) == (EW, "false_accusation")


def test_accusing_a_partner_is_refused_and_changes_nothing() -> None:
    table = renege_position()
    table.act("eva", "play", at(6), value="8C")
    before = snapshot(table)
    with pytest.raises(IllegalAccusation) as err:
        table.act("luis", "accuse", at(7), value=3)
    assert err.value.code == "against_partner"
    assert snapshot(table) == before
    assert table.status == "playing"


def test_the_record_after_an_accusation_reveals_every_hand() -> None:
    table = renege_position()
    table.act("eva", "play", at(6), value="8C")
    table.act("juan", "accuse", at(7), value=2)
    record = table.record()
    assert len(record["hands"]) == 1
    assert record["hands"][0]["deal"] == deal_text(EVEN)
    assert [c.status for c in verify_record(record)] == ["ok"]


def test_a_robot_may_not_renege() -> None:
    table = renege_position(robots_at_south=True)
    assert table.robot_to_act == 2
    before = snapshot(table)
    with pytest.raises(IllegalPlay) as err:
        table.robot_move(2, Play(Card.parse("8C")), at(6))
    assert err.value.code == "robot_renege"
    assert snapshot(table) == before
    table.robot_move(2, Play(Card.parse("6H")), at(6))
    assert table.robot_to_act is None and game_of(table).to_act == 3


# -- abandon and claims ---------------------------------------------------------------------


@pytest.mark.parametrize(("who", "loser"), [("ana", NS), ("luis", EW), ("eva", NS)])
def test_the_side_of_who_abandons_loses(who: str, loser: str) -> None:
    table = started(people=("luis", "eva", "juan"), robots=None)
    events = table.act(who, "abandon", at(3))
    assert [e.type for e in events] == ["abandon"]
    assert table.status == "finished"
    result = table_view(table, None)["game"]["result"]
    assert (result["loser"], result["reason"]) == (loser, "abandon")
    assert result["winner"] == ({NS, EW} - {loser}).pop()
    with pytest.raises(NotAllowed):
        table.act("stranger", "abandon", at(4))


def test_claims() -> None:
    table = started(people=("luis", "eva", "juan"), robots=None)  # Luis (E) bids first
    since = table.updated_at
    assert since == at()
    limit = timedelta(hours=48)
    assert table.claim_open_at(limit) == since + limit
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.act("ana", "claim", since + timedelta(hours=1))
    assert err.value.code == "claim_early"
    with pytest.raises(TableError) as err:
        table.act("ana", "claim", since + limit - timedelta(seconds=1))
    assert err.value.code == "claim_early"
    for own_side in ("luis", "juan"):
        with pytest.raises(TableError) as err:
            table.act(own_side, "claim", since + timedelta(hours=100))
        assert err.value.code == "no_claim_own"
    with pytest.raises(NotAllowed):
        table.act("stranger", "claim", since + timedelta(hours=100))
    assert snapshot(table) == before
    # what the view says: the other side may claim at the limit, Luis's side may not
    assert table_view(table, "ana")["claim_at"] == (since + limit).isoformat()
    assert table_view(table, "luis")["claim_at"] is None
    assert table_view(table, None)["claim_at"] is None

    events = table.act("eva", "claim", since + limit)
    assert [(e.type, e.data) for e in events] == [("claim", {"by": 2, "seat": 1})]
    assert table.status == "finished"
    result = table_view(table, None)["game"]["result"]
    assert (result["winner"], result["loser"], result["reason"]) == (NS, EW, "timeout")


def test_the_claim_clock_restarts_with_each_move() -> None:
    table = started(people=("luis", "eva", "juan"), robots=None)
    table.act("luis", "bid", at(60), value=3)  # now Eva (S) is to bid
    with pytest.raises(TableError) as err:
        table.act("luis", "claim", at() + timedelta(hours=48, minutes=30))
    assert err.value.code == "claim_early"
    table.act("luis", "claim", at(60) + timedelta(hours=48))
    result = table_view(table, None)["game"]["result"]
    assert (result["loser"], result["reason"]) == (NS, "timeout")


def test_a_partner_cannot_hold_off_a_claim_by_looking() -> None:
    table = started(people=("luis", "eva", "juan"), robots=None)  # Luis (E) to bid
    for hours in (40, 80):
        # Juan, Luis's partner, "looks" at his cards: refused (they are face up),
        # so it neither adds to the log nor restarts the turn limit
        with pytest.raises(TableError) as err:
            table.act("juan", "look", at() + timedelta(hours=hours))
        assert err.value.code == "no_look"
    assert game_of(table).to_act == 1
    # the table has waited 100 h for Luis to bid: Ana's side may close it
    table.act("ana", "claim", at() + timedelta(hours=100))
    assert table.status == "finished"


def test_no_claim_while_a_robot_is_to_act() -> None:
    table = started(people=("luis",), robots="normal")
    table.act("luis", "bid", at(1), value=3)
    assert table.robot_to_act == 2
    before = snapshot(table)
    for person in ("luis", "ana"):
        with pytest.raises(TableError) as err:
            table.act(person, "claim", at() + timedelta(days=30))
        assert err.value.code == "no_claim"
    assert snapshot(table) == before
    assert table.claim_open_at(timedelta(hours=48)) is None


def test_no_claim_before_the_start() -> None:
    table = new_table()
    with pytest.raises(TableError) as err:
        table.act("luis", "claim", at() + timedelta(days=30))
    assert err.value.code == "not_started"


# -- refused commands change nothing ------------------------------------------------------


def bidding_table() -> Table:
    """Four people, Luis (E) to bid."""
    return started(people=("luis", "eva", "juan"), robots=None, dealer=fixed_dealer(EVEN))


def playing_table() -> Table:
    """Four people, bids made; Luis (E) to lead."""
    table = bidding_table()
    for seat in (1, 2, 3, 0):
        table.act_seat(seat, "bid", at(seat + 1), value=3)
    assert game_of(table).phase == "playing"
    return table


Command = Callable[[Table], object]
REFUSED: list[tuple[str, Callable[[], Table], Command, type[EspadasError]]] = [
    ("bid out of turn", bidding_table, lambda t: t.act("ana", "bid", at(9), value=3), NotYourTurn),
    ("bid of 14", bidding_table, lambda t: t.act("luis", "bid", at(9), value=14), IllegalBid),
    ("bid of -1", bidding_table, lambda t: t.act("luis", "bid", at(9), value=-1), IllegalBid),
    ("bid as text", bidding_table, lambda t: t.act("luis", "bid", at(9), value="3"), BadCommand),
    ("bid of True", bidding_table, lambda t: t.act("luis", "bid", at(9), value=True), BadCommand),
    (
        "blind nil",
        bidding_table,
        lambda t: t.act("luis", "bid", at(9), value="blind_nil"),
        IllegalBid,
    ),
    (
        "play in bidding",
        bidding_table,
        lambda t: t.act("luis", "play", at(9), value="TH"),
        RuleError,
    ),
    ("unknown kind", bidding_table, lambda t: t.act("luis", "dance", at(9)), BadCommand),
    ("stranger bids", bidding_table, lambda t: t.act("rosa", "bid", at(9), value=3), NotAllowed),
    (
        "play out of turn",
        playing_table,
        lambda t: t.act("eva", "play", at(9), value="6H"),
        NotYourTurn,
    ),
    (
        "card not in hand",
        playing_table,
        lambda t: t.act("luis", "play", at(9), value="AS"),
        IllegalPlay,
    ),
    (
        "card as a number",
        playing_table,
        lambda t: t.act("luis", "play", at(9), value=10),
        BadCommand,
    ),
    (
        "lead a spade",
        playing_table,
        lambda t: t.act("luis", "play", at(9), value="9S"),
        IllegalPlay,
    ),
    ("bid in play", playing_table, lambda t: t.act("luis", "bid", at(9), value=3), RuleError),
    ("next hand mid-hand", playing_table, lambda t: t.act("ana", "next_hand", at(9)), RuleError),
    ("confirm mid-game", playing_table, lambda t: t.act("ana", "confirm_end", at(9)), RuleError),
    (
        "accuse before a card",
        bidding_table,
        lambda t: t.act("ana", "accuse", at(9), value="1"),
        BadCommand,
    ),
    ("accuse seat 7", playing_table, lambda t: t.act("ana", "accuse", at(9), value=7), RuleError),
    ("unknown kind in play", playing_table, lambda t: t.act("ana", "", at(9)), BadCommand),
]


@pytest.mark.parametrize(
    ("make", "command", "error"), [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED]
)
def test_a_refused_command_changes_nothing(
    make: Callable[[], Table], command: Command, error: type[EspadasError]
) -> None:
    table = make()
    before = snapshot(table)
    events = list(table.events)
    with pytest.raises(error):
        command(table)
    assert snapshot(table) == before
    assert table.events == events
    # and the table still plays on
    game = game_of(table)
    seat = game.to_act
    assert seat is not None
    view = game.view_for(seat)
    assert view.legal


def test_commands_before_the_start_are_refused() -> None:
    table = new_table()
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.act("ana", "bid", at(1), value=3)
    assert err.value.code == "not_started"
    assert snapshot(table) == before


# -- views ---------------------------------------------------------------------------------


def test_a_spectator_sees_no_hand_and_no_actions() -> None:
    table = started(dealer=fixed_dealer(EVEN))
    for player in ("stranger", None):
        view = table_view(table, player)
        assert view["you"] is None
        assert view["creator"] is False
        assert view["game"]["hand"] is None
        assert view["game"]["legal"] == []
        assert view["game"]["proper_plays"] == []
        text = json.dumps(view)
        for mask in EVEN:
            for card in CardSet(mask):
                assert f'"{card}"' not in text


def test_a_seated_person_sees_only_their_own_cards() -> None:
    table = started(people=("luis",), dealer=fixed_dealer(EVEN))
    for person, seat in (("ana", 0), ("luis", 1)):
        view = table_view(table, person)
        assert view["you"] == seat
        assert view["creator"] is (person == "ana")
        assert sorted(view["game"]["hand"]) == ordered_cards(EVEN[seat])
        assert len(view["game"]["hand"]) == 13
        text = json.dumps(view)
        for other in range(4):
            if other != seat:
                for card in CardSet(EVEN[other]):
                    assert f'"{card}"' not in text
    assert table_view(table, "luis")["game"]["legal"][:2] == [
        {"type": "bid", "value": 0},
        {"type": "bid", "value": 1},
    ]
    assert table_view(table, "ana")["game"]["legal"] == []  # not Ana's turn


def test_views_show_only_finished_deals() -> None:
    dealer = seeded_dealer(8)
    table = started(dealer=dealer)
    driver = Driver(table, dealer, seed=2)
    steps = driver.steps()
    view = table_view(table, "ana")
    first = table.deals[0]
    assert view["deals"] == []
    assert view["commitment"] == first.commitment
    assert first.salt not in json.dumps(view)
    while game_of(table).phase != "hand_end":
        assert table_view(table, "ana")["deals"] == []
        next(steps)
    view = table_view(table, "luis")
    assert view["deals"] == [
        {"hand": 1, "deal": first.deal, "salt": first.salt, "commitment": first.commitment}
    ]
    next(steps)  # the next hand is dealt
    second = table.deals[1]
    view = table_view(table, "luis")
    assert [d["hand"] for d in view["deals"]] == [1]
    assert view["commitment"] == second.commitment
    assert second.salt not in json.dumps(view)


def unplayed_of_others(game: Game, seat: int | None) -> list[Card]:
    if not game.hands or game.phase not in ("bidding", "playing"):
        return []
    held = game.hands[-1].held
    return [c for s, mask in enumerate(held) if s != seat for c in CardSet(mask)]


def test_no_view_ever_shows_another_seats_unplayed_cards() -> None:
    dealer = seeded_dealer(21)
    table = started(people=("luis", "eva"), dealer=dealer)
    driver = Driver(table, dealer, seed=3)
    looked = 0
    for _ in driver.steps():
        game = game_of(table)
        unfinished = len(game.hands) > len(game.scored)
        current = table.deals[-1]
        for person in viewers(table):
            seat = table.seat_of(person)
            text = json.dumps(table_view(table, person))
            for card in unplayed_of_others(game, seat):
                assert f'"{card}"' not in text, (person, card)
                looked += 1
            if unfinished:
                assert current.salt not in text
                for hand in current.deal:
                    assert json.dumps(hand) not in text
    assert game_of(table).result is not None
    assert looked > 10_000


def test_hidden_cards_do_not_change_what_others_see() -> None:
    """Two deals that differ only by two cards swapped between E and W: N, S and a
    spectator see exactly the same (but for the commitment) until one is played."""
    masks = list(deal_cards(Rules.from_preset("estandar"), random.Random(9), 0))
    east, west = list(CardSet(masks[1])), list(CardSet(masks[3]))
    a, b = max(east), max(west)
    other = list(masks)
    other[1] = masks[1] ^ (1 << int(a)) ^ (1 << int(b))
    other[3] = masks[3] ^ (1 << int(a)) ^ (1 << int(b))
    first = started(people=("luis", "eva", "juan"), robots=None, dealer=fixed_dealer(tuple(masks)))
    second = started(people=("luis", "eva", "juan"), robots=None, dealer=fixed_dealer(tuple(other)))

    def same_for_ns() -> None:
        for person in ("ana", "eva", "stranger", None):
            one, two = table_view(first, person), table_view(second, person)
            assert one.pop("commitment") != two.pop("commitment")
            assert one == two, person

    same_for_ns()
    for minute, seat in enumerate((1, 2, 3, 0), start=1):
        for table in (first, second):
            table.act_seat(seat, "bid", at(minute), value=3)
        same_for_ns()
    # plays that avoid the swapped cards keep the views equal
    plays = 0
    for minute in range(5, 13):
        game = game_of(first)
        turn = game.to_act
        assert turn is not None
        proper = [c for c in game.view_for(turn).proper_plays if c not in (a, b)]
        if not proper or Play(proper[0]) not in game_of(second).view_for(turn).legal:
            break
        for table in (first, second):
            table.act_seat(turn, "play", at(minute), value=str(proper[0]))
        plays += 1
        same_for_ns()
    assert plays >= 4
    assert table_view(first, "luis")["game"]["hand"] != table_view(second, "luis")["game"]["hand"]


# -- rematch --------------------------------------------------------------------------------


def finished_table() -> Table:
    table = started(people=("luis",), robots="experto")
    table.act("luis", "abandon", at(2))
    assert table.status == "finished"
    return table


def test_a_rematch_is_marked_once_by_the_creator_after_the_end() -> None:
    running = started()
    with pytest.raises(TableError) as err:
        running.mark_rematch("ana", "t2", at(1))
    assert err.value.code == "not_finished"

    table = finished_table()
    with pytest.raises(NotAllowed):
        table.mark_rematch("luis", "t2", at(3))
    events = table.mark_rematch("ana", "t2", at(3))
    assert [(e.type, e.data) for e in events] == [("rematch", {"table": "t2"})]
    assert table.rematch == "t2"
    assert table_view(table, "luis")["rematch"] == "t2"
    before = snapshot(table)
    with pytest.raises(TableError) as err:
        table.mark_rematch("ana", "t3", at(4))
    assert err.value.code == "rematch_exists"
    assert snapshot(table) == before
    assert Table.rebuild("t1", table.events).rematch == "t2"


def test_a_rematch_keeps_rules_people_and_robots() -> None:
    old = finished_table()
    new, events = Table.rematch_from(old, "t2", at(5))
    assert new.events == events
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert new.id == "t2" and new.rematch_of == "t1"
    assert new.rules == old.rules
    assert new.creator == "ana"
    assert new.seats == old.seats
    assert new.status == "waiting" and new.game is None
    assert table_view(new, "luis")["rematch_of"] == "t1"
    again = Table.rebuild("t2", events)
    assert (again.seats, again.rematch_of) == (new.seats, "t1")
    new.start("ana", at(6), seeded_dealer(1))
    assert new.status == "playing"


def test_a_rematch_with_another_partner() -> None:
    table = started(
        people=("luis", "eva"), robots="normal", rules=Rules.from_preset("estandar", target=250)
    )
    table.act("eva", "abandon", at(2))
    new, events = Table.rematch_from(table, "t2", at(5), partner=1)
    assert events[-1].type == "partner"
    assert [s.name if s is not None else None for s in new.seats] == [
        "Ana",
        "Eva",
        "Luis",
        "robot:normal",
    ]
    assert new.seat_of("luis") == 2 and new.seat_of("eva") == 1
    assert new.rules == table.rules and new.rules.target == 250
    assert Table.rebuild("t2", events).seats == new.seats


@pytest.mark.parametrize(
    ("people", "rules"),
    [
        (("luis", "eva", "juan"), Rules.from_preset("estandar")),
        (("luis",), Rules.from_preset("estandar", renege="allowed", blind_nil=True)),
        (("luis", "eva"), Rules.from_preset("sala", players=5)),
    ],
)
def test_view_text_is_the_view_of_everyone_at_every_step(
    people: tuple[str, ...], rules: Rules
) -> None:
    """The views sent as text (public part made once per version, the lasting part
    kept from one version to the next) are exactly each viewer's view."""
    table = started(people, rules=rules)
    driver = Driver(table, seeded_dealer(5), seed=5)
    text: ViewText | None = None
    kept = 0

    def check() -> None:
        nonlocal text, kept
        before = text
        text = ViewText(table, before)
        if before is not None and text._lasting is before._lasting:
            kept += 1
        for person in viewers(table):
            assert json.loads(text.of(table, person)) == table_view(table, person)

    check()
    for step, _events in enumerate(driver.steps()):
        check()
        if rules.renege == "allowed" and step == 30:
            opponent = next(s for s in range(4) if rules.side_of(s) != rules.side_of(0))
            table.act("ana", "accuse", at(5000), value=opponent)
            check()
            break
        if step == 300:  # several hands: enough to see the lasting part change
            break
    assert kept > 10  # the lasting part was reused, not only rebuilt
    with pytest.raises(ValueError, match="moved on"):
        ViewText(table).of(started(people, rules=rules), "ana")
