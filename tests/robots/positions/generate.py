"""Builds ``basics.json``: positions every competent player gets right.

Run from the repository root (``PYTHONPATH=src``)::

    python tests/robots/positions/generate.py > tests/robots/positions/basics.json

Each position comes from a real game: a deal drawn with a fixed seed, bids made
by ``normal`` (one seat made to bid Nil in the Nil categories), the play so far
made by ``normal`` through the engine, so every card is legal. At each decision
a test per category decides whether the position belongs to it and which cards
are right; those tests only accept positions where the answer is certain:

- the trick-local categories (covering, busting, ducking, the tenth bag, not
  overtaking) take only positions where the card played decides who wins the
  trick whatever the seats still to play hold;
- setting the opponents is checked exactly: every deal of the unseen cards that
  fits the view is searched to the end of the hand (three cards left or fewer).

The file is the reviewed artefact; this script only makes it again the same way
(about 5 minutes on one core). The play so far is ``normal``'s, so a change to
``normal`` changes the file: make it again and hand-check the positions that
differ (``tests/robots/test_positions.py`` checks every one replays legally).
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from espadas.engine import Bid, Game, Play, PlayerView, Rules, deal_cards
from espadas.engine.codec import cards_json
from espadas.robots.bidding import estimate_tricks
from espadas.robots.knowledge import Knowledge
from espadas.robots.normal import NormalRobot
from espadas.robots.protocol import request_for

PLACES = ("leading", "second", "third", "fourth")
PER_CATEGORY = 11


@dataclass
class Found:
    """A position a category accepts."""

    category: str
    game_key: int
    stage: str
    place: str
    request: dict[str, Any]
    deal: list[list[str]]
    right: list[str]
    reason: dict[str, str]


def beats(card: int, best: int) -> bool:
    """Whether ``card`` beats the trick's winning card ``best``."""
    if card // 13 == best // 13:
        return card > best
    return card >= 39


def winning(view: PlayerView) -> tuple[int, int]:
    """(seat, card) winning the trick in progress (which has a card down)."""
    trick = view.trick
    assert trick is not None and trick.cards
    led = trick.cards[0] // 13
    best = max(int(c) for c in trick.cards if c >= 39 or c // 13 == led)
    at = [int(c) for c in trick.cards].index(best)
    return (trick.leader + at) % view.rules.players, best


def names(cards: list[int]) -> list[str]:
    return cards_json(sorted(cards, reverse=True))


def side_tricks(view: PlayerView, side: int) -> int:
    return sum(view.tricks_taken[s] for s in view.rules.seats_of(side))


def stage_of(view: PlayerView) -> str:
    done = len(view.tricks)
    return "early" if done <= 3 else "middle" if done <= 8 else "late"


def nils(view: PlayerView) -> list[int]:
    return [s for s, b in enumerate(view.bids) if b == 0]


def split(view: PlayerView) -> tuple[int, int, list[int], list[int]]:
    """(winning seat, winning card, cards that beat it, cards that do not)."""
    who, best = winning(view)
    proper = [int(c) for c in view.proper_plays]
    up = [c for c in proper if beats(c, best)]
    down = [c for c in proper if not beats(c, best)]
    return who, best, up, down


def boss_spade(view: PlayerView) -> bool:
    """Whether the seat holds a spade that no unseen spade beats: a trick it must take."""
    k = Knowledge(view)
    spades = k.hand >> 39
    if not spades:
        return False
    top = spades.bit_length() - 1 + 39
    return not k.unseen >> (top + 1)


def sure_winner(view: PlayerView, card: int) -> bool:
    """Whether ``card`` wins the trick in progress whatever the seats after us hold."""
    k = Knowledge(view)
    trick = view.trick
    assert trick is not None
    n = view.rules.players
    suit = card // 13
    higher = ((1 << (13 * (suit + 1))) - 1) & ~((1 << (card + 1)) - 1)
    if suit != 3:
        higher |= 0xFFF8000000000  # a seat out of the suit may trump
    for k_after in range(len(trick.cards) + 1, n):
        seat = (trick.leader + k_after) % n
        if k.possible(seat) & higher:
            return False
    return True


def show(cards: list[int]) -> str:
    return " ".join(names(cards))


# --- the categories -------------------------------------------------------------------


def cover(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """Partner bid Nil, has taken nothing, and its card wins the trick: beat it."""
    seat, rules = view.seat, view.rules
    mate = rules.partner_of(seat)
    assert mate is not None
    place = len(view.trick.cards) if view.trick else 0
    if view.bids[mate] != 0 or view.bids[seat] == 0 or view.tricks_taken[mate] or place < 2:
        return None
    if any(view.bags[s] >= 7 for s in range(rules.sides)):
        return None
    who, best, up, down = split(view)
    if who != mate or not up or not down:
        return None
    card = show([best])
    return up, {
        "en": f"Your partner bid Nil and its {card} is winning the trick: only a card that "
        f"beats it ({show(up)}) saves the Nil.",
        "es": f"Tu compañero pidió Nil y su {card} gana la baza: solo una carta que la "
        f"supere ({show(up)}) salva el Nil.",
    }


def bust(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """An opponent's Nil wins the trick, we play last and our contract is made: duck."""
    seat, rules = view.seat, view.rules
    mine = rules.side_of(seat)
    place = len(view.trick.cards) if view.trick else 0
    if place != 3 or any(view.bids[s] == 0 for s in rules.seats_of(mine)):
        return None
    if side_tricks(view, mine) < view.contract(mine):
        return None
    who, best, up, down = split(view)
    if view.bids[who] != 0 or rules.side_of(who) == mine or view.tricks_taken[who]:
        return None
    partner_bid = view.bids[(who + 2) % 4]
    if not isinstance(partner_bid, int) or partner_bid > 6:
        return None  # the trick they gain cannot make a contract worth the Nil
    if not up or not down:
        return None
    card = show([best])
    return down, {
        "en": f"The opponent who bid Nil is winning with the {card}, you play last and your "
        f"contract is made: play under it ({show(down)}) and the Nil fails.",
        "es": f"El rival que pidió Nil gana con el {card}, juegas el último y tu contrato "
        f"está hecho: juega por debajo ({show(down)}) y el Nil cae.",
    }


def duck(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """We bid Nil and have taken nothing: play a card that cannot win the trick."""
    seat = view.seat
    place = len(view.trick.cards) if view.trick else 0
    if view.bids[seat] != 0 or view.tricks_taken[seat] or place < 1:
        return None
    _, best, up, down = split(view)
    if not up or not down or boss_spade(view):
        return None  # with a spade nobody can beat, the Nil is lost anyway
    if not all(sure_winner(view, c) for c in up):
        return None  # a card that may lose is a way to unload: arguable
    card = show([best])
    return down, {
        "en": f"You bid Nil and the {card} is winning the trick: any card under it "
        f"({show(down)}) keeps the Nil, a higher one risks it.",
        "es": f"Pediste Nil y el {card} gana la baza: cualquier carta por debajo "
        f"({show(down)}) guarda el Nil, una más alta lo arriesga.",
    }


def tenth_bag(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """Both contracts made, the next trick is our tenth bag, an opponent wins: stay under."""
    seat, rules = view.seat, view.rules
    mine = rules.side_of(seat)
    place = len(view.trick.cards) if view.trick else 0
    if place < 2 or nils(view):
        return None
    over = [side_tricks(view, s) - view.contract(s) for s in range(rules.sides)]
    if min(over) < 0:
        return None
    theirs = 1 - mine
    if view.bags[mine] + over[mine] != 9 or view.bags[theirs] + over[theirs] >= 9:
        return None
    who, best, up, down = split(view)
    if rules.side_of(who) == mine or not up or not down or boss_spade(view):
        return None  # a spade nobody can beat takes the tenth bag later anyway
    card = show([best])
    return down, {
        "en": f"Both contracts are made and your side has 9 bags: let the opponents' {card} "
        f"win ({show(down)}) instead of taking the tenth bag.",
        "es": f"Los dos contratos están hechos y tu lado tiene 9 sacos: deja ganar el {card} "
        f"rival ({show(down)}) en vez de llevarte el décimo saco.",
    }


def no_overtake(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """Partner's card wins for certain and our side still needs tricks: do not beat it."""
    seat, rules = view.seat, view.rules
    mine = rules.side_of(seat)
    place = len(view.trick.cards) if view.trick else 0
    if place < 2 or nils(view) or side_tricks(view, mine) >= view.contract(mine):
        return None
    after = view.cards_left[seat] - 1
    if after < 5 or 2 * (view.contract(mine) - side_tricks(view, mine)) > after:
        return None  # late, or needing most tricks left, the lead may be worth a card
    mate = rules.partner_of(seat)
    who, best, up, down = split(view)
    if who != mate or not up or not down:
        return None
    led = view.trick.cards[0] // 13 if view.trick else -1
    if best // 13 != led or any(c // 13 != led for c in up + down):
        return None  # only when we follow suit: a void's choice (ruff or discard) is arguable
    k = Knowledge(view)
    unseen = k.unseen
    for c in up:
        if unseen >> (c + 1) & ((1 << (12 - c % 13)) - 1):
            return None  # only a card that tops its suit is surely wasted on partner's trick
    low, high = max(down), min(up)
    if not unseen & ((1 << high) - 1) & ~((1 << (low + 1)) - 1):
        return None  # nothing unseen between them: after the trick either card is as good
    if led != 3:
        # the higher card we keep must be worth keeping: a suit not yet run out
        suit = ((1 << 13) - 1) << (13 * led)
        opponents = [s for s in range(4) if rules.side_of(s) != mine]
        if (unseen & suit).bit_count() < 3 or any(k.voids[s] & suit for s in opponents):
            return None
    if place == 2:
        # third hand: only if no unseen card of the suit beats partner's card
        higher = ((1 << (13 * (led + 1))) - 1) & ~((1 << (best + 1)) - 1)
        if unseen & higher:
            return None
    card = show([best])
    return down, {
        "en": f"Your partner's {card} wins the trick and your side still needs tricks: "
        f"play under it ({show(down)}) and keep your top card for another trick.",
        "es": f"El {card} de tu compañero gana la baza y a tu lado aún le faltan bazas: "
        f"juega por debajo ({show(down)}) y guarda tu carta más alta para otra baza.",
    }


def set_them(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    """Late in the hand, a card that sets the opponents in every deal that fits the view."""
    seat, rules = view.seat, view.rules
    if view.cards_left[seat] > 3 or nils(view) or any(view.bags[s] >= 7 for s in range(2)):
        return None
    theirs = 1 - rules.side_of(seat)
    need = view.contract(theirs)
    got = side_tricks(view, theirs)
    left = view.cards_left[seat]
    if got >= need or got + left < need:
        return None
    proper = [int(c) for c in view.proper_plays]
    if len(proper) < 2:
        return None
    sure = {c: True for c in proper}  # set with the best play of our side in every deal
    forced = {c: True for c in proper}  # set whatever anyone plays afterwards
    for deal in deals_fitting(view):
        for c in proper:
            if sure[c] and not search(view, deal, c, need, theirs, True):
                sure[c] = False
            if forced[c] and not search(view, deal, c, need, theirs, False):
                forced[c] = False
    right = [c for c in proper if sure[c]]
    if not any(forced.values()) or not right or len(right) == len(proper):
        return None
    return right, {
        "en": f"The opponents need {need - got} of the last {left} tricks: "
        f"{show(right)} sets them whatever the hidden cards are; anything else lets "
        "some deals through.",
        "es": f"A los rivales les faltan {need - got} de las últimas {left} bazas: "
        f"{show(right)} los hace fallar tengan lo que tengan; cualquier otra carta deja "
        "escapar algún reparto.",
    }


CATEGORIES = {
    "cover_partner_nil": cover,
    "bust_opponent_nil": bust,
    "duck_own_nil": duck,
    "tenth_bag": tenth_bag,
    "set_opponents": set_them,
    "no_overtake": no_overtake,
}


KINDS = (
    ("nil", 150, ("cover_partner_nil", "duck_own_nil")),
    ("bust", 500, ("bust_opponent_nil", "cover_partner_nil", "duck_own_nil")),
    ("plain", 900, ("no_overtake",)),
    ("bags", 150, ("tenth_bag",)),
    ("set", 400, ("set_opponents",)),
)
"""The kinds of game played (how the bids are made), how many of each, and the
categories looked for in them."""
BASES = {"nil": 0, "plain": 100_000, "bags": 200_000, "bust": 300_000, "set": 400_000}


# --- exact search for set_them --------------------------------------------------------


def deals_fitting(view: PlayerView) -> Iterator[tuple[int, ...]]:
    """Every deal of the unseen cards to the other seats that fits counts and voids."""
    k = Knowledge(view)
    n = view.rules.players
    others = [s for s in range(n) if s != view.seat]
    unseen = [c for c in range(52) if k.unseen >> c & 1]

    def place(i: int, rest: list[int], hands: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(others):
            yield tuple(hands)
            return
        s = others[i]
        for combo in itertools.combinations(rest, view.cards_left[s]):
            mask = sum(1 << c for c in combo)
            if mask & k.voids[s]:
                continue
            h = list(hands)
            h[s] = mask
            yield from place(i + 1, [c for c in rest if not mask >> c & 1], h)

    start = [0] * n
    start[view.seat] = int(view.held or 0)
    yield from place(0, unseen, start)


def proper(held: int, led: int, leading: bool, broken: bool) -> list[int]:
    cards = [c for c in range(52) if held >> c & 1]
    if not leading:
        same = [c for c in cards if c // 13 == led]
        return same or cards
    if broken:
        return cards
    return [c for c in cards if c < 39] or cards


def search(
    view: PlayerView, deal: tuple[int, ...], card: int, need: int, theirs: int, ours_best: bool
) -> bool:
    """Whether the opponents are set after ``card`` in ``deal``: our side (``ours_best``)
    chooses its best cards, everyone else (and our side when not ``ours_best``) the
    worst for us."""
    rules = view.rules
    n = rules.players
    mine = rules.side_of(view.seat)
    trick = view.trick
    assert trick is not None

    @functools.cache
    def go(held: tuple[int, ...], leader: int, cards: tuple[int, ...], got: int, br: bool) -> bool:
        if got >= need:
            return False
        if all(h == 0 for h in held):
            return True
        seat = (leader + len(cards)) % n
        led = cards[0] // 13 if cards else -1
        results = (
            after(held, seat, c, leader, cards, got, br)
            for c in proper(held[seat], led, not cards, br)
        )
        if ours_best and rules.side_of(seat) == mine:
            return any(results)
        return all(results)

    def after(
        held: tuple[int, ...],
        seat: int,
        c: int,
        leader: int,
        cards: tuple[int, ...],
        got: int,
        br: bool,
    ) -> bool:
        h = list(held)
        h[seat] &= ~(1 << c)
        now = (*cards, c)
        br = br or c >= 39
        if len(now) == n:
            led = now[0] // 13
            best = max(x for x in now if x >= 39 or x // 13 == led)
            winner = (leader + now.index(best)) % n
            won = got + (rules.side_of(winner) == theirs)
            return go(tuple(h), winner, (), won, br)
        return go(tuple(h), leader, now, got, br)

    got = side_tricks(view, theirs)
    return after(
        deal,
        view.seat,
        card,
        trick.leader,
        tuple(int(c) for c in trick.cards),
        got,
        view.spades_broken,
    )


# --- games ------------------------------------------------------------------------------


def games(kind: str, key: int) -> Iterator[tuple[Game, list[list[str]]]]:
    """The positions (game at a decision) of one game of ``kind``."""
    rng = random.Random(key)
    preset = "pagat" if key % 3 == 0 else "estandar"
    rules = Rules.from_preset(preset)
    game = Game(rules, first_dealer=rng.randrange(4))
    game.scores = [rng.randrange(0, 30) * 10 for _ in range(2)]
    game.bags = [rng.randint(0, 4) for _ in range(2)]
    if kind == "bags":
        game.bags[key % 2] = rng.randint(6, 9)
    seats = list(range(4))
    rng.shuffle(seats)
    game.deal(deal_cards(rules, rng, game.dealer))
    hands = [int(h) for h in game.hand.deal]
    deal = [names([c for c in range(52) if h >> c & 1]) for h in hands]
    robots = [NormalRobot(random.Random(key * 10 + s)) for s in range(4)]
    nil_seat = -1
    if kind == "nil":
        nil_seat = min(range(4), key=lambda s: estimate_tricks(hands[s], rules))
    elif kind == "bust":
        nil_seat = rng.randrange(4)
    shift = {"bust": -2, "bags": -2, "set": 2}.get(kind, 0)
    while game.phase == "bidding":
        s = game.to_act
        assert s is not None
        view = game.view_for(s)
        if s == nil_seat and Bid(0) in view.legal:
            game.apply(Bid(0))
            continue
        action = robots[s].act(view)
        assert isinstance(action, Bid) and isinstance(action.value, int)
        value = action.value
        if kind != "nil" and value == 0:
            value = 1
        elif value > 0:
            value = min(rules.hand_size, max(1, value + shift))
        game.apply(Bid(value))
    while game.phase == "playing":
        s = game.to_act
        assert s is not None
        view = game.view_for(s)
        if len(view.proper_plays) >= 2:
            yield game, deal
        action = robots[s].act(view)
        assert isinstance(action, Play)
        game.apply(action)


def collect() -> list[Found]:
    found: list[Found] = []
    for kind, count, tests in KINDS:
        for key in range(count):
            seed = BASES[kind] + key
            for game, deal in games(kind, seed):
                s = game.to_act
                assert s is not None
                view = game.view_for(s)
                for category in tests:
                    test = CATEGORIES[category]
                    hit = test(view)
                    if hit is None:
                        continue
                    right, reason = hit
                    place = PLACES[len(view.trick.cards) if view.trick else 0]
                    found.append(
                        Found(
                            category,
                            seed,
                            stage_of(view),
                            place,
                            request_for(view),
                            deal,
                            names(right),
                            reason,
                        )
                    )
    return found


def choose(found: list[Found]) -> list[Found]:
    """``PER_CATEGORY`` positions per category, spread over stages, places and seats,
    at most one per game and category."""
    out: list[Found] = []
    for category in CATEGORIES:
        pool = [f for f in found if f.category == category]
        buckets: dict[tuple[str, str], list[Found]] = {}
        for f in pool:
            buckets.setdefault((f.stage, f.place), []).append(f)
        picked: list[Found] = []
        used: set[int] = set()
        seats: dict[int, int] = {}
        while len(picked) < PER_CATEGORY and any(buckets.values()):
            for key in sorted(buckets):
                items = buckets[key]
                items.sort(key=lambda f: (seats.get(f.request["seat"], 0), f.game_key))
                while items and items[0].game_key in used:
                    items.pop(0)
                if items and len(picked) < PER_CATEGORY:
                    f = items.pop(0)
                    picked.append(f)
                    used.add(f.game_key)
                    seats[f.request["seat"]] = seats.get(f.request["seat"], 0) + 1
        out += picked
    return out


def main() -> int:
    chosen = choose(collect())
    positions = []
    counters: dict[str, int] = {}
    for f in chosen:
        counters[f.category] = counters.get(f.category, 0) + 1
        positions.append(
            {
                "id": f"{f.category}-{counters[f.category]:02d}",
                "category": f.category,
                "stage": f.stage,
                "place": f.place,
                "deal": f.deal,
                "request": f.request,
                "right": f.right,
                "reason": f.reason,
            }
        )
    doc = {"format": "espadas-positions/1", "positions": positions}
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    for category in CATEGORIES:
        print(category, counters.get(category, 0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
