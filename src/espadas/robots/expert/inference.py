"""``experto``'s inference about the cards it cannot see: deals of the unseen cards
drawn consistently with its view (cards played, voids shown) by the compiled
kernel, and weighed by soft evidence: how well each fits the bids made, read as
``normal`` makes them (:data:`BID_SIGMA`, :data:`BID_SIGMA_PARTNER`,
:data:`NIL_MISS`), and the cards the others played (:data:`MISS`,
:data:`MISS_PARTNER`). ``experto`` draws many more deals than it plays out and
keeps them in proportion to these weights (``OVERSAMPLE`` in
:mod:`~espadas.robots.expert.robot`)."""

from __future__ import annotations

import numpy as np

from espadas.engine import BLIND_NIL, PlayerView
from espadas.engine.hand import first_lead_card
from espadas.robots import kernel
from espadas.robots.bidding import NIL_BASE, NIL_PER_TRICK, SHADE
from espadas.robots.expert.estimates import hand_estimates
from espadas.robots.knowledge import Knowledge

BID_SIGMA = 0.25
BID_SIGMA_PARTNER = 0.7
"""Tricks: how far the count of a sampled hand may stray from what ``normal``'s
rule makes of it for the bid made, for an opponent and for the partner (a
robot partner bids ``normal``'s bid unless its search clearly prefers another;
a person's bids stray more, and a deal they rule out still counts a little)."""
NIL_MISS = 0.2
"""The weight of a deal whose sampled hand does not match the choice a seat made
between Nil and a number (by ``normal``'s rule) is multiplied by this."""
SUICIDE_SIGMA = 1.5
"""Under suicide the first bid of a side is forced (Nil or four or more): there a
number is read loosely around the count."""
MISS = 0.2
MISS_LEAD = 0.2
MISS_PARTNER = 0.6
"""The weight of a sampled deal is multiplied by this for each card an opponent
(the partner) played that the play-out policy would not have played with the
sampled cards. The partner counts less: a robot partner is ``experto`` itself,
whose search often leaves ``normal``'s habits."""


def sample_deals(k: Knowledge, count: int, seed: int) -> np.ndarray:
    """``count`` deals as :func:`~espadas.robots.knowledge.sample_deal` draws them
    (int64[count, n]), drawn by the compiled kernel."""
    others = [s for s in range(k.n) if s != k.seat]
    order = sorted(others, key=lambda s: (k.unseen & ~k.voids[s]).bit_count())
    need = np.array([0 if s == k.seat else k.cards_left[s] for s in range(k.n)], dtype=np.int64)
    result: np.ndarray = kernel.sample_deals(
        k.seat,
        k.hand,
        k.unseen,
        np.array(k.voids, dtype=np.int64),
        need,
        np.array(order, dtype=np.int64),
        count,
        seed,
        20,
    )
    return result


def bid_likelihoods(view: PlayerView, deals: np.ndarray, k: Knowledge) -> np.ndarray:
    """How well each row of ``deals`` fits the bids made: each bidder's whole hand
    (the sampled cards plus those it played) is counted as ``normal`` counts it
    (:func:`~espadas.robots.bidding.bid_and_reason`: the count less ``SHADE``, more
    with the bags near, more to cover a partner's Nil; Nil when the hand fits), and
    a deal weighs less the further that count lies outside the counts that round
    to the bid made (a bid of 1 takes every count below 1.5; a bid the table's
    total may have shaded takes every count above it). Returns float64[rows]."""
    rules = view.rules
    n = rules.players
    w = np.ones(len(deals))
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    for s, b in enumerate(view.bids):
        if s == view.seat or b is None or b == BLIND_NIL:
            continue
        tricks, nil = hand_estimates(deals[:, s] | k.played_by[s], rules)
        sigma = BID_SIGMA_PARTNER if s == rules.partner_of(view.seat) else BID_SIGMA
        before = [view.bids[x] for x in order[: order.index(s)]]
        mate = rules.partner_of(s)
        mate_bid = view.bids[mate] if mate is not None and mate in order[: order.index(s)] else None
        mate_nil = mate_bid in (0, BLIND_NIL)
        if rules.suicide or mate_nil:
            if b == 0:
                w *= np.maximum(0.05, nil)
            elif rules.suicide:
                gap = tricks - SHADE[n] - float(b)
                w *= np.exp(-gap * gap / (2 * SUICIDE_SIGMA * SUICIDE_SIGMA))
            if b == 0 or rules.suicide:
                continue
        else:
            need = NIL_BASE + NIL_PER_TRICK * tricks
            if isinstance(mate_bid, int) and mate_bid > 0:
                need = need + (-0.05 if mate_bid >= 4 else 0.05 if mate_bid <= 2 else 0.0)
            wants_nil = (tricks < 3.5) & (nil >= need)
            if b == 0:
                w *= np.where(wants_nil, 1.0, NIL_MISS)
                continue
            w *= np.where(wants_nil, NIL_MISS, 1.0)
        if not rules.quicksand and view.bags[rules.side_of(s)] >= 7:
            target = tricks + 0.1
        else:
            target = tricks - SHADE[n]
        if mate_nil:
            target = target + 0.5
        bid = float(b)
        low = -1e9 if b == 1 else bid - 0.5
        dist = np.maximum(0.0, np.maximum(low - target, target - (bid + 0.5)))
        others = sum(x for x in before if isinstance(x, int))
        if others + b > rules.hand_size - 2:  # the table's total may have shaded it
            dist = np.minimum(dist, np.maximum(0.0, bid - target))
        w *= np.exp(-dist * dist / (2 * sigma * sigma))
    return w


def play_likelihoods(view: PlayerView, deals: np.ndarray, k: Knowledge, seed: int) -> np.ndarray:
    """How well each row of ``deals`` explains the cards the others played (soft
    evidence: see :func:`espadas.robots.kernel.agreement`)."""
    rules = view.rules
    tricks = list(view.tricks)
    if view.trick is not None:
        tricks.append(view.trick)
    history = [int(c) for t in tricks for c in t.cards]
    if not history:
        return np.ones(len(deals))
    n = rules.players
    bids = [0 if b is None or b == BLIND_NIL else int(b) for b in view.bids]
    forced = first_lead_card(rules) if rules.first_lead == "two_of_clubs" else -1
    mate = rules.partner_of(view.seat)
    result: np.ndarray = kernel.agreement(
        deals,
        np.array(k.played_by, dtype=np.int64),
        n,
        rules.hand_size,
        np.array(history, dtype=np.int64),
        np.array([t.leader for t in tricks], dtype=np.int64),
        view.seat,
        np.array(bids, dtype=np.int64),
        kernel.partners(rules),
        rules.spades_in_first_trick == "forbidden",
        forced,
        np.array([[MISS_PARTNER if s == mate else m for s in range(n)] for m in (MISS_LEAD, MISS)]),
        seed,
    )
    return result
