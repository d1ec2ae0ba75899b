"""What a robot can know from its view: card memory and inferences.

Everything here is computed from a :class:`~espadas.engine.PlayerView` alone:
the cards played, the cards still unseen, the suits each seat has shown out of,
and how many cards each seat still holds. :func:`sample_deal` draws the unseen
cards into the other hands consistently with that knowledge.

>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=3)
>>> k = Knowledge(game.view_for(1))
>>> k.unseen.bit_count(), k.cards_left
(39, (13, 13, 13, 13))
"""

from __future__ import annotations

import random

from espadas.engine import PlayerView, Trick
from espadas.engine.cardset import FULL, NON_SPADES, SUIT_MASKS


class Knowledge:
    """Card memory of one seat for the hand in progress."""

    __slots__ = (
        "cards_left",
        "hand",
        "n",
        "played",
        "played_by",
        "seat",
        "unseen",
        "view",
        "voids",
    )

    def __init__(self, view: PlayerView) -> None:
        rules = view.rules
        self.view = view
        self.seat = view.seat
        self.n = n = rules.players
        self.hand = int(view.held) if view.held is not None else 0
        self.cards_left = view.cards_left
        played = 0
        played_by = [0] * n
        voids = [0] * n  # suit masks each seat cannot hold
        tricks = list(view.tricks)
        if view.trick is not None:
            tricks.append(view.trick)
        # In renege-allowed games a card off suit may be a renege rather than a void;
        # robots treat it as a void all the same (sample_deal relaxes what it must).
        for trick in tricks:
            led = trick.cards[0].suit if trick.cards else None
            for k, card in enumerate(trick.cards):
                seat = (trick.leader + k) % n
                played |= 1 << card
                played_by[seat] |= 1 << card
                if k == 0:
                    if card >= 39 and not _spades_broken_before(tricks, trick):
                        voids[seat] |= NON_SPADES  # led a spade unbroken: only spades left
                elif led is not None and card // 13 != led:
                    voids[seat] |= SUIT_MASKS[led]  # showed out (or reneged: see below)
        self.played = played
        self.played_by = played_by
        self.voids = voids
        self.unseen = FULL & ~rules.removed & ~played & ~self.hand

    def possible(self, seat: int) -> int:
        """The unseen cards that ``seat`` may still hold."""
        return self.unseen & ~self.voids[seat]


def _spades_broken_before(tricks: list[Trick], trick: Trick) -> bool:
    for t in tricks:
        if t is trick:
            return False
        if any(c >= 39 for c in t.cards):
            return True
    return False


def sample_deal(k: Knowledge, rng: random.Random, tries: int = 20) -> list[int]:
    """The cards each seat holds now, with the unseen cards drawn at random among the
    other seats, respecting their counts and (when possible) their shown voids."""
    others = [s for s in range(k.n) if s != k.seat]
    for attempt in range(tries + 1):
        strict = attempt < tries
        hands = [0] * k.n
        hands[k.seat] = k.hand
        pool = k.unseen
        need = {s: k.cards_left[s] for s in others}
        # Most constrained seats first, so voids are honoured when they can be.
        order = sorted(others, key=lambda s: (k.unseen & ~k.voids[s]).bit_count())
        ok = True
        for s in order:
            allowed = pool & ~k.voids[s] if strict else pool
            cards = bits(allowed)
            if len(cards) < need[s]:
                ok = False
                break
            chosen = rng.sample(cards, need[s])
            mask = 0
            for c in chosen:
                mask |= 1 << c
            hands[s] = mask
            pool &= ~mask
        if ok:
            return hands
    raise AssertionError("unreachable: the last try ignores voids")


def bits(mask: int) -> list[int]:
    """The cards of a mask as plain ints, lowest first (cheaper than iterating a CardSet)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# Helpers for rule-based play: what other seats may hold, and how likely. -----


def above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it (a mask)."""
    return SUIT_MASKS[card // 13] & ~((2 << card) - 1)


def below(card: int) -> int:
    """The cards of ``card``'s suit that rank below it (a mask)."""
    return SUIT_MASKS[card // 13] & ((1 << card) - 1)


def higher_unseen(k: Knowledge, card: int) -> int:
    """The unseen cards of ``card``'s suit above it: the ones another seat may hold."""
    return k.unseen & above(card)


def is_master(k: Knowledge, card: int) -> bool:
    """True when no other seat can hold a higher card of ``card``'s suit: the card
    is the highest unplayed card of its suit but for cards in the seat's own hand."""
    return not k.unseen & above(card)


def known_void(k: Knowledge, seat: int, suit: int) -> bool:
    """True when ``seat`` surely holds no card of ``suit`` (shown out, or all played)."""
    return not k.possible(seat) & SUIT_MASKS[suit]


def may_be_void(k: Knowledge, seat: int, suit: int) -> bool:
    """True when ``seat`` could hold no card of ``suit``: it can fill its hand with
    other cards it may hold."""
    rest = k.possible(seat) & ~SUIT_MASKS[suit]
    return rest.bit_count() >= k.cards_left[seat]


def may_ruff(k: Knowledge, seat: int, suit: int) -> bool:
    """True when ``seat`` could trump a lead of ``suit`` (a side suit): it may be
    void in the suit and may hold a spade."""
    if suit == 3:
        return False
    return may_be_void(k, seat, suit) and bool(k.possible(seat) & SUIT_MASKS[3])


def holding_odds(k: Knowledge, rounds: int = 3) -> list[list[float]]:
    """``odds[seat][card]``: the chance that ``seat`` holds ``card`` now, given the
    view. The seat's own cards are certain; each unseen card is shared among the
    seats that may hold it, weighted so that each seat's expected count matches the
    cards it holds (a few rounds of proportional fitting). An approximation: the
    cards are treated as independent."""
    n = k.n
    odds = [[0.0] * 52 for _ in range(n)]
    for c in bits(k.hand):
        odds[k.seat][c] = 1.0
    others = [s for s in range(n) if s != k.seat]
    poss = {s: k.possible(s) for s in others}
    unseen = bits(k.unseen)
    weight = {s: 1.0 for s in others}
    for _ in range(rounds):
        expected = dict.fromkeys(others, 0.0)
        for c in unseen:
            holders = [s for s in others if poss[s] >> c & 1]
            total = sum(weight[s] for s in holders)
            if total <= 0:
                continue  # only after a renege: the shown voids are not all true
            for s in holders:
                expected[s] += weight[s] / total
        for s in others:
            if expected[s] > 0:
                weight[s] *= k.cards_left[s] / expected[s]
    for c in unseen:
        holders = [s for s in others if poss[s] >> c & 1]
        total = sum(weight[s] for s in holders)
        for s in holders:
            odds[s][c] = weight[s] / total if total > 0 else 0.0
    return odds


def chance_none(row: list[float], mask: int) -> float:
    """The chance that a seat with holding odds ``row`` holds none of ``mask``."""
    p = 1.0
    while mask:
        low = mask & -mask
        p *= 1.0 - row[low.bit_length() - 1]
        mask ^= low
    return p
