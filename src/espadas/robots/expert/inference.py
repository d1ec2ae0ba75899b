"""``experto``'s inference about the cards it cannot see: deals of the unseen cards
drawn consistently with its view (cards played, voids shown) by the compiled
kernel, and weighed by soft evidence: how well each fits the bids made
(:data:`BID_SIGMA`) and the cards the others played (:data:`MISS`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from espadas.engine import BLIND_NIL, PlayerView
from espadas.engine.hand import first_lead_card
from espadas.robots import kernel
from espadas.robots.bidding import estimate_tricks, nil_chance
from espadas.robots.expert.estimates import hand_estimates
from espadas.robots.knowledge import Knowledge

BID_SIGMA = 1.5  # tricks: how far a bid may stray from the count of the hand
MISS = 0.5
"""The weight of a sampled deal is multiplied by this for each card another seat
played that the play-out policy would not have played with the sampled cards."""


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
    """:func:`bid_likelihood` of every row of ``deals`` at once."""
    w = np.ones(len(deals))
    for s, b in enumerate(view.bids):
        if s == view.seat or b is None or b == BLIND_NIL:
            continue
        tricks, nil = hand_estimates(deals[:, s] | k.played_by[s], view.rules)
        if b == 0:
            w *= np.maximum(0.05, nil)
        else:
            gap = tricks - float(b)
            w *= np.exp(-gap * gap / (2 * BID_SIGMA * BID_SIGMA))
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
        MISS,
        seed,
    )
    return result


def bid_likelihood(view: PlayerView, deal: Sequence[int], k: Knowledge) -> float:
    """How well a sampled deal fits the bids already made (soft evidence): each
    bidder's whole hand (the sampled cards plus those it played) is counted as the
    rule-based bidder counts it, and a bid far from that count is unlikely."""
    rules = view.rules
    w = 1.0
    for s, b in enumerate(view.bids):
        if s == view.seat or b is None or b == BLIND_NIL:
            continue
        whole = deal[s] | k.played_by[s]
        if b == 0:
            w *= max(0.05, nil_chance(whole, rules))
        else:
            gap = estimate_tricks(whole, rules) - float(b)
            w *= math.exp(-gap * gap / (2 * BID_SIGMA * BID_SIGMA))
    return w
