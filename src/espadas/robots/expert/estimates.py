"""``experto``'s estimates of hands by the thousand: the rule-based count of tricks
and chance at Nil (:mod:`espadas.robots.bidding`) as sums of per-suit table
lookups over many sampled hands at once, and the bids still to come guessed as
``normal`` would make them.

>>> import numpy as np
>>> from espadas.engine import CardSet, Rules
>>> from espadas.robots.bidding import estimate_tricks
>>> rules = Rules.from_preset("pagat")
>>> hand = int(CardSet.parse("AKQJ.A32.A32.432"))
>>> tricks, nil = hand_estimates(np.array([hand], dtype=np.int64), rules)
>>> round(float(tricks[0]), 6) == round(estimate_tricks(hand, rules), 6)
True
"""

from __future__ import annotations

import functools
from collections.abc import Collection

import numpy as np

from espadas.engine import BLIND_NIL, PlayerView, Rules
from espadas.robots import kernel
from espadas.robots.bidding import (
    NIL_BASE,
    NIL_PER_TRICK,
    NIL_WEIGHTS,
    SHADE,
    TRICK_FEATURES,
    TRICK_WEIGHTS,
    hand_features,
    nil_danger,
)


def warm_up(parts: Collection[str] = kernel.WARM_PARTS) -> None:
    """Compiles (or loads the cached compilation of) the kernel's ``parts`` (all by
    default: :func:`espadas.robots.kernel.warm_up`) and builds the per-suit tables
    (about a second), before timing starts."""
    suit_features()
    kernel.warm_up(parts)


def guess_bids(view: PlayerView, deals: np.ndarray) -> np.ndarray:
    """The bids made (0 for Nil), and for the seats still to bid the bid ``normal``
    would make with its sampled hand (from the same count of the hand; the table's
    total and the bags aside): int64[rows, n]."""
    rules = view.rules
    out = np.zeros(deals.shape, dtype=np.int64)
    for s, b in enumerate(view.bids):
        if b is not None:
            out[:, s] = 0 if b == BLIND_NIL else int(b)
            continue
        tricks, nil = hand_estimates(deals[:, s], rules)
        desired = np.maximum(1, np.floor(tricks - SHADE[rules.players] + 0.5)).astype(np.int64)
        mate = rules.partner_of(s)
        mate_nil = mate is not None and view.bids[mate] in (0, BLIND_NIL)
        if not mate_nil:
            wants_nil = (tricks < 3.5) & (nil >= NIL_BASE + NIL_PER_TRICK * tricks)
            desired = np.where(wants_nil, 0, desired)
        out[:, s] = np.minimum(desired, rules.hand_size)
    return out


@functools.cache
def suit_features() -> tuple[np.ndarray, ...]:
    """For every 13-bit pattern of one suit: its :func:`hand_features` as a side suit
    and as spades, its :func:`nil_danger` parts, and its length."""
    size = 1 << 13
    side = np.array([hand_features(p) for p in range(size)])
    spade = np.array([hand_features(p << 39) for p in range(size)])
    nil_side = np.array([nil_danger(p) for p in range(size)])
    nil_spade = np.array([nil_danger(p << 39) for p in range(size)])
    length = np.array([p.bit_count() for p in range(size)])
    top = np.array([(p >> 9).bit_count() for p in range(size)])  # ace to jack
    return side, spade, nil_side, nil_spade, length, top


@functools.cache
def hand_tables(players: int, partnerships: bool) -> tuple[np.ndarray, ...]:
    """Per-suit tables (indexed by a suit's 13-bit pattern) that make
    :func:`~espadas.robots.bidding.estimate_tricks` and
    :func:`~espadas.robots.bidding.nil_chance` sums of lookups: (side-suit trick part,
    spade trick part, low spades that ruff, void and singleton flags, side-suit Nil
    part, spade Nil part)."""
    f_side, f_spade, n_side, n_spade, length, top = suit_features()
    weights = np.array(TRICK_WEIGHTS[players][1:])
    at = {name: i for i, name in enumerate(TRICK_FEATURES)}
    w_void, w_vr = weights[at["voids"]], weights[at["void_ruffs"]]
    nil_w = NIL_WEIGHTS[(players, partnerships)]
    low = np.minimum(3, length - top).astype(float)
    side = f_side @ weights - 2 * w_void
    spade = f_spade @ weights - 3 * w_void - 3 * w_vr * low
    void = (length == 0).astype(float)
    single = (length == 1).astype(float)
    nil_side = nil_w[3] * n_side[:, 2] + nil_w[4] * (n_side[:, 3] - 2)
    nil_spade = nil_w[1] * n_spade[:, 0] + nil_w[2] * n_spade[:, 1]
    return side, spade, low, void, single, nil_side, nil_spade


def hand_estimates(hands: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~espadas.robots.bidding.estimate_tricks` and
    :func:`~espadas.robots.bidding.nil_chance` of many hands (int64 masks) at once."""
    side, spade, low, void, single, nil_side, nil_spade = hand_tables(
        rules.players, rules.partnerships
    )
    weights = TRICK_WEIGHTS[rules.players]
    at = {name: i + 1 for i, name in enumerate(TRICK_FEATURES)}
    suits = [(hands >> (13 * s)) & 0x1FFF for s in range(4)]
    spades = suits[3]
    voids = void[suits[0]] + void[suits[1]] + void[suits[2]]
    singles = single[suits[0]] + single[suits[1]] + single[suits[2]]
    tricks = (
        weights[0]
        + side[suits[0]]
        + side[suits[1]]
        + side[suits[2]]
        + spade[spades]
        + (weights[at["void_ruffs"]] * voids + weights[at["singleton_ruffs"]] * singles)
        * low[spades]
    )
    tricks = np.clip(tricks, 0.0, float(rules.hand_size))
    z = (
        NIL_WEIGHTS[(rules.players, rules.partnerships)][0]
        + nil_side[suits[0]]
        + nil_side[suits[1]]
        + nil_side[suits[2]]
        + nil_spade[spades]
    )
    return tricks, 1.0 / (1.0 + np.exp(-z))
