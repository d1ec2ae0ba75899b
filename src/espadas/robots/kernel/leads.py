"""The play-out policy's leads, after ``normal``'s habits with every hand known: its
own Nil (the lowest rank), the partner's Nil (cards the partner can play under),
an opponent's Nil (low into it), ducking once the contract is made, and winning
tricks (draw trumps, cash winners, lead to the partner's ruff, shorten, strength).

Each takes the seat's legal cards and the hands; ``others`` is every card the
other seats hold, ``threat[s]`` marks the opponents that try to win tricks,
``alive[s]`` the seats whose Nil still stands, and ``first`` the seat after this
one."""

from __future__ import annotations

import numpy as np

from espadas.engine.cardset import NON_SPADES, SPADES
from espadas.robots.kernel.cards import (
    above,
    can_beat,
    forced_to_win,
    highest,
    lowest,
    lowest_rank,
    next_random,
    popcount,
    suit_mask,
)
from espadas.robots.kernel.jit import jit_inline
from espadas.robots.kernel.seats import NO_PARTNER
from espadas.robots.kernel.tactics import card_value, holds


@jit_inline
def lead_own_nil(legal: int) -> int:
    """Its own Nil: the card of lowest rank."""
    return lowest_rank(legal)


@jit_inline
def lead_for_partner_nil(
    legal: int,
    hands: np.ndarray,
    mate: int,
    others: int,
    first: int,
    n: int,
    threat: np.ndarray,
    win: bool,
) -> int:
    """The partner's Nil: a card the partner is not forced to beat, that holds the
    trick (more so while tricks are needed)."""
    best = -1
    best_v = 1e18
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        suit = c // 13
        risk = 1.0 if forced_to_win(hands[mate], c, suit) else 0.0
        hold = 1.0 if holds(c, suit, hands, first, n - 1, n, threat) else 0.0
        v = 4.0 * risk + 0.15 * card_value(c, others) * (1.0 - hold)
        if win:
            v -= 0.3 * hold
        if v < best_v - 1e-9:
            best_v = v
            best = c
    return best


@jit_inline
def lead_into_nil(
    legal: int,
    hands: np.ndarray,
    seat: int,
    mate: int,
    partner: np.ndarray,
    alive: np.ndarray,
    others: int,
    n: int,
) -> int:
    """An opponent's Nil: the card most likely to force it to win, unless its
    partner covers; -1 when no lead gives a real chance."""
    best = -1
    best_v = -1e18
    best_p = 0.0
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        suit = c // 13
        total = 0.0
        for o in range(n):
            if not alive[o] or o in (seat, mate):
                continue
            f = 1.0 if forced_to_win(hands[o], c, suit) else 0.0
            om = partner[o]
            if f > 0 and om != NO_PARTNER and not alive[om] and can_beat(hands[om], c, suit):
                first_mate = (om - seat) % n < (o - seat) % n
                f *= 0.2 if first_mate else 0.5
            total += f
        v = total - 0.1 * card_value(c, others)
        if v > best_v:
            best_v = v
            best = c
            best_p = total
    if best_p >= 0.05:
        return best
    return -1


@jit_inline
def lead_duck(legal: int, hands: np.ndarray, first: int, n: int, threat: np.ndarray) -> int:
    """The contract made: the highest card that loses (side suits first)."""
    best = -1
    best_v = 1e18
    m = legal
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        hold = holds(c, c // 13, hands, first, n - 1, n, threat)
        v = (1000.0 if hold else 0.0) + (100.0 if c >= 39 else 0.0) - c % 13
        if v < best_v:
            best_v = v
            best = c
    return best


@jit_inline
def lead_to_win(
    legal: int,
    hand: int,
    hands: np.ndarray,
    mate: int,
    alive: np.ndarray,
    others: int,
    first: int,
    n: int,
    threat: np.ndarray,
    state: int,
) -> tuple[int, int]:
    """Tricks needed: draw trumps, cash winners, lead to the partner's ruff, shorten
    a suit, else lead from strength (ties broken by the rng): (card, rng state)."""
    opp_spades = 0
    any_threat = False
    for o in range(n):
        if threat[o]:
            any_threat = True
            opp_spades = max(opp_spades, popcount(hands[o] & SPADES))
    my_spades = popcount(hand & SPADES)
    spades = legal & SPADES
    if spades and any_threat:
        top = highest(spades)
        if opp_spades > 0 and not others & above(top) and my_spades >= opp_spades + 1:
            return top, state
    cash = -1
    m = legal & NON_SPADES
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        if not others & above(c) and holds(c, c // 13, hands, first, n - 1, n, threat):
            cash = c
    if cash >= 0:
        return cash, state
    if mate != NO_PARTNER and not alive[mate] and hands[mate] & SPADES:
        for suit in range(3):
            mine = legal & suit_mask(suit)
            if mine and not hands[mate] & suit_mask(suit):
                all_void = True
                for o in range(n):
                    if threat[o] and hands[o] & suit_mask(suit):
                        all_void = False
                if not all_void:
                    return lowest(mine), state
    if my_spades >= 2:
        for suit in range(3):
            mine = hand & suit_mask(suit)
            if popcount(mine) == 1 and legal & mine:
                c = lowest(mine)
                if c % 13 < 10 and others & above(c):
                    return c, state
    best = -1
    best_v = -1e18
    for suit in range(4):
        mine = legal & suit_mask(suit)
        if not mine:
            continue
        top = highest(mine)
        card = lowest(mine)
        length = popcount(mine)
        v = 0.3 * length
        higher = popcount(others & above(top))
        if suit == 3:
            v -= 1.5
        elif higher == 1 and top % 13 >= 9:
            if mine & (1 << (top - 1)) and top % 13 >= 10:
                card = top
                v += 1.0
            else:
                v -= 1.5 if length <= 3 else 0.5
        if suit != 3:
            for o in range(n):
                if threat[o] and not hands[o] & suit_mask(suit) and hands[o] & SPADES:
                    v -= 2.0
            if mate != NO_PARTNER and not hands[mate] & suit_mask(suit):
                v += 0.8
        state = next_random(state)
        v += (state % 1000) * 1e-6
        if v > best_v:
            best_v = v
            best = card
    return best, state


@jit_inline
def lead(
    seat: int,
    legal: int,
    hand: int,
    hands: np.ndarray,
    mate: int,
    partner: np.ndarray,
    alive: np.ndarray,
    threat: np.ndarray,
    others: int,
    n: int,
    win: bool,
    bust_ok: bool,
    state: int,
) -> tuple[int, int]:
    """The policy's lead: (card, rng state)."""
    first = (seat + 1) % n
    if alive[seat]:
        return lead_own_nil(legal), state
    if mate != NO_PARTNER and alive[mate]:
        return lead_for_partner_nil(legal, hands, mate, others, first, n, threat, win), state
    if bust_ok:
        card = lead_into_nil(legal, hands, seat, mate, partner, alive, others, n)
        if card >= 0:
            return card, state
    if not win:
        return lead_duck(legal, hands, first, n, threat), state
    return lead_to_win(legal, hand, hands, mate, alive, others, first, n, threat, state)
