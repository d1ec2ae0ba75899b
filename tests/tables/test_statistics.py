"""The club's statistics of a game (espadas.tables.statistics), from its record:
hand-computed values for known deals, and sums that any game must respect."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine_helpers import deal_of, play_random
from espadas.engine import PRESETS, Game, Rules
from espadas.engine.record import game_record, rebuild
from espadas.tables.finish import side_places
from espadas.tables.statistics import STAT_FIELDS, SeatStats, seat_statistics

SUIT = "AKQJT98765432"


def one_suit_deal() -> tuple[int, ...]:
    """Seat 0 holds every spade, 1 every heart, 2 every diamond, 3 every club."""
    return deal_of(*(".".join(SUIT if s == seat else "" for s in range(4)) for seat in range(4)))


def play_first_legal(game: Game) -> None:
    while game.phase == "playing":
        game.play(min(game.legal_plays()))


def known_game() -> Game:
    """Hand 1 (dealer seat 0, seat 1 bids first): bids 1 Nil, 2 Nil, 3 two, 0 ten.
    Seat 0's spades win every trick: 13 tricks. NS: contract 10 made with 3
    overtricks (103) and seat 2's Nil made (100) = 203, 3 bags, a Boston. EW: seat
    1's Nil made (100), seat 3's contract of 2 set (-20) = 80. Hand 2 is dealt and
    seat 2 (a Nil bidder... of the last hand) falsely accuses seat 1 of a renege
    after the bids: NS lose. Every number is worked out by hand here."""
    game = Game(Rules.from_preset("estandar"), first_dealer=0)
    game.deal(one_suit_deal())
    for bid in (0, 0, 2, 10):
        game.bid(bid)
    play_first_legal(game)
    assert game.scores == [203, 80]
    game.next_hand()
    game.deal(one_suit_deal())
    for bid in (3, 3, 3, 3):
        game.bid(bid)
    game.accuse(2, 1)
    return rebuild(game_record(game))  # through the record, as the club reads games


def test_known_record_hand_computed() -> None:
    stats = seat_statistics(known_game())
    both = {"games": 1, "hands": 1, "bostons": 0}
    expected = [
        SeatStats(**both | {"contracts": 1, "contracts_made": 1, "tricks_over": 3, "bags": 3,
                            "bostons": 1, "points": 203}),
        SeatStats(**both | {"won": 1, "nil_bid": 1, "nil_made": 1, "points": 80,
                            "reneges_accused": 1}),
        SeatStats(**both | {"nil_bid": 1, "nil_made": 1, "bags": 3, "bostons": 1,
                            "points": 203}),
        SeatStats(**both | {"won": 1, "contracts": 1, "tricks_under": 2, "points": 80}),
    ]  # fmt: skip
    assert stats == expected


def test_places_of_a_false_accusation() -> None:
    game = known_game()
    assert game.result is not None and game.result.reason == "false_accusation"
    assert side_places(game) == [2, 1]


def test_blind_nil_and_individual_hand_computed() -> None:
    """Three players (17 cards each, the 2 of clubs out): seat 0 holds 13 spades
    and 4 hearts. Seat 1 bids blind Nil (cien-style option), seat 2 bids 4, seat 0
    bids 13: seat 0 takes at least its 13 spade tricks."""
    rules = Rules.from_preset("estandar", players=3, blind_nil=True, renege="prevented")
    game = Game(rules, first_dealer=0)
    hands = ("AKQJT98765432.AKQJ..", ".T98765432.AKQJT987.", "..65432.AKQJT9876543")
    game.deal(deal_of(*hands))
    from espadas.engine import BLIND_NIL

    game.bid(BLIND_NIL)  # seat 1, before looking
    game.bid(4)  # seat 2
    game.bid(13)  # seat 0
    play_first_legal(game)
    tricks = game.hands[0].tricks
    stats = seat_statistics(rebuild(game_record(game)))
    assert stats[1].blind_nil_bid == 1 and stats[1].nil_bid == 0
    assert stats[1].blind_nil_made == int(tricks[1] == 0)
    assert stats[0].contracts == 1 and stats[0].contracts_made == int(tricks[0] >= 13)
    assert stats[0].tricks_over == max(0, tricks[0] - 13)
    assert stats[2].contracts == 1 and stats[2].tricks_under == max(0, 4 - tricks[2])
    assert [s.points for s in stats] == game.scores


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.sampled_from([3, 4, 5, 6]), seed=st.integers(0))
def test_sums_any_game_respects(preset: str, players: int, seed: int) -> None:
    """Whatever the game: points are the side's final score, made never exceeds
    bid, a seat's contracts and Nils are at most its hands, one winner side."""
    options = {} if players == 4 else {"players": players, "renege": "prevented"}
    rules = Rules.from_preset(preset, **options)
    game = play_random(rules, seed, max_hands=4).game
    stats = seat_statistics(game)
    for seat, one in enumerate(stats):
        side = rules.side_of(seat)
        assert one.points == game.scores[side]
        assert one.contracts_made <= one.contracts
        assert one.nil_made <= one.nil_bid and one.blind_nil_made <= one.blind_nil_bid
        assert one.contracts + one.nil_bid + one.blind_nil_bid == one.hands == len(game.scored)
        assert one.reneges_proven <= one.reneges_accused
        assert set(one.as_dict()) == set(STAT_FIELDS)
    if game.result is not None:
        assert sum(s.won for s in stats) == len(rules.seats_of(game.result.winner))
