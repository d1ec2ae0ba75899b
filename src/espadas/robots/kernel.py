"""A compiled play-out kernel for the search robots.

Plays the rest of a hand from a position where every hand is known (a sampled
deal), many times over, with a fast policy that follows the habits of the
rule-based robot ``normal`` (:mod:`espadas.robots.heuristics`), so that the
simulated partner and opponents play as the real ones do: its own Nil first
(the highest card that loses), the partner's Nil (cover it), an opponent's Nil
(keep it winning, lead low into it), then the side's contract: while tricks are
needed win cheaply (second hand low, third hand high, never overtake a partner
who holds the trick), draw trumps, cash winners, lead from strength; once it is
made, duck with the highest losing card, unless the opponents can be set. Where
``normal`` weighs odds, the policy reads the sampled hands. A small share of
plays is random so that play-outs differ. Compiled with numba when it is
installed (it is a dependency); the same code runs as plain Python otherwise.

The engine stays the single source of the rules: this kernel re-states only
what a play-out needs (follow suit, the lead rule, the first-trick spade rule,
the trick winner) and ``tests/test_kernel.py`` checks it against the engine
over many random positions.

Cards are the engine's ints (``suit * 13 + rank``, spades 39..51); hands are
52-bit masks in int64 arrays.

>>> import numpy as np
>>> held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)  # one spade each
>>> out = playouts(held, 4, 1, 0, np.zeros(4, np.int64), 0, np.zeros(4, np.int64), True,
...                0, False, -1, np.ones((1, 4), np.int64), np.array([2, 3, 0, 1]),
...                np.array([-1]), np.array([7]), 0, NO_TRACE)
>>> out[0].tolist()   # the ace of spades (seat 0) wins the only trick
[1, 0, 0, 0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

try:  # pragma: no branch
    from numba import njit as _njit

    def jit(fn: F) -> F:
        return _njit(cache=True, nogil=True)(fn)  # type: ignore[return-value]

    COMPILED = True
except ImportError:  # pragma: no cover - numba is a dependency; this is a fallback

    def jit(fn: F) -> F:
        return fn

    COMPILED = False

NO_TRACE = np.zeros((0, 0), dtype=np.int64)
SUIT_BITS = 0x1FFF
SPADES = SUIT_BITS << 39
NON_SPADES = (1 << 39) - 1

_POP = np.zeros(8192, dtype=np.int64)
_HIGH = np.full(8192, -1, dtype=np.int64)
_LOW = np.full(8192, -1, dtype=np.int64)
for _c in range(1, 8192):
    _POP[_c] = bin(_c).count("1")
    _HIGH[_c] = _c.bit_length() - 1
    _LOW[_c] = (_c & -_c).bit_length() - 1


if COMPILED:
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx: Any, x: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @jit
    def popcount(m: int) -> int:
        """The number of cards in ``m`` (one processor instruction)."""
        return int(_ctpop(m))  # type: ignore[call-arg]

    @jit
    def highest(m: int) -> int:
        """The greatest card in ``m`` (spades count highest), or -1."""
        return 63 - int(_ctlz(m)) if m else -1  # type: ignore[call-arg]

    @jit
    def lowest(m: int) -> int:
        """The smallest card in ``m``, or -1."""
        return int(_cttz(m)) if m else -1  # type: ignore[call-arg]

else:  # pragma: no cover - plain Python, when numba is missing

    def popcount(m: int) -> int:
        return int(m).bit_count()

    def highest(m: int) -> int:
        return int(m).bit_length() - 1

    def lowest(m: int) -> int:
        return (int(m) & -int(m)).bit_length() - 1


@jit
def lowest_rank(m: int) -> int:
    """The card of lowest rank in ``m`` (non-spades first on equal ranks), or -1."""
    best = -1
    best_rank = 99
    for s in range(4):
        c = (m >> (13 * s)) & SUIT_BITS
        if c:
            r = int(_LOW[c])
            if r < best_rank:
                best_rank = r
                best = 13 * s + r
    return best


@jit
def next_random(state: int) -> int:
    """A 31-bit linear congruential step: the same in compiled code and in Python."""
    return (state * 1103515245 + 12345) & 0x7FFFFFFF


@jit
def nth_card(m: int, k: int) -> int:
    """The ``k``-th card of ``m`` in ascending order."""
    for s in range(4):
        c = (m >> (13 * s)) & SUIT_BITS
        p = int(_POP[c])
        if k < p:
            for _ in range(k):
                c &= c - 1
            return int(13 * s + _LOW[c])
        k -= p
    return -1


@jit
def proper_mask(
    held: int, led: int, leading: bool, broken: bool, first_trick_forbidden: bool, forced: int
) -> int:
    """The cards that follow the rules (as the engine's proper plays)."""
    if leading:
        if forced >= 0:
            return 1 << forced
        if not broken and held & NON_SPADES:
            return held & NON_SPADES
        return held
    follow = held & (SUIT_BITS << (13 * led))
    if follow:
        return follow
    if first_trick_forbidden and held & NON_SPADES:
        return held & NON_SPADES
    return held


@jit
def winning(trick: np.ndarray, trick_len: int) -> tuple[int, int]:
    """(card, position) of the card winning the first ``trick_len`` cards of a trick:
    the highest spade, else the highest card of the suit led."""
    led = trick[0] // 13
    best = -1
    best_at = 0
    for i in range(trick_len):
        c = trick[i]
        if c > best and (c >= 39 or c // 13 == led):
            best = c
            best_at = i
    return best, best_at


@jit
def beating(best: int, led: int) -> int:
    """The cards that would beat ``best`` in a trick led in suit ``led``."""
    above = ~((1 << (best + 1)) - 1)
    if best >= 39:
        return SPADES & above
    return ((SUIT_BITS << (13 * led)) & above) | SPADES


@jit
def suit_mask(suit: int) -> int:
    return SUIT_BITS << (13 * suit)


@jit
def above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it."""
    return suit_mask(card // 13) & ~((2 << card) - 1)


@jit
def can_beat(hand: int, best: int, led: int) -> bool:
    """Whether a seat holding ``hand`` may (and can) beat ``best`` in a trick led in
    ``led``: following suit when it can, trumping when void."""
    follow = hand & suit_mask(led)
    if follow:
        return best // 13 == led and (follow & above(best)) != 0
    if best >= 39:
        return (hand & above(best)) != 0
    return (hand & SPADES) != 0


@jit
def forced_to_win(hand: int, bar: int, led: int) -> bool:
    """Whether a seat holding ``hand`` must beat ``bar`` in a trick led in ``led``."""
    if hand == 0:
        return False
    follow = hand & suit_mask(led)
    if follow:
        return bar // 13 == led and (follow & ~above(bar)) == 0
    if bar >= 39:
        return (hand & ~above(bar)) == 0
    return (hand & NON_SPADES) == 0


@jit
def card_value(card: int, others: int) -> float:
    """Roughly the chance that ``card`` takes a trick later: few cards above it."""
    higher = popcount(others & above(card))
    if card >= 39:
        return max(0.25, 1.0 - 0.3 * higher)
    return max(0.0, 1.0 - 0.45 * higher)


@jit
def holds(
    card: int, led: int, hands: np.ndarray, first: int, count: int, n: int, threat: np.ndarray
) -> bool:
    """Whether ``card``, best in the trick, is beaten by none of the ``count`` seats
    from ``first`` on that try to win tricks (``threat``)."""
    for i in range(count):
        s = (first + i) % n
        if threat[s] and can_beat(hands[s], card, led):
            return False
    return True


@jit
def dump(cards: int, led: int, others: int) -> int:
    """The card to shed among ``cards`` (none of which wins now): the highest of the
    suit led, else the one most likely to win later."""
    follow = cards & suit_mask(led)
    if follow:
        return highest(follow)
    best = -1
    best_v = -1.0
    m = cards
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        v = card_value(c, others) * 100.0 + c % 13
        if v > best_v:
            best_v = v
            best = c
    return best


@jit
def discard(cards: int, hand: int, others: int) -> int:
    """The card to throw away when void and not trumping: the least valuable, from a
    short suit when holding spades, else from a long one."""
    has_spades = (hand & SPADES) != 0
    best = -1
    best_v = 1e18
    m = cards
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        v = card_value(c, others)
        if c >= 39:
            v += 1.0
        length = popcount(hand & suit_mask(c // 13))
        v += 0.05 * length if has_spades else -0.05 * length
        v = v * 100.0 + (c % 13) * 0.01
        if v < best_v:
            best_v = v
            best = c
    return best


@jit
def low_card(legal: int, hand: int, best: int, led: int, others: int) -> int:
    """A card that does not try to win: the lowest of the suit led, else a discard."""
    follow = legal & suit_mask(led)
    if follow:
        return lowest(follow)
    unders = legal & ~beating(best, led)
    if unders:
        return discard(unders, hand, others)
    return lowest(legal)


@jit
def side_need(seat: int, bids: np.ndarray, tricks: np.ndarray, partner: np.ndarray) -> int:
    """The tricks ``seat``'s side still needs for its contract (bids other than Nil)."""
    need = 0
    if bids[seat] > 0:
        need += bids[seat] - tricks[seat]
    mate = partner[seat]
    if mate >= 0 and bids[mate] > 0:
        need += bids[mate] - tricks[mate]
    return need


@jit
def side_contract(seat: int, bids: np.ndarray, partner: np.ndarray) -> int:
    contract = max(0, int(bids[seat]))
    mate = partner[seat]
    if mate >= 0:
        contract += max(0, int(bids[mate]))
    return contract


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
            if o in (seat, mate) or 0 <= partner[o] < o:
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
    later = n - trick_len - 1
    first_later = (seat + 1) % n

    if trick_len == 0:  # leads -------------------------------------------------
        if alive[seat]:
            return lowest_rank(legal), state
        if mate >= 0 and alive[mate]:  # lead for the partner's Nil
            best = -1
            best_v = 1e18
            m = legal
            while m:
                low = m & -m
                m ^= low
                c = highest(low)
                suit = c // 13
                risk = 1.0 if forced_to_win(hands[mate], c, suit) else 0.0
                hold = 1.0 if holds(c, suit, hands, first_later, n - 1, n, threat) else 0.0
                v = 4.0 * risk + 0.15 * card_value(c, others) * (1.0 - hold)
                if win:
                    v -= 0.3 * hold
                if v < best_v - 1e-9:
                    best_v = v
                    best = c
            return best, state
        if bust_ok:  # lead low into an opponent's Nil
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
                    if f > 0 and om >= 0 and not alive[om] and can_beat(hands[om], c, suit):
                        first_mate = (om - seat) % n < (o - seat) % n
                        f *= 0.2 if first_mate else 0.5
                    total += f
                v = total - 0.1 * card_value(c, others)
                if v > best_v:
                    best_v = v
                    best = c
                    best_p = total
            if best_p >= 0.05:
                return best, state
        if not win:  # duck: lead the highest card that loses
            best = -1
            best_v = 1e18
            m = legal
            while m:
                low = m & -m
                m ^= low
                c = highest(low)
                hold = holds(c, c // 13, hands, first_later, n - 1, n, threat)
                v = (1000.0 if hold else 0.0) + (100.0 if c >= 39 else 0.0) - c % 13
                if v < best_v:
                    best_v = v
                    best = c
            return best, state
        # win: draw trumps, cash winners, lead to the partner's ruff, shorten, strength
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
            if not others & above(c) and holds(c, c // 13, hands, first_later, n - 1, n, threat):
                cash = c
        if cash >= 0:
            return cash, state
        if mate >= 0 and not alive[mate] and hands[mate] & SPADES:
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
                if mate >= 0 and not hands[mate] & suit_mask(suit):
                    v += 0.8
            state = next_random(state)
            v += (state % 1000) * 1e-6
            if v > best_v:
                best_v = v
                best = card
        return best, state

    # follows ---------------------------------------------------------------------
    led = trick[0] // 13
    best, best_at = winning(trick, trick_len)
    best_seat = (leader + best_at) % n
    winners = legal & beating(best, led)
    unders = legal & ~winners
    if alive[seat]:  # own Nil
        if unders:
            return dump(unders, led, others), state
        if later == 0:
            return dump(legal, -1, others), state
        chosen = -1
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = highest(low)
            overtaken = False
            for i in range(later):
                s = (first_later + i) % n
                if s == mate:
                    if can_beat(hands[s], c, led):
                        overtaken = True
                elif forced_to_win(hands[s], c, led):
                    overtaken = True
            if overtaken:
                chosen = c
        return (chosen if chosen >= 0 else highest(legal)), state
    if mate >= 0 and alive[mate]:  # cover the partner's Nil
        mate_later = (mate - seat) % n <= later
        if not mate_later:
            if best_seat == mate and winners:
                return lowest(winners), state
        else:
            lowc = low_card(legal, hand, best, led, others)
            bar = lowc if beats_card(lowc, best, led) else best
            if forced_to_win(hands[mate], bar, led):
                chosen = -1
                chosen_v = 1e18
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    c = highest(low)
                    bar = c if beats_card(c, best, led) else best
                    risk = 1.0 if forced_to_win(hands[mate], bar, led) else 0.0
                    v = 4.0 * risk + 0.15 * card_value(c, others)
                    if v < chosen_v - 1e-9:
                        chosen_v = v
                        chosen = c
                return chosen, state
    if bust_ok:  # keep an opponent's Nil winning, or the bar low before it
        for o in range(n):
            if not alive[o] or o in (seat, mate):
                continue
            o_later = 0 < (o - seat) % n <= later
            if not o_later:
                if best_seat == o and unders:
                    return dump(unders, led, others), state
                continue
            if not forced_to_win(hands[o], best, led):
                continue
            if unders:
                return dump(unders, led, others), state
            return lowest(legal), state
    if not win:  # duck
        if unders:
            return dump(unders, led, others), state
        any_later_threat = False
        for i in range(later):
            if threat[(first_later + i) % n]:
                any_later_threat = True
        if not any_later_threat:
            return dump(legal, -1, others), state
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = highest(low)
            if not holds(c, led, hands, first_later, later, n, threat):
                return c, state
        return lowest(legal), state
    # win
    lowc = low_card(legal, hand, best, led, others)
    if mate >= 0 and best_seat == mate:
        if not winners or holds(best, led, hands, first_later, later, n, threat):
            return lowc, state
        m = winners
        while m:
            low = m & -m
            m ^= low
            c = highest(low)
            if holds(c, led, hands, first_later, later, n, threat):
                return c, state
        return lowc, state
    if not winners:
        return lowc, state
    any_later_threat = False
    for i in range(later):
        if threat[(first_later + i) % n]:
            any_later_threat = True
    if not any_later_threat:
        return lowest(winners), state
    m = winners
    while m:
        low = m & -m
        m ^= low
        c = highest(low)
        if holds(c, led, hands, first_later, later, n, threat):
            return c, state
    if mate >= 0 and (mate - seat) % n <= later and not alive[mate]:
        return lowc, state  # second hand low: the partner may still win it
    same = winners & suit_mask(led)
    if same:
        return highest(same), state  # third hand high
    return lowc, state


@jit
def beats_card(card: int, best: int, led: int) -> bool:
    """Whether ``card`` beats ``best``, the card winning a trick led in ``led``."""
    if card >= 39:
        return best < 39 or card > best
    return card // 13 == led and best < 39 and card > best


@jit
def playouts(
    held: np.ndarray,
    n: int,
    size: int,
    leader: int,
    trick0: np.ndarray,
    trick_len0: int,
    tricks0: np.ndarray,
    broken0: bool,
    plays_done0: int,
    first_forbidden: bool,
    forced0: int,
    bids: np.ndarray,
    partner: np.ndarray,
    first_card: np.ndarray,
    seeds: np.ndarray,
    eps: int,
    trace: np.ndarray,
) -> np.ndarray:
    """Plays out every row of ``held`` (int64[rows, n]: the cards each seat holds)
    from one position: ``leader`` led the current trick, whose first ``trick_len0``
    cards are ``trick0``; ``tricks0`` counts tricks taken; ``plays_done0`` cards were
    played this hand; ``forced0`` is the card the very first lead must be (or -1).
    ``bids`` (int64[rows or 1, n]) are the bids by seat, 0 for Nil (blind or not),
    one row per play-out or one row for all. ``first_card[row]`` (or -1) is the card
    the seat to act plays first.
    ``eps`` is the share of random plays, per thousand. Returns int64[rows, n]:
    the tricks each seat has taken at the end of the hand. When ``trace`` has rows,
    ``trace[row, k]`` receives the k-th card played in that row (for tests)."""
    rows = held.shape[0]
    tracing = trace.shape[0] > 0
    out = np.zeros((rows, n), dtype=np.int64)
    total = n * size
    trick = np.zeros(n, dtype=np.int64)
    hands = np.zeros(n, dtype=np.int64)
    threat = np.zeros(n, dtype=np.int64)
    alive = np.zeros(n, dtype=np.int64)
    for row in range(rows):
        row_bids = bids[row if bids.shape[0] > 1 else 0]
        for s in range(n):
            hands[s] = held[row, s]
            out[row, s] = tricks0[s]
        for i in range(trick_len0):
            trick[i] = trick0[i]
        trick_len = trick_len0
        lead = leader
        broken = broken0
        done = plays_done0
        state = seeds[row] & 0x7FFFFFFF
        forced_card = first_card[row]
        step = 0
        while done < total:
            seat = (lead + trick_len) % n
            h = hands[seat]
            if forced_card >= 0:
                card = forced_card
                forced_card = -1
            else:
                led = trick[0] // 13 if trick_len > 0 else -1
                legal = proper_mask(
                    h,
                    led,
                    trick_len == 0,
                    broken,
                    first_forbidden and done < n,
                    forced0 if done == 0 else -1,
                )
                card, state = choose(
                    seat, legal, hands, trick, trick_len, lead, row_bids, out[row], partner,
                    n, size, state, eps, threat, alive,
                )  # fmt: skip
            if tracing:
                trace[row, step] = card
            step += 1
            bit = 1 << card
            hands[seat] = h & ~bit
            trick[trick_len] = card
            trick_len += 1
            done += 1
            if card >= 39:
                broken = True
            if trick_len == n:
                lead = (lead + winning(trick, n)[1]) % n
                out[row, lead] += 1
                trick_len = 0
    return out


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
    miss: float,
    seed: int,
) -> np.ndarray:
    """How well each sampled deal explains the cards the other seats played: the hand
    is replayed from its start (each seat's cards now plus those it played), and
    every play by a seat other than ``viewer`` that the play-out policy (without
    random plays) would not have made, nor a card equivalent to it (no card of
    another seat between them), multiplies the deal's weight by ``miss``.
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
                            w *= miss
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


@jit
def _minimax(
    hands: np.ndarray,
    n: int,
    played: np.ndarray,
    d0: int,
    leader0: int,
    trick_len0: int,
    broken0: bool,
    done0: int,
    first_forbidden: bool,
    maximize: np.ndarray,
    extra: np.ndarray,
    base: int,
    table: np.ndarray,
    stack: np.ndarray,
    bounds: np.ndarray,
) -> float:
    """The minimax value (alpha-beta, without recursion) of a position where every
    hand is known: seats with ``maximize`` set maximize ``table`` (indexed by the
    tricks each seat takes from now on, ``extra``, in base ``base``), the others
    minimize it. ``played[d0 - trick_len0:d0]`` is the trick in progress, led by
    ``leader0``; ``stack`` (int64[depth, 5]) and ``bounds`` (float64[depth, 3]) are
    scratch space: per depth the cards left to try, leader, trick length, spades
    broken and the trick's winner; best value, alpha and beta."""
    d = d0
    stack[d, 1] = leader0
    stack[d, 2] = trick_len0
    stack[d, 3] = 1 if broken0 else 0
    bounds[d, 1] = -1e18
    bounds[d, 2] = 1e18
    enter = True
    v = 0.0
    while True:
        if enter:
            seat = (stack[d, 1] + stack[d, 2]) % n
            if hands[seat] == 0:
                index = 0
                for s in range(n - 1, -1, -1):
                    index = index * base + extra[s]
                v = float(table[index])
                enter = False
            else:
                tl = stack[d, 2]
                led = played[d - tl] // 13 if tl > 0 else -1
                first = first_forbidden and done0 + d - d0 < n
                stack[d, 0] = proper_mask(hands[seat], led, tl == 0, stack[d, 3] != 0, first, -1)
                bounds[d, 0] = -1e18 if maximize[seat] else 1e18
            if not enter:  # a leaf: its value goes to the parent
                if d == d0:
                    return v
                d = _undo(hands, n, played, d, stack, extra)
                _back(maximize, stack, bounds, d, v, n)
        # next card of node d, or the node's value to its parent
        if stack[d, 0] == 0 or bounds[d, 1] >= bounds[d, 2]:
            v = float(bounds[d, 0])
            if d == d0:
                return v
            d = _undo(hands, n, played, d, stack, extra)
            _back(maximize, stack, bounds, d, v, n)
            enter = False
            continue
        m = stack[d, 0]
        low = m & -m
        stack[d, 0] = m ^ low
        c = highest(low)
        seat = (stack[d, 1] + stack[d, 2]) % n
        hands[seat] ^= low
        played[d] = c
        tl = stack[d, 2] + 1
        if tl == n:
            winner = (stack[d, 1] + winning(played[d + 1 - n : d + 1], n)[1]) % n
            extra[winner] += 1
            stack[d, 4] = winner
            stack[d + 1, 1] = winner
            stack[d + 1, 2] = 0
        else:
            stack[d, 4] = -1
            stack[d + 1, 1] = stack[d, 1]
            stack[d + 1, 2] = tl
        stack[d + 1, 3] = 1 if stack[d, 3] != 0 or c >= 39 else 0
        bounds[d + 1, 1] = bounds[d, 1]
        bounds[d + 1, 2] = bounds[d, 2]
        d += 1
        enter = True


@jit
def _undo(
    hands: np.ndarray, n: int, played: np.ndarray, d: int, stack: np.ndarray, extra: np.ndarray
) -> int:
    """Takes back the card played at depth ``d - 1``; returns ``d - 1``."""
    d -= 1
    seat = (stack[d, 1] + stack[d, 2]) % n
    hands[seat] ^= 1 << played[d]
    if stack[d, 4] >= 0:
        extra[stack[d, 4]] -= 1
    return d


@jit
def _back(
    maximize: np.ndarray, stack: np.ndarray, bounds: np.ndarray, d: int, v: float, n: int
) -> None:
    """Gives the value ``v`` of a card tried at depth ``d`` to that node."""
    seat = (stack[d, 1] + stack[d, 2]) % n
    if maximize[seat]:
        if v > bounds[d, 0]:
            bounds[d, 0] = v
        if v > bounds[d, 1]:
            bounds[d, 1] = v
    else:
        if v < bounds[d, 0]:
            bounds[d, 0] = v
        if v < bounds[d, 2]:
            bounds[d, 2] = v


@jit
def exact_values(
    deals: np.ndarray,
    n: int,
    leader: int,
    trick0: np.ndarray,
    trick_len0: int,
    broken0: bool,
    plays_done0: int,
    first_forbidden: bool,
    maximize: np.ndarray,
    candidates: np.ndarray,
    base: int,
    table: np.ndarray,
) -> np.ndarray:
    """The minimax value (see :func:`_minimax`) of playing each of ``candidates`` now,
    in each sampled deal: float64[rows, candidates]."""
    rows = deals.shape[0]
    out = np.zeros((rows, candidates.shape[0]))
    hands = np.zeros(n, dtype=np.int64)
    extra = np.zeros(n, dtype=np.int64)
    depth = trick_len0 + 1 + n * 20
    played = np.zeros(depth, dtype=np.int64)
    stack = np.zeros((depth, 5), dtype=np.int64)
    bounds = np.zeros((depth, 3))
    for j in range(trick_len0):
        played[j] = trick0[j]
    seat = (leader + trick_len0) % n
    d0 = trick_len0
    for row in range(rows):
        for s in range(n):
            hands[s] = deals[row, s]
        for i in range(candidates.shape[0]):
            c = candidates[i]
            played[d0] = c
            hands[seat] ^= 1 << c
            broken = broken0 or c >= 39
            if trick_len0 + 1 == n:
                winner = (leader + winning(played[d0 + 1 - n : d0 + 1], n)[1]) % n
                extra[winner] += 1
                v = _minimax(
                    hands, n, played, d0 + 1, winner, 0, broken, plays_done0 + 1,
                    first_forbidden, maximize, extra, base, table, stack, bounds,
                )  # fmt: skip
                extra[winner] -= 1
            else:
                v = _minimax(
                    hands, n, played, d0 + 1, leader, trick_len0 + 1, broken, plays_done0 + 1,
                    first_forbidden, maximize, extra, base, table, stack, bounds,
                )  # fmt: skip
            hands[seat] ^= 1 << c
            out[row, i] = v
    return out


def warm_up() -> None:
    """Compiles (or loads the cached compilation of) the kernel before timing starts,
    and builds the per-suit tables of :mod:`espadas.robots.expert` (about a second)."""
    from espadas.robots.expert import _suit_features  # imported here: expert imports us

    _suit_features()
    held = np.array([[1 << 51, 1 << 50, 1 << 49, 1 << 48]], dtype=np.int64)
    zeros = np.zeros(4, dtype=np.int64)
    playouts(
        held, 4, 1, 0, zeros, 0, zeros, True, 0, False, -1, np.ones((1, 4), dtype=np.int64),
        np.array([2, 3, 0, 1], dtype=np.int64), np.array([-1], dtype=np.int64),
        np.array([1], dtype=np.int64), 0, NO_TRACE,
    )  # fmt: skip
    sample_deals(0, 1, 14, np.zeros(4, np.int64), np.array([0, 1, 1, 1]), np.array([1, 2, 3]),
                 1, 1, 1)  # fmt: skip
    agreement(
        held, np.zeros(4, dtype=np.int64), 4, 1, np.zeros(0, dtype=np.int64),
        np.zeros(1, dtype=np.int64), 0, np.ones(4, dtype=np.int64),
        np.array([2, 3, 0, 1], dtype=np.int64), False, -1, 0.5, 1,
    )  # fmt: skip
    exact_values(
        held, 4, 0, zeros, 0, True, 0, False, np.array([1, 0, 1, 0], dtype=np.int64),
        np.array([51], dtype=np.int64), 2, np.zeros(16),
    )  # fmt: skip
