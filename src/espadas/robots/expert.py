"""The ``experto`` robot: search by sampling and play-outs — and ``omnisciente``.

For each decision ``experto`` deals the cards it cannot see at random,
consistently with its view (cards played, voids shown), by the compiled kernel
(:mod:`espadas.robots.kernel`), and weighs each deal by soft evidence: how well
it fits the bids made (``BID_SIGMA``) and the cards the others played (the hand
is replayed with the play-out policy; each card it would not have played costs
a factor ``MISS``). It then plays every candidate action out to the end of the
hand many times with the kernel. With ``EXACT_CARDS`` cards or fewer left it
searches the rest of each sampled hand exactly (compiled alpha-beta). It
chooses the action with the best expected score difference between its side
and the others — bags (each worth −10, their long-run cost), Nil, target and
mercy included — not the most tricks. Bids are chosen the same way: each
candidate bid, Nil included, is scored over the same play-outs, the bids still
to come guessed as ``normal`` would make them with the sampled hands.

The rule-based habits of ``normal`` are its guide: when the search finds no
action clearly better than the one ``normal`` would take (by ``PLAY_MARGIN`` or
``BID_MARGIN`` points), ``experto`` takes that one, so sampling noise does not
turn into mistakes.

The work per decision is a fixed number of play-outs (``budget_ms`` times a
rate measured on a 2-core machine), so a robot is deterministic for its seed.

``omnisciente`` is the same search given every hand (a
:class:`~espadas.engine.FullView`): the arena uses it to measure how far the
others are from perfect information. It is never offered at a table.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence

import numpy as np

from espadas.engine import (
    BLIND_NIL,
    Action,
    Bid,
    BidValue,
    FullView,
    Look,
    Play,
    PlayerView,
    Rules,
    score_hand,
    trick_winner,
)
from espadas.engine.card import CARDS
from espadas.engine.hand import first_lead_card
from espadas.robots import kernel
from espadas.robots.bidding import (
    _NIL_WEIGHTS,
    _TRICK_WEIGHTS,
    NIL_BASE,
    NIL_PER_TRICK,
    SHADE,
    TRICK_FEATURES,
    choose_bid,
    estimate_tricks,
    hand_features,
    nil_chance,
    nil_danger,
    wants_blind_nil,
)
from espadas.robots.heuristics import choose_play
from espadas.robots.knowledge import Knowledge

DEFAULT_BUDGET_MS = 150.0
PLAYOUTS_PER_MS = 40
"""Play-outs per millisecond of budget: well under the kernel's speed, leaving time
for sampling and scoring in Python."""
WIN_BONUS = 250.0
BAG_COST = 10
EPS = 80  # random plays per thousand in play-outs
MAX_SAMPLES = 400  # sampled deals per decision in play; more play-outs go to each
BID_SAMPLES = 240  # sampled deals per bid, each played out twice per candidate
BID_SIGMA = 1.5  # tricks: how far a bid may stray from the count of the hand
MISS = 0.5
"""The weight of a sampled deal is multiplied by this for each card another seat
played that the play-out policy would not have played with the sampled cards."""
EXACT_CARDS = 3
"""With this many cards left or fewer, the rest of each sampled deal is searched
exactly (compiled minimax, :func:`espadas.robots.kernel.exact_values`). With 4 the
duplicate arena measured no gain over 3 (and the search takes up to 10 times longer)."""
GUESS_AS_NORMAL = True
"""Bids still to come are guessed as ``normal`` would bid the sampled hands (else by a
rougher count)."""
BID_SPREAD = 0
"""When above 0, bids within this many tricks of ``normal``'s (and Nil) are each played
out with the play-outs following that contract."""
PLAY_MARGIN = 1.0
BID_MARGIN = 15.0
"""The search overrules the rule-based habits of ``normal`` (its guide) only when it
expects at least this many points more. In play the search is trusted almost
always; in bidding only when it is clearly better, since the play-out policy
counts tricks less well than the hand evaluation (measured with duplicate
matches against ``normal``: search bids alone lost about 6 points a deal)."""

Value = Callable[[tuple[int, ...]], float]


class ExpertRobot:
    """Sampling and play-out search. ``budget_ms`` sets the work per decision."""

    sees_all = False

    def __init__(self, seed: int, budget_ms: float | None = None) -> None:
        kernel.warm_up()
        self.rng = random.Random(seed)
        self.budget_ms = budget_ms if budget_ms is not None else DEFAULT_BUDGET_MS
        self.playouts = max(200, int(self.budget_ms * PLAYOUTS_PER_MS))
        self.guide_rng = random.Random(seed + 1)

    # decisions -----------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if any(isinstance(a, Look) for a in view.legal):
            if Bid(BLIND_NIL) in view.legal and wants_blind_nil(view):
                return Bid(BLIND_NIL)
            return Look(view.seat)
        if view.phase == "bidding":
            return Bid(self._bid(view))
        if view.phase == "playing":
            proper = view.proper_plays
            if len(proper) == 1:
                return Play(CARDS[int(proper).bit_length() - 1])
            return Play(CARDS[self._play(view)])
        return view.legal[0]

    # hidden cards -----------------------------------------------------------------
    def _deals(self, view: PlayerView, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``count`` deals of the cards held now (int64[count, n]), with a weight each."""
        k = Knowledge(view)
        deals = sample_deals(k, count, self.rng.getrandbits(31))
        weights = bid_likelihoods(view, deals, k)
        seed = self.rng.getrandbits(31)
        if MISS < 1.0 and view.phase == "playing":
            weights = weights * play_likelihoods(view, deals, k, seed)
        return deals, weights

    # bidding --------------------------------------------------------------------------
    def _bid(self, view: PlayerView) -> BidValue:
        legal = [a.value for a in view.legal if isinstance(a, Bid)]
        numbers = [b for b in legal if isinstance(b, int) and b > 0]
        guide = choose_bid(view)
        rules = view.rules
        n = rules.players
        count = min(BID_SAMPLES, max(50, self.playouts // 10))
        repeat = 2
        deals, weights = self._deals(view, count)
        leader = (view.dealer + 1) % n
        forced = first_lead_card(rules) if rules.first_lead == "two_of_clubs" else -1
        if GUESS_AS_NORMAL:
            guessed = np.repeat(guess_bids(view, deals), repeat, axis=0).tolist()
        else:
            guessed = [_guess_bids(view, deal) for deal in deals.tolist() for _ in range(repeat)]
        assert view.hand is not None
        estimate = estimate_tricks(int(view.hand), rules)
        w = np.repeat(np.array(weights), repeat)
        rows = np.repeat(deals, repeat, axis=0)
        values: dict[tuple[int, ...], Value] = {}
        options: list[tuple[BidValue, float]] = []
        own = guide if isinstance(guide, int) and guide > 0 else max(1, round(estimate))
        if BID_SPREAD > 0:
            return self._bid_each(view, guide, own, legal, rows, w, guessed, leader, forced)
        for as_nil in (False, True):
            if (as_nil and 0 not in legal) or (not as_nil and not numbers):
                continue
            table = np.array(guessed, dtype=np.int64)
            table[:, view.seat] = 0 if as_nil else own
            out = self._run(view, rows, leader, [], 0, forced, table, None)
            if as_nil:
                candidates: list[int] = [0]
            else:
                mean = float((out[:, view.seat] * w).sum() / max(float(w.sum()), 1e-9))
                near = [b for b in numbers if abs(b - mean) <= 3] or [
                    min(numbers, key=lambda b: abs(b - mean))
                ]
                if isinstance(guide, int) and guide > 0 and guide not in near:
                    near.append(guide)
                candidates = near
            for bid in candidates:
                total = 0.0
                for row, deal_bids, weight in zip(out, guessed, w, strict=True):
                    bids = list(deal_bids)
                    bids[view.seat] = bid
                    key = tuple(bids)
                    fn = values.get(key)
                    if fn is None:
                        fn = values[key] = _value_for(view, bids)
                    total += float(weight) * fn(tuple(int(x) for x in row))
                options.append((bid, total / max(float(w.sum()), 1e-9)))
        best = max(options, key=lambda o: (o[1], -int(o[0])))
        habit = dict(options).get(guide)
        if habit is not None and best[1] - habit <= BID_MARGIN:
            return guide
        return best[0]

    def _bid_each(
        self,
        view: PlayerView,
        guide: BidValue,
        own: int,
        legal: list[BidValue],
        rows: np.ndarray,
        w: np.ndarray,
        guessed: list[list[int]],
        leader: int,
        forced: int,
    ) -> BidValue:
        """Each bid near ``own`` (and Nil) played out on its own: the play-outs follow
        the contract bid (every candidate meets the same deals and seeds)."""
        numbers = [b for b in legal if isinstance(b, int) and b > 0]
        candidates: list[int] = [b for b in numbers if abs(b - own) <= BID_SPREAD]
        if 0 in legal:
            candidates.append(0)
        if isinstance(guide, int) and guide not in candidates:
            candidates.append(guide)
        if not candidates:
            return guide
        seeds = self._seeds(len(rows))
        total_w = max(float(w.sum()), 1e-9)
        values: dict[tuple[int, ...], Value] = {}
        options: list[tuple[BidValue, float]] = []
        for bid in candidates:
            table = np.array(guessed, dtype=np.int64)
            table[:, view.seat] = bid
            out = self._run(view, rows, leader, [], 0, forced, table, None, seeds)
            total = 0.0
            for row, deal_bids, weight in zip(out.tolist(), table.tolist(), w, strict=True):
                key = tuple(deal_bids)
                fn = values.get(key)
                if fn is None:
                    fn = values[key] = _value_for(view, deal_bids)
                total += float(weight) * fn(tuple(row))
            options.append((bid, total / total_w))
        best = max(options, key=lambda o: (o[1], -int(o[0])))
        habit = dict(options).get(guide)
        if habit is not None and best[1] - habit <= BID_MARGIN:
            return guide
        return best[0]

    # play ----------------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> int:
        rules = view.rules
        n = rules.players
        candidates = _distinct_candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        c = len(candidates)
        count = min(MAX_SAMPLES, max(8, self.playouts // c))
        deals, weights = self._deals(view, count)
        bids = [b if isinstance(b, int) else 0 for b in view.bids]
        value = _value_for(view, bids)
        w = np.array(weights)
        if view.cards_left[view.seat] <= EXACT_CARDS:
            exact = _exact_values(view, deals, candidates, value)
            scores = (w[:, None] * exact).sum(axis=0)
        else:
            trick = view.trick
            assert trick is not None
            repeat = max(1, self.playouts // (count * c))
            rows = np.repeat(deals, c * repeat, axis=0)
            first = np.tile(np.repeat(np.array(candidates, dtype=np.int64), repeat), count)
            table = np.array([bids], dtype=np.int64)
            plays_done = n * rules.hand_size - sum(view.cards_left)
            cards = [int(x) for x in trick.cards]
            # common random numbers: every candidate meets the same deals and seeds
            base = self._seeds(count * repeat).reshape(count, 1, repeat)
            seeds = np.broadcast_to(base, (count, c, repeat)).reshape(-1)
            out = self._run(view, rows, trick.leader, cards, plays_done, -1, table, first, seeds)
            values = _row_values(out, value).reshape(count, c, repeat).mean(axis=2)
            scores = (w[:, None] * values).sum(axis=0)
        scores = scores / max(float(w.sum()), 1e-9)
        best = max(range(c), key=lambda i: (float(scores[i]), -candidates[i]))
        guide = int(choose_play(view, self.guide_rng))
        at = _representative(candidates, guide)
        if float(scores[best]) - float(scores[at]) <= PLAY_MARGIN:
            return guide  # the search finds nothing clearly better than the habit
        return candidates[best]

    def _run(
        self,
        view: PlayerView,
        rows: np.ndarray,
        leader: int,
        trick: list[int],
        plays_done: int,
        forced: int,
        bids: np.ndarray,
        first: np.ndarray | None,
        seeds: np.ndarray | None = None,
    ) -> np.ndarray:
        """Play-outs of ``rows`` (sampled deals) from the position; ``bids`` has one row
        of bids by seat (0 for Nil) for all, or one per row."""
        rules = view.rules
        n = rules.players
        trick0 = np.zeros(n, dtype=np.int64)
        trick0[: len(trick)] = trick
        partner = np.array(
            [(s + 2) % 4 if rules.partnerships else -1 for s in range(n)], dtype=np.int64
        )
        if first is None:
            first = np.full(len(rows), -1, dtype=np.int64)
        if seeds is None:
            seeds = self._seeds(len(rows))
        result: np.ndarray = kernel.playouts(
            rows,
            n,
            rules.hand_size,
            leader,
            trick0,
            len(trick),
            np.array(view.tricks_taken, dtype=np.int64),
            view.spades_broken,
            plays_done,
            rules.spades_in_first_trick == "forbidden",
            forced,
            bids,
            partner,
            first,
            seeds,
            EPS,
            kernel.NO_TRACE,
        )
        return result

    def _seeds(self, count: int) -> np.ndarray:
        """``count`` seeds for play-outs."""
        return np.array([self.rng.getrandbits(31) for _ in range(count)], dtype=np.int64)


class OmniscientRobot(ExpertRobot):
    """``experto``'s search on the true deal: it sees every hand (arena only)."""

    sees_all = True

    def _deals(self, view: PlayerView, count: int) -> tuple[np.ndarray, np.ndarray]:
        if not isinstance(view, FullView):
            raise TypeError("omnisciente needs a FullView (the arena gives one)")
        hands = np.array([int(h) for h in view.hands], dtype=np.int64)
        return np.tile(hands, (count, 1)), np.ones(count)


# helpers ----------------------------------------------------------------------------------
def _representative(candidates: list[int], card: int) -> int:
    """The index of the candidate that stands for ``card`` (the lowest card of its run)."""
    same = [i for i, c in enumerate(candidates) if c // 13 == card // 13 and c <= card]
    return max(same, key=lambda i: candidates[i]) if same else 0


def _row_values(out: np.ndarray, value: Value) -> np.ndarray:
    """``value`` of each row of trick counts, computed once per distinct row."""
    keys = (out << (6 * np.arange(out.shape[1], dtype=np.int64))).sum(axis=1)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    table = np.array([value(tuple(int(x) for x in out[i])) for i in first])
    result: np.ndarray = table[inverse.reshape(-1)]
    return result


def _distinct_candidates(view: PlayerView) -> list[int]:
    """The proper plays, keeping the lowest card of each run of equivalent cards:
    cards of one suit with no card between them that another seat may hold."""
    others = Knowledge(view).unseen
    out: list[int] = []
    for card in sorted(int(c) for c in view.proper_plays):
        if out and out[-1] // 13 == card // 13:
            between = ((1 << card) - 1) & ~((1 << (out[-1] + 1)) - 1)
            if not between & others:
                continue
        out.append(card)
    return out


def quick_estimate(mask: int, size: int) -> float:
    """A rough count of the tricks a hand takes, for guessing other players' bids."""
    est = 0.0
    for suit in range(4):
        cards = (mask >> (13 * suit)) & 0x1FFF
        length = cards.bit_count()
        if cards >> 12 & 1:
            est += 1.0
        if cards >> 11 & 1 and length >= 2:
            est += 0.7
        if cards >> 10 & 1 and length >= 3:
            est += 0.4 if suit != 3 else 0.6
        if suit == 3 and length > 3:
            est += 0.8 * (length - 3)
    return est * size / 13


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
        mate = (s + 2) % 4 if rules.partnerships else -1
        mate_nil = mate >= 0 and view.bids[mate] in (0, BLIND_NIL)
        if not mate_nil:
            wants_nil = (tricks < 3.5) & (nil >= NIL_BASE + NIL_PER_TRICK * tricks)
            desired = np.where(wants_nil, 0, desired)
        out[:, s] = np.minimum(desired, rules.hand_size)
    return out


def _guess_bids(view: PlayerView, deal: Sequence[int]) -> list[int]:
    """The bids made, and a guess for those still to come from the sampled hands."""
    size = view.rules.hand_size
    out = []
    for s, b in enumerate(view.bids):
        if b is None:
            est = quick_estimate(deal[s], size)
            out.append(0 if est < 0.6 else max(1, round(est)))
        else:
            out.append(0 if b == BLIND_NIL else int(b))
    return out


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


@functools.cache
def _suit_features() -> tuple[np.ndarray, ...]:
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
def _hand_tables(players: int, partnerships: bool) -> tuple[np.ndarray, ...]:
    """Per-suit tables (indexed by a suit's 13-bit pattern) that make
    :func:`~espadas.robots.bidding.estimate_tricks` and
    :func:`~espadas.robots.bidding.nil_chance` sums of lookups: (side-suit trick part,
    spade trick part, low spades that ruff, void and singleton flags, side-suit Nil
    part, spade Nil part)."""
    f_side, f_spade, n_side, n_spade, length, top = _suit_features()
    weights = np.array(_TRICK_WEIGHTS[players][1:])
    at = {name: i for i, name in enumerate(TRICK_FEATURES)}
    w_void, w_vr = weights[at["voids"]], weights[at["void_ruffs"]]
    nil_w = _NIL_WEIGHTS[(players, partnerships)]
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
    side, spade, low, void, single, nil_side, nil_spade = _hand_tables(
        rules.players, rules.partnerships
    )
    weights = _TRICK_WEIGHTS[rules.players]
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
        _NIL_WEIGHTS[(rules.players, rules.partnerships)][0]
        + nil_side[suits[0]]
        + nil_side[suits[1]]
        + nil_side[suits[2]]
        + nil_spade[spades]
    )
    return tricks, 1.0 / (1.0 + np.exp(-z))


def bid_likelihoods(view: PlayerView, deals: np.ndarray, k: Knowledge) -> np.ndarray:
    """:func:`_bid_likelihood` of every row of ``deals`` at once."""
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
    partner = [(s + 2) % 4 if rules.partnerships else -1 for s in range(n)]
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
        np.array(partner, dtype=np.int64),
        rules.spades_in_first_trick == "forbidden",
        forced,
        MISS,
        seed,
    )
    return result


def _bid_likelihood(view: PlayerView, deal: Sequence[int], k: Knowledge) -> float:
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


def _value_for(view: PlayerView, bids: list[int]) -> Value:
    """The value of a hand's final trick counts for the viewing seat's side:
    its points minus the others' (bags at 10 each; winning or losing the game counts)."""
    rules = view.rules
    sides = rules.sides
    blind = [b == BLIND_NIL for b in view.bids]
    mine = rules.side_of(view.seat)
    memo: dict[tuple[int, ...], float] = {}
    zero = [0] * sides

    def value(tricks: tuple[int, ...]) -> float:
        hit = memo.get(tricks)
        if hit is not None:
            return hit
        fresh = score_hand(rules, bids, blind, tricks, zero)
        side_values = []
        for side in range(sides):
            gained = 0 if rules.quicksand else fresh.bags[side] + fresh.penalties[side] // 10
            side_values.append(fresh.points[side] + fresh.penalties[side] - BAG_COST * gained)
        others = [v for s, v in enumerate(side_values) if s != mine]
        v = side_values[mine] - sum(others) / len(others)
        real = score_hand(rules, bids, blind, tricks, view.bags)
        totals = [view.scores[s] + real.points[s] for s in range(sides)]
        top = max(totals)
        ended = top >= rules.target or (rules.mercy is not None and min(totals) <= rules.mercy)
        if ended and totals.count(top) == 1:
            v += WIN_BONUS if totals[mine] == top else -WIN_BONUS
        memo[tricks] = v
        return v

    return value


def _exact_values(
    view: PlayerView, deals: np.ndarray, candidates: list[int], value: Value
) -> np.ndarray:
    """:func:`_exact` of every candidate in every row of ``deals``, by the compiled
    search (float64[rows, candidates])."""
    rules = view.rules
    n = rules.players
    trick = view.trick
    assert trick is not None
    left = view.cards_left[view.seat]
    base = left + 1
    table = np.zeros(base**n)
    for extra in itertools.product(range(base), repeat=n):
        if sum(extra) == left:
            index = sum(e * base**s for s, e in enumerate(extra))
            table[index] = value(
                tuple(t + e for t, e in zip(view.tricks_taken, extra, strict=True))
            )
    mine = rules.side_of(view.seat)
    trick0 = np.zeros(n, dtype=np.int64)
    trick0[: len(trick.cards)] = [int(c) for c in trick.cards]
    result: np.ndarray = kernel.exact_values(
        deals,
        n,
        trick.leader,
        trick0,
        len(trick.cards),
        view.spades_broken,
        n * rules.hand_size - sum(view.cards_left),
        rules.spades_in_first_trick == "forbidden",
        np.array([rules.side_of(s) == mine for s in range(n)], dtype=np.int64),
        np.array(candidates, dtype=np.int64),
        base,
        table,
    )
    return result


def _exact(view: PlayerView, deal: Sequence[int], card: int, value: Value) -> float:
    """The value of playing ``card`` when every hand is as in ``deal``, with the rest of
    the hand searched exactly (our side maximizes our value, the others minimize it)."""
    rules = view.rules
    n = rules.players
    trick = view.trick
    assert trick is not None
    held = list(deal)
    mine = rules.side_of(view.seat)
    forbidden = rules.spades_in_first_trick == "forbidden"
    plays_done = n * rules.hand_size - sum(view.cards_left)

    def search(
        held: list[int], leader: int, cards: list[int], tricks: list[int], broken: bool, done: int
    ) -> float:
        if all(h == 0 for h in held):
            return value(tuple(tricks))
        seat = (leader + len(cards)) % n
        led = cards[0] // 13 if cards else -1
        legal = kernel.proper_mask(held[seat], led, not cards, broken, forbidden and done < n, -1)
        maximize = rules.side_of(seat) == mine
        best = -1e18 if maximize else 1e18
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            v = _after(held, seat, c, leader, cards, tricks, broken, done)
            best = max(best, v) if maximize else min(best, v)
        return best

    def _after(
        held: list[int],
        seat: int,
        c: int,
        leader: int,
        cards: list[int],
        tricks: list[int],
        broken: bool,
        done: int,
    ) -> float:
        nxt = list(held)
        nxt[seat] &= ~(1 << c)
        now = [*cards, c]
        if len(now) == n:
            winner = trick_winner(leader, now, n)
            t = list(tricks)
            t[winner] += 1
            return search(nxt, winner, [], t, broken or c >= 39, done + 1)
        return search(nxt, leader, now, tricks, broken or c >= 39, done + 1)

    cards = [int(c) for c in trick.cards]
    return _after(
        held,
        view.seat,
        card,
        trick.leader,
        cards,
        list(view.tricks_taken),
        view.spades_broken,
        plays_done,
    )


__all__ = ["ExpertRobot", "OmniscientRobot", "quick_estimate"]
