"""The play-out policy: the card a seat plays in a play-out, after the habits of the
rule-based robot ``normal`` (:mod:`espadas.robots.heuristics`) with every hand
known, so that the simulated partner and opponents play as the real ones do. It
reads the position once (who still needs tricks, whose Nil stands, who may be set)
and hands over to a named lead (:mod:`~espadas.robots.kernel.leads`) or follow
(:mod:`~espadas.robots.kernel.follows`). A small share of plays is random so that
play-outs differ."""

from __future__ import annotations

import numpy as np

from espadas.robots.kernel.cards import beating, lowest, next_random, nth_card, popcount, winning
from espadas.robots.kernel.follows import (
    follow_against_nil,
    follow_cover,
    follow_duck,
    follow_own_nil,
    follow_to_win,
)
from espadas.robots.kernel.jit import jit, jit_inline
from espadas.robots.kernel.leads import lead
from espadas.robots.kernel.seats import NO_PARTNER
from espadas.robots.kernel.tactics import side_contract, side_need


@jit_inline
def follow(
    seat: int,
    legal: int,
    hand: int,
    hands: np.ndarray,
    trick: np.ndarray,
    trick_len: int,
    leader: int,
    mate: int,
    alive: np.ndarray,
    threat: np.ndarray,
    others: int,
    n: int,
    win: bool,
    bust_ok: bool,
) -> int:
    """The policy's card when following to ``trick``."""
    later = n - trick_len - 1
    first = (seat + 1) % n
    led = trick[0] // 13
    best, best_at = winning(trick, trick_len)
    best_seat = (leader + best_at) % n
    winners = legal & beating(best, led)
    unders = legal & ~winners
    if alive[seat]:
        return follow_own_nil(legal, unders, led, hands, mate, others, first, later, n)
    if mate != NO_PARTNER and alive[mate]:
        card = follow_cover(
            legal, winners, hand, best, best_seat, led, hands, seat, mate, others, later, n
        )
        if card >= 0:
            return card
    if bust_ok:
        card = follow_against_nil(
            legal, unders, best, best_seat, led, hands, seat, mate, alive, others, later, n
        )
        if card >= 0:
            return card
    if not win:
        return follow_duck(legal, unders, led, hands, others, first, later, n, threat)
    return follow_to_win(
        legal, winners, hand, best, best_seat, led, hands, seat, mate, alive, others,
        first, later, n, threat,
    )  # fmt: skip


@jit
def choose(
    seat: int,
    legal: int,
    hands: np.ndarray,
    trick: np.ndarray,
    trick_len: int,
    leader: int,
    bids: np.ndarray,
    tricks: np.ndarray,
    partner: np.ndarray,
    n: int,
    size: int,
    state: int,
    eps: int,
    threat: np.ndarray,
    alive: np.ndarray,
) -> tuple[int, int]:
    """The policy, after the rule-based robot's habits (:mod:`heuristics`) with every
    hand known: returns (card, new rng state). ``threat`` and ``alive`` are scratch
    arrays of ``n``."""
    count = popcount(legal)
    if count == 1:
        return lowest(legal), state
    state = next_random(state)
    if state % 1000 < eps:
        state = next_random(state)
        return nth_card(legal, state % count), state
    hand = hands[seat]
    mate = partner[seat]
    others = 0
    for s in range(n):
        alive[s] = 1 if bids[s] == 0 and tricks[s] == 0 else 0
        if s != seat:
            others |= hands[s]
    for s in range(n):
        threat[s] = 1 if s != seat and s != mate and not alive[s] else 0
    remaining = size
    for s in range(n):
        remaining -= tricks[s]
    need = side_need(seat, bids, tricks, partner)
    failed_nil = bids[seat] == 0 and tricks[seat] > 0
    win = need > 0 and not failed_nil
    if not win:  # contract made: set the opponents when they can spare few tricks
        for o in range(n):
            if o in (seat, mate) or (partner[o] != NO_PARTNER and partner[o] < o):
                continue
            c_o = side_contract(o, bids, partner)
            need_o = side_need(o, bids, tricks, partner)
            if c_o <= 0 or need_o <= 0 or remaining - need_o > 2:
                continue
            if 20 * c_o > 2 * (remaining - need_o + 1):
                win = True
                break
    bust_ok = False
    for o in range(n):
        if alive[o] and o != seat and o != mate:
            bust_ok = True
    if win and need >= remaining:
        bust_ok = False
    if trick_len == 0:
        return lead(
            seat, legal, hand, hands, mate, partner, alive, threat, others, n, win, bust_ok,
            state,
        )  # fmt: skip
    card = follow(
        seat, legal, hand, hands, trick, trick_len, leader, mate, alive, threat, others, n,
        win, bust_ok,
    )  # fmt: skip
    return card, state
