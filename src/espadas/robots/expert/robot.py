"""The ``experto`` robot and ``omnisciente``: for each decision, sampled deals
(:mod:`~espadas.robots.expert.inference`), every candidate played out to the end
of the hand by the compiled kernel, or searched exactly near the end
(:mod:`~espadas.robots.expert.values`), and the best expected score difference,
unless ``normal``'s habit is about as good (see :mod:`espadas.robots.expert`)."""

from __future__ import annotations

import functools
import gc
import random

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
)
from espadas.engine.card import CARDS
from espadas.engine.hand import first_lead_card
from espadas.robots import kernel
from espadas.robots.bidding import bid_and_reason, estimate_tricks, wants_blind_nil
from espadas.robots.expert.estimates import guess_bids, warm_up
from espadas.robots.expert.inference import bid_likelihoods, play_likelihoods, sample_deals
from espadas.robots.expert.values import (
    Value,
    exact_values,
    nil_stakes,
    trick_winners,
    value_for,
)
from espadas.robots.explain import Explanation, face_down_choices, searched, unweighed
from espadas.robots.heuristics import play_and_reason
from espadas.robots.knowledge import Knowledge

DEFAULT_BUDGET_MS = 150.0
PLAYOUTS_PER_MS = 40
"""Play-outs per millisecond of budget: well under the kernel's speed, leaving time
for sampling and scoring in Python."""
EPS = 80  # random plays per thousand in play-outs
OVERSAMPLE = 8
"""Deals drawn for each one played out: they are kept in proportion to how well they
fit the bids and the cards played (:mod:`~espadas.robots.expert.inference`), so the
play-outs go to the deals the evidence favours instead of being spent on deals it
all but rules out (as weights, most of them counted for almost nothing)."""
MAX_SAMPLES = 1000
"""Sampled deals per decision in play at most (the budget's play-outs are shared
among them and the candidates). With the deals resampled by the evidence, 1,000
rather than 400 measured +29.6 against +25.0 on the same 500 deals at the
table's budget: more deals the evidence favours, fewer repeats of each."""
BID_SAMPLES = 240  # sampled deals per bid, each played out twice per candidate
EXACT_CARDS = 3
"""With this many cards left or fewer, the rest of each sampled deal is searched
exactly (compiled minimax, :func:`espadas.robots.kernel.exact_values`). With 4 the
duplicate arena measured no gain over 3 (and the search takes up to 10 times longer)."""
EXACT_TOTAL = 12
"""...and only while all the hands together hold at most this many cards (3 each
with 4 players): the search grows about tenfold with each card, and 3 cards each
with 6 players (18 cards) took up to 1 s per decision whatever the budget; so with
5 or 6 players the exact search starts at 2 cards each."""
PLAY_MARGIN = 1.0
BID_MARGIN = 15.0
"""The search overrules the rule-based habits of ``normal`` (its guide) only when it
expects at least this many points more. In play the search is trusted almost
always; in bidding only when it is clearly better, since the play-out policy
counts tricks less well than the hand evaluation (measured with duplicate
matches against ``normal``: search bids alone lost about 6 points a deal)."""


NIL_BID_EDGE = 20.0
"""A Nil, ``normal``'s habit or the search's best, is bid only when the search
expects it to score at least this many points more than the best number bid;
otherwise the robot bids that number (or its habit's, when the habit was a
number). The play-outs judge a Nil loosely (their Nil bidders' hands fit the bid
only roughly), so the Nils they put only a little ahead fail too often. With 20
points about 89 % of the Nils are made instead of 84 %, for the same margin over
``normal``; with 40, more still but the margin drops (figures on the benchmarks
page)."""


NIL_MARGIN = 30.0
NIL_HABITS = frozenset(
    {"nil_lead_low", "nil_under", "nil_forced_last", "nil_forced_hope"}
    | {"cover_overtake", "cover_high", "cover_lead"}
)
"""When ``normal``'s habit protects a Nil of its own side (its own, or the
partner's: :data:`NIL_HABITS`), the search overrules it only when it expects at
least ``NIL_MARGIN`` points more: a Nil is a 200-point swing that the play-outs
judge loosely (their Nil bidders' hands fit the bid only roughly), and losing a
partner's Nil for a few points of tricks is the mistake players forgive least.
At 30 rather than 10 points, 1,000 duplicate deals against ``normal`` (seed 2, the
table's budget) lost 1 of the partner's Nils instead of 7, for the same margin."""


class ExpertRobot:
    """Sampling and play-out search. ``budget_ms`` sets the work per decision."""

    sees_all = False

    def __init__(self, seed: int, budget_ms: float | None = None) -> None:
        warm_up()
        _freeze_heap()
        self.rng = random.Random(seed)
        self.budget_ms = budget_ms if budget_ms is not None else DEFAULT_BUDGET_MS
        self.playouts = max(200, int(self.budget_ms * PLAYOUTS_PER_MS))
        self.guide_rng = random.Random(seed + 1)

    # decisions -----------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        return self.explain(view).action

    def explain(self, view: PlayerView) -> Explanation:
        """The decision :meth:`act` takes, with the values its search gave each
        candidate (see :mod:`espadas.robots.explain`)."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now (phase {view.phase})")
        if any(isinstance(a, Look) for a in view.legal):
            if Bid(BLIND_NIL) in view.legal and wants_blind_nil(view):
                return unweighed(Bid(BLIND_NIL), "blind_nil", among=face_down_choices(view))
            return unweighed(Look(view.seat), "look", among=face_down_choices(view))
        if view.phase == "bidding":
            return self._bid(view)
        if view.phase == "playing":
            proper = view.proper_plays
            if len(proper) == 1:
                return unweighed(Play(CARDS[int(proper).bit_length() - 1]), "only_card")
            return self._play(view)
        return unweighed(view.legal[0], "only_action")

    # hidden cards -----------------------------------------------------------------
    def _deals(self, view: PlayerView, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``count`` deals of the cards held now (int64[count, n]), with a weight each:
        ``OVERSAMPLE`` times as many are drawn and weighed by the evidence, and
        ``count`` of them kept in proportion to their weights (systematic
        resampling), each then weighing 1."""
        deals, weights, _ = self._deals_drawn(view, count)
        return deals, weights

    def _deals_drawn(
        self, view: PlayerView, count: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`_deals`, and the draw each deal kept comes from (int64[count]): a
        likely draw is kept more than once, and its copies are not independent."""
        k = Knowledge(view)
        draw = count * OVERSAMPLE
        deals = sample_deals(k, draw, self.rng.getrandbits(31))
        weights = bid_likelihoods(view, deals, k)
        seed = self.rng.getrandbits(31)
        if view.phase == "playing":
            weights = weights * play_likelihoods(view, deals, k, seed)
        if OVERSAMPLE > 1:
            total = float(weights.sum())
            if total <= 0:
                return deals[:count], np.ones(count), np.arange(count)
            # systematic resampling: rows in proportion to their weight
            start = (self.rng.random() + np.arange(count)) / count
            picks = np.searchsorted(np.cumsum(weights) / total, start)
            picks = np.minimum(picks, draw - 1)
            return deals[picks], np.ones(count), picks.astype(np.int64)
        return deals, weights, np.arange(draw)

    # bidding --------------------------------------------------------------------------
    def _bid(self, view: PlayerView) -> Explanation:
        legal = [a.value for a in view.legal if isinstance(a, Bid)]
        numbers = [b for b in legal if isinstance(b, int) and b > 0]
        guide, why, params = bid_and_reason(view)
        rules = view.rules
        n = rules.players
        count = min(BID_SAMPLES, max(50, self.playouts // 10))
        repeat = 2
        deals, weights = self._deals(view, count)
        leader = (view.dealer + 1) % n
        forced = first_lead_card(rules) if rules.first_lead == "two_of_clubs" else -1
        guessed = np.repeat(guess_bids(view, deals), repeat, axis=0).tolist()
        assert view.held is not None
        estimate = estimate_tricks(int(view.held), rules)
        w = np.repeat(np.array(weights), repeat)
        rows = np.repeat(deals, repeat, axis=0)
        values: dict[tuple[int, ...], Value] = {}
        options: list[tuple[BidValue, float]] = []
        own = guide if isinstance(guide, int) and guide > 0 else max(1, round(estimate))
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
                        fn = values[key] = value_for(view, bids)
                    total += float(weight) * fn(tuple(int(x) for x in row))
                options.append((bid, total / max(float(w.sum()), 1e-9)))

        def rank(option: tuple[BidValue, float]) -> tuple[float, int]:
            return (option[1], -int(option[0]))  # more points, then the lower bid

        points = dict(options)
        best = max(options, key=rank)
        habit = points.get(guide)
        chosen = guide if habit is not None and best[1] - habit <= BID_MARGIN else best[0]
        reason = None
        numbers_weighed = [o for o in options if o[0] != 0]
        if chosen == 0 and numbers_weighed:
            top = max(numbers_weighed, key=rank)
            if points[0] - top[1] < NIL_BID_EDGE:
                if guide != 0 and habit is not None:
                    chosen = guide
                else:
                    chosen, reason = top[0], "search_nil_edge"
        weighed = [(Bid(b), p) for b, p in options]
        params = {**params, "margin": BID_MARGIN, "nil_edge": NIL_BID_EDGE}
        return searched(Bid(chosen), Bid(guide), weighed, why, params, reason)

    # play ----------------------------------------------------------------------------------
    def _play(self, view: PlayerView) -> Explanation:
        candidates, values, w, _ = self._play_values(view)
        if len(candidates) == 1:
            return unweighed(Play(CARDS[candidates[0]]), "equivalent_cards")
        scores = (w[:, None] * values).sum(axis=0) / max(float(w.sum()), 1e-9)
        c = len(candidates)
        best = max(range(c), key=lambda i: (float(scores[i]), -candidates[i]))
        card, why = play_and_reason(view, self.guide_rng)
        guide = int(card)
        at = _representative(candidates, guide)
        # the habit, unless the search finds something clearly better
        margin = NIL_MARGIN if why in NIL_HABITS else PLAY_MARGIN
        chosen = guide if float(scores[best]) - float(scores[at]) <= margin else candidates[best]
        shown = [guide if i == at else x for i, x in enumerate(candidates)]
        weighed = [(Play(CARDS[x]), float(s)) for x, s in zip(shown, scores, strict=True)]
        return searched(Play(CARDS[chosen]), Play(card), weighed, why, {"margin": margin})

    def _play_values(
        self, view: PlayerView
    ) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray]:
        """The candidate cards (the lowest of each run of equivalent cards) and, for
        each sampled deal, the value of each candidate: (candidates, values
        float64[deals, candidates], weights float64[deals], the draw each deal comes
        from int64[deals]: see :meth:`_deals_drawn`). With one candidate nothing is
        searched (no rows)."""
        rules = view.rules
        n = rules.players
        candidates = _distinct_candidates(view)
        if len(candidates) == 1:
            return candidates, np.zeros((0, 1)), np.zeros(0), np.zeros(0, dtype=np.int64)
        c = len(candidates)
        count = min(MAX_SAMPLES, max(8, self.playouts // c))
        deals, weights, draws = self._deals_drawn(view, count)
        bids = [b if isinstance(b, int) else 0 for b in view.bids]
        value = value_for(view, bids)
        w = np.array(weights, dtype=np.float64)
        if searches_exactly(view):
            values: np.ndarray = exact_values(view, deals, candidates, value)
            return candidates, values, w, draws
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
        standing = [
            s for s, b in enumerate(bids) if b == 0 and view.tricks_taken[s] == 0
        ]  # Nils still standing: their trick-by-trick fate is a stake (NIL_HOLD)
        trace = (
            np.zeros((len(rows), n * rules.hand_size - plays_done), dtype=np.int64)
            if standing
            else kernel.NO_TRACE
        )
        out = self._run(view, rows, trick.leader, cards, plays_done, -1, table, first, seeds, trace)
        row_values = _row_values(out, value)
        if standing:
            winners = trick_winners(n, trick.leader, cards, trace)
            row_values = row_values + nil_stakes(view, winners, out)
        values = row_values.reshape(count, c, repeat).mean(axis=2)
        return candidates, values, w, draws

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
        trace: np.ndarray = kernel.NO_TRACE,
    ) -> np.ndarray:
        """Play-outs of ``rows`` (sampled deals) from the position; ``bids`` has one row
        of bids by seat (0 for Nil) for all, or one per row; ``trace`` (rows × the
        plays left), when given, receives the cards each play-out plays."""
        rules = view.rules
        n = rules.players
        trick0 = np.zeros(n, dtype=np.int64)
        trick0[: len(trick)] = trick
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
            kernel.partners(rules),
            first,
            seeds,
            EPS,
            trace,
        )
        return result

    def _seeds(self, count: int) -> np.ndarray:
        """``count`` seeds for play-outs."""
        return np.array([self.rng.getrandbits(31) for _ in range(count)], dtype=np.int64)


class OmniscientRobot(ExpertRobot):
    """``experto``'s search on the true deal: it sees every hand (arena only)."""

    sees_all = True

    def _deals_drawn(
        self, view: PlayerView, count: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if not isinstance(view, FullView):
            raise TypeError("omnisciente needs a FullView (the arena gives one)")
        hands = np.array([int(h) for h in view.all_held], dtype=np.int64)
        return np.tile(hands, (count, 1)), np.ones(count), np.zeros(count, dtype=np.int64)


@functools.cache
def _freeze_heap() -> None:
    """Once per process, after the warm-up, moves every object alive then (numba's
    compiled kernel and its imports, the bulk of the heap) out of the reach of the
    garbage collector (:func:`gc.freeze`): a full collection, which a decision's
    allocations may set off at any time, then walks only what came later (it
    took up to 205 ms of a bidding decision with 6 players before)."""
    gc.collect()
    gc.freeze()


def searches_exactly(view: PlayerView) -> bool:
    """Whether a play is valued by exact search of the rest of each sampled deal
    (:data:`EXACT_CARDS`, :data:`EXACT_TOTAL`) rather than by play-outs."""
    return view.cards_left[view.seat] <= EXACT_CARDS and sum(view.cards_left) <= EXACT_TOTAL


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
    cards of one suit with no card between them that another seat may hold or
    has played to the trick in progress (a card down in the trick can make one of
    two cards win it and the other lose)."""
    others = Knowledge(view).unseen
    if view.trick is not None:
        others |= sum(1 << int(c) for c in view.trick.cards)
    out: list[int] = []
    for card in sorted(int(c) for c in view.proper_plays):
        if out and out[-1] // 13 == card // 13:
            between = ((1 << card) - 1) & ~((1 << (out[-1] + 1)) - 1)
            if not between & others:
                continue
        out.append(card)
    return out
