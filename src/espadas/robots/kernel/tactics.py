"""What the play-out policy weighs, every hand known: how likely a card is to win
later, whether a card in the trick holds against the seats still to play, which
card to shed or throw away, and what each side still needs for its contract."""

from __future__ import annotations

import numpy as np

from espadas.engine.cardset import SPADES
from espadas.robots.kernel.cards import (
    above,
    beating,
    can_beat,
    highest,
    lowest,
    popcount,
    suit_mask,
)
from espadas.robots.kernel.jit import jit
from espadas.robots.kernel.seats import NO_PARTNER


@jit
def card_value(card: int, others: int) -> float:
    """Roughly the chance that ``card`` takes a trick later: few cards above it."""
    higher = popcount(others & above(card))
    if card >= 39:
        return max(0.25, 1.0 - 0.3 * higher)
    return max(0.0, 1.0 - 0.45 * higher)


@jit
def holds(
    card: int, led: int, hands: np.ndarray, first: int, count: int, n: int, threat: np.ndarray
) -> bool:
    """Whether ``card``, best in the trick, is beaten by none of the ``count`` seats
    from ``first`` on that try to win tricks (``threat``)."""
    for i in range(count):
        s = (first + i) % n
        if threat[s] and can_beat(hands[s], card, led):
            return False
    return True


@jit
def dump(cards: int, led: int, others: int) -> int:
    """The card to shed among ``cards`` (none of which wins now): the highest of the
    suit led, else the one most likely to win later."""
    follow = cards & suit_mask(led)
    if follow:
        return highest(follow)
    best = -1
    best_v = -1.0
    m = cards
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        v = card_value(c, others) * 100.0 + c % 13
        if v > best_v:
            best_v = v
            best = c
    return best


@jit
def discard(cards: int, hand: int, others: int) -> int:
    """The card to throw away when void and not trumping: the least valuable, from a
    short suit when holding spades, else from a long one."""
    has_spades = (hand & SPADES) != 0
    best = -1
    best_v = 1e18
    m = cards
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        v = card_value(c, others)
        if c >= 39:
            v += 1.0
        length = popcount(hand & suit_mask(c // 13))
        v += 0.05 * length if has_spades else -0.05 * length
        v = v * 100.0 + (c % 13) * 0.01
        if v < best_v:
            best_v = v
            best = c
    return best


@jit
def low_card(legal: int, hand: int, best: int, led: int, others: int) -> int:
    """A card that does not try to win: the lowest of the suit led, else a discard."""
    follow = legal & suit_mask(led)
    if follow:
        return lowest(follow)
    unders = legal & ~beating(best, led)
    if unders:
        return discard(unders, hand, others)
    return lowest(legal)


@jit
def side_need(seat: int, bids: np.ndarray, tricks: np.ndarray, partner: np.ndarray) -> int:
    """The tricks ``seat``'s side still needs for its contract (bids other than Nil)."""
    need = 0
    if bids[seat] > 0:
        need += bids[seat] - tricks[seat]
    mate = partner[seat]
    if mate != NO_PARTNER and bids[mate] > 0:
        need += bids[mate] - tricks[mate]
    return need


@jit
def side_contract(seat: int, bids: np.ndarray, partner: np.ndarray) -> int:
    """The tricks ``seat``'s side bid (Nil bids count 0)."""
    contract = max(0, int(bids[seat]))
    mate = partner[seat]
    if mate != NO_PARTNER:
        contract += max(0, int(bids[mate]))
    return contract
