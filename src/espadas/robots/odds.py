"""The rule-based robot's odds: the chance that a seat can beat a card, must win a
trick it would rather lose, or lets a card hold the trick, from the holding odds
of :func:`~espadas.robots.knowledge.holding_odds`; and how likely a card is to win
later."""

from __future__ import annotations

from espadas.engine.cardset import NON_SPADES, SPADES, SUIT_MASKS
from espadas.robots.knowledge import above, below, chance_none
from espadas.robots.situation import Situation

SPADE = 3


def p_beats(sit: Situation, seat: int, best: int, led: int) -> float:
    """The chance that ``seat`` holds a card that beats ``best`` in a trick led in
    ``led`` (and so can take the trick if it wants to)."""
    row = sit.odds[seat]
    poss = sit.k.possible(seat)
    if led == SPADE:
        return 1.0 - chance_none(row, poss & above(best))
    p_void = chance_none(row, poss & SUIT_MASKS[led])
    if best >= 39:
        return p_void * (1.0 - chance_none(row, poss & above(best)))
    p_higher = 1.0 - chance_none(row, poss & above(best))
    p_trump = 1.0 - chance_none(row, poss & SPADES)
    return min(1.0, p_higher + p_void * p_trump)


def p_forced(sit: Situation, seat: int, bar: int, led: int) -> float:
    """The chance that ``seat``, trying not to win, must play above ``bar`` (the
    best card when its turn comes) in a trick led in ``led``."""
    row = sit.odds[seat]
    poss = sit.k.possible(seat)
    p_void = chance_none(row, poss & SUIT_MASKS[led])
    if bar >= 39 and led != SPADE:
        # Trumped: following suit is safe; void, it is forced only with nothing
        # but higher spades.
        return p_void * chance_none(row, poss & (NON_SPADES | below(bar)))
    forced = max(0.0, chance_none(row, poss & SUIT_MASKS[led] & below(bar)) - p_void)
    if led != SPADE:
        forced += p_void * chance_none(row, poss & NON_SPADES)
    return min(1.0, forced)


def p_hold(sit: Situation, card: int, led: int, seats: tuple[int, ...] | list[int]) -> float:
    """The chance that ``card``, best in a trick led in ``led``, is not beaten by
    the opponents among ``seats`` who try to win tricks."""
    p = 1.0
    for s in sit.threats(seats):
        p *= 1.0 - p_beats(sit, s, card, led)
    return p


def card_value(sit: Situation, card: int) -> float:
    """Roughly the chance that ``card`` takes a trick later on: high when few unseen
    cards of its suit outrank it; a spade always keeps some ruffing value."""
    higher = (sit.k.unseen & above(card)).bit_count()
    if card >= 39:
        return max(0.25, 1.0 - 0.3 * higher)
    return max(0.0, 1.0 - 0.45 * higher)
