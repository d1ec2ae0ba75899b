"""Shared helpers for the engine tests.

Everything that checks the engine here is written from RULES.md on its own:
the scorer, the trick winner, the legal bids and plays, the renege finder.
None of it calls the engine's scoring or legality code, so that a test which
compares the two catches a mistake in either.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from espadas.engine import (
    BLIND_NIL,
    CARDS,
    DECK,
    OPTIONS,
    PRESETS,
    Abandon,
    Accuse,
    Action,
    Bid,
    BidValue,
    Card,
    CardSet,
    Deal,
    Game,
    InvalidRules,
    Look,
    NextHand,
    Play,
    PlayerView,
    Rules,
    Suit,
    Timeout,
)
from espadas.engine.record import game_record

SPADE = Suit.SPADES
CLUB = Suit.CLUBS
RUNNING = ("bidding", "playing", "hand_end")

# --------------------------------------------------------------------------
# Deals written as text


def deal_of(*hands: str) -> tuple[int, ...]:
    """A deal from one PBN hand per seat."""
    return tuple(int(CardSet.parse(h)) for h in hands)


def cards(text: str) -> list[Card]:
    """``"AS KH 2C"`` → cards."""
    return [Card.parse(t) for t in text.split()]


def removed_cards(players: int) -> set[Card]:
    """The cards RULES.md §1 takes out of the deck for ``players`` (read from the text)."""
    names = {3: "2C", 4: "", 5: "2C 2D", 6: "2C 2D 2H 2S"}[players]
    return set(cards(names))


def deck_for(players: int) -> list[Card]:
    gone = removed_cards(players)
    return [c for c in CARDS if c not in gone]


def hand_size_for(players: int) -> int:
    return {3: 17, 4: 13, 5: 10, 6: 8}[players]


def seat_side(rules: Rules, seat: int) -> int:
    return seat % 2 if rules.partnerships else seat


def side_seats(rules: Rules, side: int) -> list[int]:
    return [s for s in range(rules.players) if seat_side(rules, s) == side]


def n_sides(rules: Rules) -> int:
    return 2 if rules.partnerships else rules.players


# --------------------------------------------------------------------------
# An independent scorer (RULES.md §6)

BIG_FROM = {3: 10, 4: 8, 5: 7, 6: 6}


@dataclass(frozen=True)
class Expected:
    points: list[int]
    bags: list[int]


def expected_score(
    rules: Rules,
    bids: Sequence[BidValue],
    tricks: Sequence[int],
    bags_before: Sequence[int],
) -> Expected:
    """Points of one hand per side and bags after it. ``bids`` by seat: 0 = Nil,
    ``"blind_nil"`` for a blind nil; ``tricks`` by seat."""
    points: list[int] = []
    bags_after: list[int] = []
    for side in range(n_sides(rules)):
        seats = side_seats(rules, side)
        bidders = [s for s in seats if bids[s] not in (0, BLIND_NIL)]
        nils = [s for s in seats if s not in bidders]
        contract = sum(int(bids[s]) for s in bidders)
        taken = sum(tricks[s] for s in bidders)
        total = 0
        new_bags = 0
        for s in nils:
            worth = 200 if bids[s] == BLIND_NIL else 100
            total += worth if tricks[s] == 0 else -worth
            if not rules.quicksand:
                # each trick of a failed Nil is a bag worth one point
                total += tricks[s]
                new_bags += tricks[s]
        if contract:
            over = taken - contract
            if over < 0:
                total -= 10 * (contract - taken) if rules.quicksand else 10 * contract
            else:
                if rules.quicksand:
                    total += 10 * contract - 10 * over
                else:
                    total += 10 * contract + over
                    new_bags += over
                if rules.bonuses:
                    if over == 0 and contract in (1, 2) and rules.players in (3, 4):
                        total += 20
                    if contract > BIG_FROM[rules.players]:
                        total += 10 * (contract - BIG_FROM[rules.players])
        bag_count = bags_before[side] + new_bags
        if rules.bags_reset:
            if bag_count >= 10:
                total -= 100
                bag_count = 0
        else:
            total -= 100 * (bag_count // 10)
            bag_count %= 10
        points.append(total)
        bags_after.append(bag_count)
    return Expected(points, bags_after)


# --------------------------------------------------------------------------
# Independent trick and legality rules (RULES.md §3, §4, §5)


def trick_winner(leader: int, played: Sequence[int], players: int) -> int:
    """The seat that wins a complete trick led by ``leader``."""
    led = Card(played[0]).suit

    def strength(i: int) -> tuple[int, int]:
        c = Card(played[i])
        if c.suit == SPADE:
            return (2, c.rank)
        if c.suit == led:
            return (1, c.rank)
        return (0, 0)

    best = max(range(len(played)), key=strength)
    return (leader + best) % players


def forced_first_card(rules: Rules) -> Card | None:
    """The card that opens every hand with ``first_lead = two_of_clubs``."""
    if rules.first_lead != "two_of_clubs":
        return None
    clubs = [c for c in deck_for(rules.players) if c.suit == CLUB]
    return min(clubs, key=lambda c: c.rank)


_SUITS = tuple("CDHS".index(str(Card(card))[1]) for card in range(52))
"""Each card's suit read from its text (FORMATS.md suit letters), not from the
engine's arithmetic: read once, looked up at every step of the random games."""


def _suit(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades (RULES.md §1; FORMATS.md suit letters)."""
    return _SUITS[card]


def expected_proper(
    rules: Rules, held: Iterable[int], hand_plays: Sequence[int], trick: Sequence[int]
) -> set[Card]:
    """Cards a player may play without reneging. ``hand_plays``: every card played
    in this hand so far; ``trick``: the cards of the trick in progress."""
    mine = {Card(c) for c in held}
    non_spades = {c for c in mine if _suit(c) != SPADE}
    first_trick = len(hand_plays) < rules.players
    if not trick:
        forced = forced_first_card(rules)
        if first_trick and forced is not None:
            return {forced}
        broken = any(_suit(c) == SPADE for c in hand_plays)
        if not broken and non_spades:
            return non_spades
        return mine
    led = _suit(trick[0])
    follow = {c for c in mine if _suit(c) == led}
    if follow:
        return follow
    if first_trick and rules.spades_in_first_trick == "forbidden" and non_spades:
        return non_spades
    return mine


def expected_accepted(
    rules: Rules, held: Iterable[int], hand_plays: Sequence[int], trick: Sequence[int]
) -> set[Card]:
    """Cards the table accepts: the proper ones, plus reneges where renege is allowed
    (the lead rule and the first-trick spade rule still hold)."""
    proper = expected_proper(rules, held, hand_plays, trick)
    if rules.renege != "allowed" or not trick:
        return proper
    mine = {Card(c) for c in held}
    non_spades = {c for c in mine if _suit(c) != SPADE}
    first_trick = len(hand_plays) < rules.players
    led = _suit(trick[0])
    if first_trick and rules.spades_in_first_trick == "forbidden" and led != SPADE and non_spades:
        return non_spades
    return mine


def expected_bids(
    rules: Rules, bids: Sequence[int | None], seat: int, looked: bool
) -> list[BidValue]:
    """The bids ``seat`` may make now; ``bids`` by seat (None: not yet, 0: Nil)."""
    made = [b for b in bids if b is not None]
    last = len(made) == rules.players - 1
    out: list[BidValue] = []
    for value in range(hand_size_for(rules.players) + 1):
        if rules.suicide:
            partner = bids[(seat + 2) % 4]
            if partner is not None and partner != 0 and value != 0:
                continue
            if value in (1, 2, 3):
                continue
        if rules.no_hell and last and sum(made) + value == rules.hand_size:
            continue
        out.append(value)
    if rules.blind_nil and not looked and 0 in out:
        out.append(BLIND_NIL)
    return out


def bids_by_seat(dealer: int, players: int, bid_order: Sequence[BidValue]) -> list[BidValue]:
    """Bids in bidding order (from the dealer's left) → bids by seat."""
    out: list[BidValue] = [0] * players
    for i, b in enumerate(bid_order):
        out[(dealer + 1 + i) % players] = b
    return out


def seats_of_plays(
    leaders: Sequence[int], plays: Sequence[int], players: int
) -> list[tuple[int, int]]:
    """(seat, card) for each play, from each trick's leader."""
    out = []
    for i, c in enumerate(plays):
        leader = leaders[i // players]
        out.append(((leader + i % players) % players, c))
    return out


def reneges_in(
    deal: Sequence[int], plays_with_seats: Sequence[tuple[int, int]], players: int
) -> list[tuple[int, int]]:
    """(play index, seat) of each failure to follow suit while holding the suit led."""
    held = [set(CardSet(m)) for m in deal]
    out: list[tuple[int, int]] = []
    for i, (seat, c) in enumerate(plays_with_seats):
        if i % players:
            led = Card(plays_with_seats[i - i % players][1]).suit
            card = Card(c)
            if card.suit != led and any(h.suit == led for h in held[seat]):
                out.append((i, seat))
        held[seat].discard(Card(c))
    return out


# --------------------------------------------------------------------------
# Rules drawn at random

OPTION_VALUES: dict[str, list[Any]] = {
    "target": [50, 100, 150, 250, 500],
    "mercy": [None, -50, -100, -200],
    "first_dealer": ["creator", "random"],
    "blind_nil": [True, False],
    "bags_reset": [True, False],
    "first_lead": ["any", "two_of_clubs"],
    "spades_in_first_trick": ["allowed", "forbidden"],
    "renege": ["allowed", "prevented"],
    "players": [3, 4, 5, 6],
    "partnerships": [True, False],
    "no_hell": [True, False],
    "suicide": [True, False],
    "quicksand": [True, False],
    "bonuses": [True, False],
}
assert set(OPTION_VALUES) == set(OPTIONS), "a new option needs values here"


def _repair(code: str, overrides: dict[str, Any], forced: set[str]) -> bool:
    """Changes one option that the forced ones do not fix, so that the combination
    RULES.md refuses (``code``) goes away. False when it cannot."""
    fixes: dict[str, list[dict[str, Any]]] = {
        "renege_individual": [{"renege": "prevented"}, {"players": 4, "partnerships": True}],
        "suicide": [{"suicide": False}, {"players": 4, "partnerships": True}],
        "suicide_no_hell": [{"suicide": False}, {"no_hell": False}],
        "partnerships": [{"partnerships": False}, {"players": 4}],
    }
    for fix in fixes.get(code, []):
        if not forced & set(fix) and any(overrides.get(k) != v for k, v in fix.items()):
            overrides.update(fix)
            return True
    return False


@st.composite
def rule_sets(
    draw: st.DrawFn,
    presets: Sequence[str] = PRESETS,
    force: dict[str, Any] | None = None,
    repair: bool = False,
) -> Rules:
    """A preset and a random set of option overrides that the engine accepts. Refused
    combinations are dropped (``assume``), or with ``repair`` mended by changing an
    option that ``force`` does not set."""
    preset = draw(st.sampled_from(list(presets)))
    overrides: dict[str, Any] = {}
    for name in OPTIONS:
        if draw(st.integers(0, 2)) == 0:
            overrides[name] = draw(st.sampled_from(OPTION_VALUES[name]))
    forced = set(force or {})
    overrides.update(force or {})
    for _ in range(6):
        try:
            return Rules.from_preset(preset, **overrides)
        except InvalidRules as exc:
            if not (repair and _repair(exc.code, overrides, forced)):
                break
    assume(False)
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------
# A random player and the log of what it did


@dataclass
class Log:
    """A game driven at random, with every action it took (deals included)."""

    game: Game
    first_dealer: int
    actions: list[Action] = field(default_factory=list)


def apply_actions(rules: Rules, first_dealer: int, actions: Iterable[Action]) -> Game:
    """A game without an rng that takes the same actions (deals included)."""
    game = Game(rules, first_dealer=first_dealer)
    for action in actions:
        game.apply(action)
    return game


StepCheck = Callable[[Game], None]


def _choose_bid(rng: random.Random, game: Game, legal: list[Action]) -> Action:
    hand = game.hand
    looks = [a for a in legal if isinstance(a, Look)]
    bids = [a for a in legal if isinstance(a, Bid)]
    if looks and rng.random() < 0.7:
        return looks[0]
    blind = [b for b in bids if b.value == BLIND_NIL]
    if blind and rng.random() < 0.3:
        return blind[0]
    plain = [b for b in bids if b.value != BLIND_NIL]
    # mostly sensible bids, so that contracts are sometimes made
    fair = hand.size // game.rules.players + 1
    low = [b for b in plain if isinstance(b.value, int) and b.value <= fair + 1]
    if low and rng.random() < 0.85:
        return rng.choice(low)
    return rng.choice(plain)


def play_random(
    rules: Rules,
    seed: int,
    *,
    max_hands: int = 6,
    max_steps: int | None = None,
    outside_end: bool = True,
    accusations: bool = True,
    check: StepCheck | None = None,
) -> Log:
    """Plays random legal actions from ``Game.new(rules, seed=seed)``: to the end,
    for ``max_hands`` hands, or ``max_steps`` actions. Now and then it accuses
    (renege-allowed games), abandons or lets the turn time out; it confirms the end."""
    rng = random.Random(seed ^ 0x5EED)
    game = Game.new(rules, seed=seed, creator=seed % rules.players)
    log = Log(game, game.dealer)
    log.actions.append(Deal(game.hand.deal))
    renege_game = rules.renege == "allowed"
    proper_bias = rng.choice([0.5, 0.8, 1.0])
    # most games run their course; some end by an abandon, a timeout or an accusation
    chaos = rng.random() < 0.4
    outside_end = outside_end and chaos
    accusations = accusations and chaos and renege_game
    steps = 0
    while game.phase in RUNNING:
        if check is not None:
            check(game)
        if max_steps is not None and steps >= max_steps:
            break
        steps += 1
        roll = rng.random()
        action: Action
        if outside_end and roll < 0.0015 and not game.over:
            action = Abandon(rng.randrange(rules.players))
        elif outside_end and roll < 0.003 and game.to_act is not None:
            action = Timeout(game.to_act)
        elif accusations and 0.003 <= roll < 0.009:
            by = rng.randrange(4)
            action = Accuse(by, (by + rng.choice((1, 3))) % 4)
        else:
            legal = game.legal_actions()
            assert legal, f"no legal action in phase {game.phase}"
            if game.phase == "bidding":
                action = _choose_bid(rng, game, legal)
            elif game.phase == "playing":
                proper = game.hand.proper_plays()
                good = [a for a in legal if isinstance(a, Play) and a.card in proper]
                action = (
                    rng.choice(good) if good and rng.random() < proper_bias else rng.choice(legal)
                )
            else:
                if isinstance(legal[0], NextHand) and len(game.hands) >= max_hands:
                    break
                action = legal[0]
        hands_before = len(game.hands)
        game.apply(action)
        log.actions.append(action)
        if len(game.hands) > hands_before:
            log.actions.append(Deal(game.hand.deal))
    if check is not None:
        check(game)
    return log


def views(game: Game) -> list[PlayerView]:
    return [game.view_for(s) for s in range(game.rules.players)]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare before and after a refused action."""
    return (
        game_record(game),
        views(game),
        game.public_view(),
        game.phase,
        game.to_act,
        list(game.scores),
        list(game.bags),
        game.result,
        game.legal_actions(),
        [(list(h.held), list(h.looked), list(h.reneges)) for h in game.hands],
    )


def full_deck_mask(players: int) -> int:
    gone = 0
    for c in removed_cards(players):
        gone |= c.bit
    return int(DECK) & ~gone


# --------------------------------------------------------------------------
# Explicit games

ALL_RANKS = "AKQJT98765432"


def boston_deal(taker: int) -> tuple[int, ...]:
    """``taker`` holds every spade, the other seats one whole suit each: whoever
    leads, ``taker`` trumps or leads a spade and takes all 13 tricks."""
    others = [f".{ALL_RANKS}..", f"..{ALL_RANKS}.", f"...{ALL_RANKS}"]
    texts = [f"{ALL_RANKS}..." if seat == taker else others.pop(0) for seat in range(4)]
    return deal_of(*texts)


def play_lowest(game: Game) -> None:
    """Everyone plays their lowest proper card until the hand is over."""
    while game.phase == "playing":
        game.play(min(game.hand.proper_plays()))


def bid_all(game: Game, bids_by_seat: Mapping[int, BidValue]) -> None:
    """Each seat bids its value, in turn, until the bidding is over."""
    while game.phase == "bidding":
        seat = game.to_act
        assert seat is not None
        game.bid(bids_by_seat[seat])


def play_hand(game: Game, deal: tuple[int, ...], bids_by_seat: Mapping[int, BidValue]) -> None:
    """Deals, bids and plays a whole hand (lowest proper card each time)."""
    game.deal(deal)
    bid_all(game, bids_by_seat)
    play_lowest(game)


def start(
    rules: Rules,
    deal: tuple[int, ...],
    *,
    dealer: int = 0,
    bids: Mapping[int, BidValue] | None = None,
) -> Game:
    """A game with this deal; with ``bids``, past the bidding."""
    game = Game(rules, first_dealer=dealer)
    game.deal(deal)
    if bids is not None:
        bid_all(game, bids)
    return game


def play_cards(game: Game, text: str) -> None:
    """Plays ``"AH TH 6H 2H"`` in turn."""
    for c in cards(text):
        game.play(c)
