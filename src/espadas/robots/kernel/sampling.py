"""Deals of the unseen cards, drawn consistently with what a seat knows, and how well
each explains the cards the other seats played (replayed with the play-out
policy)."""

from __future__ import annotations

import numpy as np

from espadas.robots.kernel.cards import highest, next_random, popcount, proper_mask, winning
from espadas.robots.kernel.jit import jit
from espadas.robots.kernel.policy import choose


@jit
def sample_deals(
    own_seat: int,
    own_hand: int,
    unseen: int,
    voids: np.ndarray,
    need: np.ndarray,
    order: np.ndarray,
    count: int,
    seed: int,
    tries: int,
) -> np.ndarray:
    """``count`` deals (int64[count, n]) of the ``unseen`` cards among the seats in
    ``order`` (most constrained first), ``need[s]`` cards each, avoiding the suits
    ``voids[s]`` they showed out of when possible (after ``tries`` failures, voids
    are ignored); ``own_seat`` holds ``own_hand``. The same algorithm as
    :func:`espadas.robots.knowledge.sample_deal`, compiled."""
    n = need.shape[0]
    out = np.zeros((count, n), dtype=np.int64)
    cards = np.zeros(52, dtype=np.int64)
    state = seed & 0x7FFFFFFF
    for row in range(count):
        for attempt in range(tries + 1):
            strict = attempt < tries
            pool = unseen
            ok = True
            for i in range(order.shape[0]):
                s = order[i]
                allowed = pool & ~voids[s] if strict else pool
                k = 0
                m = allowed
                while m:
                    low = m & -m
                    m ^= low
                    cards[k] = highest(low)
                    k += 1
                want = need[s]
                if k < want:
                    ok = False
                    break
                mask = 0
                for j in range(want):  # a partial Fisher-Yates shuffle
                    state = next_random(state)
                    pick = j + (state >> 8) % (k - j)
                    c = cards[pick]
                    cards[pick] = cards[j]
                    cards[j] = c
                    mask |= 1 << c
                out[row, s] = mask
                pool &= ~mask
            if ok:
                break
        out[row, own_seat] = own_hand
    return out


@jit
def agreement(
    deals: np.ndarray,
    played_by: np.ndarray,
    n: int,
    size: int,
    history: np.ndarray,
    leaders: np.ndarray,
    viewer: int,
    bids: np.ndarray,
    partner: np.ndarray,
    first_forbidden: bool,
    forced0: int,
    miss: np.ndarray,
    seed: int,
) -> np.ndarray:
    """How well each sampled deal explains the cards the other seats played: the hand
    is replayed from its start (each seat's cards now plus those it played), and
    every play by a seat other than ``viewer`` that the play-out policy (without
    random plays) would not have made, nor a card equivalent to it (no card of
    another seat between them), multiplies the deal's weight by ``miss[0, seat]``
    for a lead and ``miss[1, seat]`` for a card that follows.
    ``history`` holds the cards played in order, ``leaders`` the leader of each
    trick (the current one included). Returns float64[rows]."""
    rows = deals.shape[0]
    out = np.ones(rows)
    trick = np.zeros(n, dtype=np.int64)
    hands = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    threat = np.zeros(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.int64)
    total = history.shape[0]
    for row in range(rows):
        for s in range(n):
            hands[s] = deals[row, s] | played_by[s]
            tricks[s] = 0
        state = (seed + row * 7919) & 0x7FFFFFFF
        broken = False
        w = 1.0
        t = 0
        k = 0
        for done in range(total):
            lead = leaders[t]
            seat = (lead + k) % n
            card = history[done]
            if seat != viewer:
                led = trick[0] // 13 if k > 0 else -1
                legal = proper_mask(
                    hands[seat], led, k == 0, broken, first_forbidden and done < n,
                    forced0 if done == 0 else -1,
                )  # fmt: skip
                if legal >> card & 1 and popcount(legal) > 1:
                    pick, state = choose(
                        seat, legal, hands, trick, k, lead, bids, tricks, partner,
                        n, size, state, 0, threat, alive,
                    )  # fmt: skip
                    if pick != card:
                        same = pick // 13 == card // 13
                        if same:
                            lo = min(pick, card)
                            hi = max(pick, card)
                            between = ((1 << hi) - 1) & ~((2 << lo) - 1)
                            rest = 0
                            for o in range(n):
                                if o != seat:
                                    rest |= hands[o]
                            same = (between & rest) == 0
                        if not same:
                            w *= miss[0 if k == 0 else 1, seat]
            hands[seat] &= ~(1 << card)
            trick[k] = card
            k += 1
            if card >= 39:
                broken = True
            if k == n:
                winner = (lead + winning(trick, n)[1]) % n
                tricks[winner] += 1
                t += 1
                k = 0
        out[row] = w
    return out
