"""The play-out policy's follows, after ``normal``'s habits with every hand known:
its own Nil (the highest card that loses), the partner's Nil (cover it), an
opponent's Nil (keep it winning, the bar low before it), ducking once the
contract is made, and winning tricks (cheaply: second hand low, third hand high,
never overtaking a partner who holds the trick).

Each takes the seat's legal cards, split into ``winners`` (those that beat
``best``, the card winning so far, played by ``best_seat``) and ``unders``; ``led``
is the suit led, ``later`` the number of seats still to play after this one
(from ``first`` on), ``others`` every card the other seats hold, ``threat[s]`` the
opponents that try to win tricks and ``alive[s]`` the seats whose Nil stands."""

from __future__ import annotations

import numpy as np

from espadas.robots.kernel.cards import (
    beats_card,
    can_beat,
    forced_to_win,
    highest,
    lowest,
    suit_mask,
)
from espadas.robots.kernel.jit import jit_inline
from espadas.robots.kernel.seats import NO_PARTNER
from espadas.robots.kernel.tactics import card_value, dump, holds, low_card


@jit_inline
def follow_own_nil(
    legal: int,
    unders: int,
    led: int,
    hands: np.ndarray,
    mate: int,
    others: int,
    first: int,
    later: int,
    n: int,
) -> int:
    """Its own Nil: the highest card that loses; forced to win, the card most likely
    to be overtaken (the most dangerous when last)."""
    if unders:
        return dump(unders, led, others)
    if later == 0:
        return dump(legal, -1, others)
    chosen = -1
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        overtaken = False
        for i in range(later):
            s = (first + i) % n
            if s == mate:
                if can_beat(hands[s], c, led):
                    overtaken = True
            elif forced_to_win(hands[s], c, led):
                overtaken = True
        if overtaken:
            chosen = c
    return chosen if chosen >= 0 else highest(legal)


@jit_inline
def follow_cover(
    legal: int,
    winners: int,
    hand: int,
    best: int,
    best_seat: int,
    led: int,
    hands: np.ndarray,
    seat: int,
    mate: int,
    others: int,
    later: int,
    n: int,
) -> int:
    """The partner's Nil: overtake its winning card, or keep it from being forced to
    win when it plays after; -1 when it is in no danger."""
    mate_later = (mate - seat) % n <= later
    if not mate_later:
        if best_seat == mate and winners:
            return lowest(winners)
        return -1
    lowc = low_card(legal, hand, best, led, others)
    bar = lowc if beats_card(lowc, best, led) else best
    if not forced_to_win(hands[mate], bar, led):
        return -1
    chosen = -1
    chosen_v = 1e18
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        bar = c if beats_card(c, best, led) else best
        risk = 1.0 if forced_to_win(hands[mate], bar, led) else 0.0
        v = 4.0 * risk + 0.15 * card_value(c, others)
        if v < chosen_v - 1e-9:
            chosen_v = v
            chosen = c
    return chosen


@jit_inline
def follow_against_nil(
    legal: int,
    unders: int,
    best: int,
    best_seat: int,
    led: int,
    hands: np.ndarray,
    seat: int,
    mate: int,
    alive: np.ndarray,
    others: int,
    later: int,
    n: int,
) -> int:
    """An opponent's Nil: stay under its winning card, or keep the bar low when it
    plays after and may be forced to win; -1 when this trick cannot hurt it."""
    for o in range(n):
        if not alive[o] or o in (seat, mate):
            continue
        o_later = 0 < (o - seat) % n <= later
        if not o_later:
            if best_seat == o and unders:
                return dump(unders, led, others)
            continue
        if not forced_to_win(hands[o], best, led):
            continue
        if unders:
            return dump(unders, led, others)
        return lowest(legal)
    return -1


@jit_inline
def follow_duck(
    legal: int,
    unders: int,
    led: int,
    hands: np.ndarray,
    others: int,
    first: int,
    later: int,
    n: int,
    threat: np.ndarray,
) -> int:
    """The contract made: the highest card that loses; when every card wins, one
    that a later opponent overtakes (the most valuable when none can)."""
    if unders:
        return dump(unders, led, others)
    any_later_threat = False
    for i in range(later):
        if threat[(first + i) % n]:
            any_later_threat = True
    if not any_later_threat:
        return dump(legal, -1, others)
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        if not holds(c, led, hands, first, later, n, threat):
            return c
    return lowest(legal)


@jit_inline
def follow_to_win(
    legal: int,
    winners: int,
    hand: int,
    best: int,
    best_seat: int,
    led: int,
    hands: np.ndarray,
    seat: int,
    mate: int,
    alive: np.ndarray,
    others: int,
    first: int,
    later: int,
    n: int,
    threat: np.ndarray,
) -> int:
    """Tricks needed: win cheaply (the lowest card that holds), second hand low,
    third hand high, and never overtake the partner's sure winner."""
    lowc = low_card(legal, hand, best, led, others)
    if mate != NO_PARTNER and best_seat == mate:
        if not winners or holds(best, led, hands, first, later, n, threat):
            return lowc
        m = winners
        while m:
            low = m & -m
            m ^= low
            c = highest(low)
            if holds(c, led, hands, first, later, n, threat):
                return c
        return lowc
    if not winners:
        return lowc
    any_later_threat = False
    for i in range(later):
        if threat[(first + i) % n]:
            any_later_threat = True
    if not any_later_threat:
        return lowest(winners)
    m = winners
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        if holds(c, led, hands, first, later, n, threat):
            return c
    if mate != NO_PARTNER and (mate - seat) % n <= later and not alive[mate]:
        return lowc  # second hand low: the partner may still win it
    same = winners & suit_mask(led)
    if same:
        return highest(same)  # third hand high
    return lowc
