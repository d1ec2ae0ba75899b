"""What an outcome is worth to ``experto``: the value of a hand's final trick counts
for its side (points minus the others', bags at :data:`BAG_COST` each, winning or
losing the game :data:`WIN_BONUS`), and the exact value of each candidate card
when few cards are left (compiled alpha-beta, with a plain reference)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from espadas.engine import BLIND_NIL, PlayerView, score_hand, trick_winner
from espadas.robots import kernel

WIN_BONUS = 250.0
BAG_COST = 10
NIL_HOLD = 0.5
"""How far a play-out's word is trusted when a Nil that survived the trick in
progress fails later in it: such a failure counts only ``1 - NIL_HOLD`` of its
points. The play-out policy plays a share of random cards and the sampled hands
fit a Nil bid only loosely, so play-outs lose standing Nils far more often than
players do (``experto``'s own Nils are made about 80 % of the time); trusting
every later failure made a cover look worthless whenever the Nil failed later
in many sampled deals. The Nil is thus also a stake of the trick in progress,
which a cover (or a duck) saves in every deal where it is what saves it."""

Value = Callable[[tuple[int, ...]], float]
"""The value of the trick counts of a hand's end (by seat)."""


def value_for(view: PlayerView, bids: list[int]) -> Value:
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


def trick_winners(n: int, leader: int, cards: Sequence[int], trace: np.ndarray) -> np.ndarray:
    """The seat that wins the trick in progress in each play-out: ``cards`` are down,
    ``trace[row]`` holds the cards played after them (int64[rows])."""
    rows = trace.shape[0]
    down = np.broadcast_to(np.array(cards, dtype=np.int64), (rows, len(cards)))
    full = np.concatenate([down, trace[:, : n - len(cards)]], axis=1)
    led = full[:, :1] // 13
    rank = np.where(full >= 39, 200 + full, np.where(full // 13 == led, 100 + full, 0))
    winners: np.ndarray = (leader + rank.argmax(axis=1)) % n
    return winners


def nil_stakes(view: PlayerView, winners: np.ndarray, out: np.ndarray) -> np.ndarray:
    """The points each play-out's value gains by :data:`NIL_HOLD`: for each Nil still
    standing, a failure after the trick in progress (``winners``: its winner per row;
    ``out``: the tricks each seat took by the end) is given back ``NIL_HOLD`` of the
    Nil's swing, for the viewing seat's side (positive) or against it (negative,
    shared among the other sides as :func:`value_for` shares them)."""
    rules = view.rules
    mine = rules.side_of(view.seat)
    others = max(1, rules.sides - 1)
    adjust = np.zeros(len(out))
    for s, bid in enumerate(view.bids):
        if bid not in (0, BLIND_NIL) or view.tricks_taken[s] > 0:
            continue
        swing = 2 * (200 if bid == BLIND_NIL else 100)
        later = (winners != s) & (out[:, s] > 0)
        sign = 1.0 if rules.side_of(s) == mine else -1.0 / others
        adjust += later * (sign * NIL_HOLD * swing)
    return adjust


def exact_values(
    view: PlayerView, deals: np.ndarray, candidates: list[int], value: Value
) -> np.ndarray:
    """:func:`exact_value` of every candidate in every row of ``deals``, by the compiled
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


def exact_value(view: PlayerView, deal: Sequence[int], card: int, value: Value) -> float:
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
