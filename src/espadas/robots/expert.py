"""The ``experto`` robot: search by sampling and play-outs — and ``omnisciente``.

For each decision ``experto`` deals the cards it cannot see at random,
consistently with its view (cards played, voids shown; bids weigh the samples
as soft evidence), then plays every candidate action out to the end of the hand
many times with the compiled kernel (:mod:`espadas.robots.kernel`). With two
cards or fewer left it searches the rest of each sampled hand exactly. It
chooses the action with the best expected score difference between its side
and the others — bags (each worth −10, their long-run cost), Nil, target and
mercy included — not the most tricks. Bids are chosen the same way: each
candidate bid, Nil included, is scored over the same play-outs.

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
    score_hand,
    trick_winner,
)
from espadas.engine.card import CARDS
from espadas.engine.hand import first_lead_card
from espadas.robots import kernel
from espadas.robots.bidding import choose_bid, estimate_tricks, nil_chance, wants_blind_nil
from espadas.robots.heuristics import choose_play
from espadas.robots.knowledge import Knowledge, sample_deal

DEFAULT_BUDGET_MS = 100.0
PLAYOUTS_PER_MS = 40
"""Play-outs per millisecond of budget: well under the kernel's speed, leaving time
for sampling and scoring in Python."""
WIN_BONUS = 250.0
BAG_COST = 10
EPS = 80  # random plays per thousand in play-outs
MAX_SAMPLES = 120  # sampled deals per decision; more play-outs go to each
BID_SIGMA = 1.5  # tricks: how far a bid may stray from the count of the hand
PLAY_MARGIN = 1.0
BID_MARGIN = 25.0
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
    def _deals(self, view: PlayerView, count: int) -> tuple[list[list[int]], list[float]]:
        """``count`` deals of the cards held now, with a weight each."""
        k = Knowledge(view)
        deals = [sample_deal(k, self.rng) for _ in range(count)]
        weights = [_bid_likelihood(view, d, k) for d in deals]
        return deals, weights

    # bidding --------------------------------------------------------------------------
    def _bid(self, view: PlayerView) -> BidValue:
        legal = [a.value for a in view.legal if isinstance(a, Bid)]
        numbers = [b for b in legal if isinstance(b, int) and b > 0]
        guide = choose_bid(view)
        rules = view.rules
        n = rules.players
        count = min(MAX_SAMPLES * 2, max(50, self.playouts // 10))
        repeat = 2
        deals, weights = self._deals(view, count)
        leader = (view.dealer + 1) % n
        forced = first_lead_card(rules) if rules.first_lead == "two_of_clubs" else -1
        guessed = [_guess_bids(view, deal) for deal in deals for _ in range(repeat)]
        assert view.hand is not None
        estimate = estimate_tricks(int(view.hand), rules)
        w = np.repeat(np.array(weights), repeat)
        rows = np.repeat(np.array(deals, dtype=np.int64), repeat, axis=0)
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
                        fn = values[key] = _value_for(view, bids)
                    total += float(weight) * fn(tuple(int(x) for x in row))
                options.append((bid, total / max(float(w.sum()), 1e-9)))
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
        if view.cards_left[view.seat] <= 2:
            exact = np.array(
                [[_exact(view, deal, card, value) for card in candidates] for deal in deals]
            )
            scores = (w[:, None] * exact).sum(axis=0)
        else:
            trick = view.trick
            assert trick is not None
            repeat = max(1, self.playouts // (count * c))
            rows = np.repeat(np.array(deals, dtype=np.int64), c * repeat, axis=0)
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

    def _deals(self, view: PlayerView, count: int) -> tuple[list[list[int]], list[float]]:
        if not isinstance(view, FullView):
            raise TypeError("omnisciente needs a FullView (the arena gives one)")
        hands = [int(h) for h in view.hands]
        return [list(hands) for _ in range(count)], [1.0] * count


# helpers ----------------------------------------------------------------------------------
def _representative(candidates: list[int], card: int) -> int:
    """The index of the candidate that stands for ``card`` (the lowest card of its run)."""
    same = [i for i, c in enumerate(candidates) if c // 13 == card // 13 and c <= card]
    return max(same, key=lambda i: candidates[i]) if same else 0


def _row_values(out: np.ndarray, value: Value) -> np.ndarray:
    """``value`` of each row of trick counts, computed once per distinct row."""
    unique, inverse = np.unique(out, axis=0, return_inverse=True)
    table = np.array([value(tuple(int(x) for x in row)) for row in unique])
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
