"""Play-outs: the rest of a hand played from one position, many times over, every
hand known (a sampled deal), each seat by the play-out policy
(:func:`~espadas.robots.kernel.policy.choose`)."""

from __future__ import annotations

import numpy as np

from espadas.robots.kernel.cards import proper_mask, winning
from espadas.robots.kernel.jit import jit
from espadas.robots.kernel.policy import choose

NO_TRACE = np.zeros((0, 0), dtype=np.int64)
"""The ``trace`` of a play-out that records no cards."""


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
