"""Hand evaluation and bid choice for rule-based robots.

:func:`estimate_tricks` counts the tricks a hand should take: aces, guarded kings,
queens with length, spade honours and length, and the ruffs that short side suits
give a hand with spare spades (weights fitted on robot play for 3 to 6 players).
:func:`nil_chance` estimates how likely the hand is to take no trick at all.
:func:`choose_bid` turns both into a bid that the table accepts, aware of the
partner's bid, the bags, and every rule option (suicide, no hell, quicksand,
blind nil, individual games with 3 to 6 players).

>>> from espadas.engine import CardSet, Rules
>>> rules = Rules.from_preset("pagat")
>>> round(estimate_tricks(CardSet.parse("AKQJ.A32.A32.432"), rules))
6
>>> nil_chance(CardSet.parse("532.8642.7532.64"), rules) > 0.6
True
>>> nil_chance(CardSet.parse("AK2.8642.7532.64"), rules) < 0.05
True
"""

from __future__ import annotations

import math

from espadas.engine import BLIND_NIL, Bid, BidValue, CardSet, PlayerView, Rules

SPADE = 3
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8

# Nil danger of a side-suit card by rank (ace first) and by how many low cards
# (ten or lower, well below it) protect it in the same suit: 0, 1, 2, 3 or more.
_SIDE_DANGER: dict[int, tuple[float, float, float, float]] = {
    ACE: (3.0, 1.6, 0.9, 0.5),
    KING: (1.6, 0.8, 0.45, 0.25),
    QUEEN: (0.85, 0.45, 0.22, 0.1),
    JACK: (0.45, 0.22, 0.1, 0.05),
    TEN: (0.25, 0.12, 0.05, 0.03),
    7: (0.12, 0.05, 0.03, 0.02),
    6: (0.06, 0.03, 0.02, 0.01),
}
# Nil danger of a spade by rank (ace first); lower spades 0.05.
_SPADE_DANGER = {ACE: 6.0, KING: 2.6, QUEEN: 1.4, JACK: 0.8, TEN: 0.45, 7: 0.25, 6: 0.12}


def _ranks(hand: int, suit: int) -> list[int]:
    """The ranks (0 = two … 12 = ace) the hand holds in ``suit``, highest first."""
    bits = (hand >> (13 * suit)) & 0x1FFF
    return [r for r in range(12, -1, -1) if bits >> r & 1]


TRICK_FEATURES = (
    "ace",
    "king_with_ace",
    "king_with_ace_long",
    "king_guarded",
    "king_guarded_long",
    "king_alone",
    "queen_with_honour",
    "queen_long",
    "queen_short",
    "spade_ace",
    "spade_king_with_ace",
    "spade_king_guarded",
    "spade_king_alone",
    "spade_queen_with_honour",
    "spade_queen_long",
    "spade_queen_short",
    "spade_jack",
    "spade_ten",
    *(f"spades_{k}" for k in range(1, 9)),
    "voids",
    "singletons",
    "doubletons",
    "void_ruffs",
    "singleton_ruffs",
)
"""The names of :func:`hand_features`, in order."""


def hand_features(hand: CardSet | int) -> list[float]:
    """What makes a hand take tricks, as numbers (see :data:`TRICK_FEATURES`).

    Side suits (counted over the three): aces; kings with the ace or guarded by
    another card (apart in a long suit of 5 or more, which others trump sooner), or
    alone; queens with an honour and length, with length only, or short. Spades:
    ace, king (with the ace, guarded, alone), queen (with an honour and length, with
    length, short), jack with length or honours, ten with length; one indicator per
    spade length reached (1 to 8). Shape: voids, singletons, doubletons, and low
    spades (below the jack, up to three) that can ruff in a void or singleton suit."""
    hand = int(hand)
    f = dict.fromkeys(TRICK_FEATURES, 0.0)
    short = {0: 0, 1: 0, 2: 0}
    for suit in range(3):
        ranks = _ranks(hand, suit)
        length = len(ranks)
        held = set(ranks)
        if length <= 2:
            short[length] += 1
        long = "_long" if length >= 5 else ""
        if ACE in held:
            f["ace"] += 1
        if KING in held:
            if ACE in held:
                f["king_with_ace" + long] += 1
            elif length >= 2:
                f["king_guarded" + long] += 1
            else:
                f["king_alone"] += 1
        if QUEEN in held:
            if (ACE in held or KING in held) and length >= 3:
                f["queen_with_honour"] += 1
            elif length >= 3:
                f["queen_long"] += 1
            else:
                f["queen_short"] += 1
    spades = _ranks(hand, SPADE)
    length = len(spades)
    held = set(spades)
    tops = len(held & {ACE, KING, QUEEN})
    if ACE in held:
        f["spade_ace"] += 1
    if KING in held:
        key = "with_ace" if ACE in held else "guarded" if length >= 2 else "alone"
        f["spade_king_" + key] += 1
    if QUEEN in held:
        if (ACE in held or KING in held) and length >= 3:
            f["spade_queen_with_honour"] += 1
        elif length >= 3:
            f["spade_queen_long"] += 1
        else:
            f["spade_queen_short"] += 1
    if JACK in held and (length >= 4 or tops >= 2):
        f["spade_jack"] += 1
    if TEN in held and (length >= 5 or tops == 3):
        f["spade_ten"] += 1
    for k in range(1, min(length, 8) + 1):
        f[f"spades_{k}"] = 1.0
    low = min(3, length - len(held & {ACE, KING, QUEEN, JACK}))
    f["voids"] = short[0]
    f["singletons"] = short[1]
    f["doubletons"] = short[2]
    f["void_ruffs"] = short[0] * low
    f["singleton_ruffs"] = short[1] * low
    return [f[name] for name in TRICK_FEATURES]


# Trick weights: the constant, then one weight per entry of TRICK_FEATURES, by
# number of players. Fitted (least squares, lightly regularised) on the tricks
# these robots take over 4000 deals per table size when every seat plays to win:
# with 3 players long hands make more tricks, with 5 or 6 more winners meet ruffs.
TRICK_WEIGHTS: dict[int, tuple[float, ...]] = {
    3: (0.02, 1.02, 0.94, 0.86, 0.84, 0.88, 0.02, 0.51, 0.66, 0.03, 1.11, 1.0, 0.94, 0.29,
        0.69, 0.63, 0.07, 0.42, 0.25, 0.21, 0.38, 0.36, 0.66, 0.9, 1.03, 0.97, 0.88, -0.72,
        -0.57, 0.13, 0.69, 0.36),
    4: (-0.33, 0.99, 0.7, 0.49, 0.74, 0.57, 0.07, 0.22, 0.26, 0.07, 0.9, 0.95, 0.74, 0.11,
        0.65, 0.58, 0.3, 0.41, 0.26, 0.32, 0.31, 0.48, 0.52, 0.61, 0.84, 0.8, 0.88, 0.13,
        0.28, 0.14, 0.29, 0.07),
    5: (-0.21, 0.79, 0.16, -0.08, 0.3, 0.25, 0.19, 0.02, 0.15, 0.07, 0.77, 0.75, 0.53, 0.33,
        0.6, 0.41, 0.24, 0.37, 0.23, 0.21, 0.37, 0.53, 0.67, 0.83, 0.85, 0.94, 0.2, 0.4,
        0.24, -0.0, 0.06, -0.05),
    6: (-0.08, 0.56, 0.05, -0.15, 0.14, 0.2, 0.13, -0.01, 0.07, 0.02, 0.72, 0.64, 0.5, 0.37,
        0.41, 0.33, 0.26, 0.2, 0.25, 0.25, 0.49, 0.66, 0.87, 0.82, 0.84, 0.67, 0.0, 0.34,
        0.05, -0.04, -0.04, -0.1),
}  # fmt: skip


def estimate_tricks(hand: CardSet | int, rules: Rules) -> float:
    """The tricks ``hand`` should take when its holder plays to win them: a linear
    count of :func:`hand_features` (aces, guarded kings, queens with length, spade
    honours and length, ruffs in short suits) with weights for the table size."""
    weights = TRICK_WEIGHTS[rules.players]
    total = weights[0] + sum(w * x for w, x in zip(weights[1:], hand_features(hand), strict=True))
    return min(max(total, 0.0), float(rules.hand_size))


def nil_danger(hand: CardSet | int) -> tuple[float, float, float, int]:
    """The parts of a hand that make a Nil fail: (spade honours, spade length, side
    cards that few low cards protect, short side suits). Higher is worse but for
    the short suits, which help (they let the holder discard)."""
    hand = int(hand)
    spades = _ranks(hand, SPADE)
    honours = sum(_SPADE_DANGER.get(r, 0.05) for r in spades)
    length = 0.35 * (len(spades) - 2) ** 1.5 if len(spades) >= 3 else 0.0
    side = 0.0
    short = 0
    for suit in range(3):
        ranks = _ranks(hand, suit)
        if len(ranks) <= 1:
            short += 1
        for r in ranks:
            table = _SIDE_DANGER.get(r)
            if table is None:
                continue
            guards = sum(1 for x in ranks if x <= min(r - 3, TEN))
            side += table[min(guards, 3)]
    return honours, length, side, short


# Logistic weights of the chance that a Nil succeeds: (constant, spade honours,
# spade length, side danger, short suits), fitted on thousands of hands played by
# these robots (a Nil forced on a seat, the others playing normally), by number
# of players and partnerships. Alone, nobody covers: Nil is much harder.
NIL_WEIGHTS: dict[tuple[int, bool], tuple[float, float, float, float, float]] = {
    (4, True): (2.03, -0.67, -1.64, -1.09, 0.58),
    (3, False): (0.27, -0.53, -0.47, -3.19, 0.24),
    (4, False): (0.12, -0.75, -0.44, -1.75, 0.37),
    (5, False): (0.86, -0.61, -1.35, -1.35, 0.22),
    (6, False): (1.31, -0.74, -2.48, -0.96, 0.14),
}


def nil_chance(hand: CardSet | int, rules: Rules) -> float:
    """The chance that ``hand`` takes no trick when its holder bids Nil (and the
    partner, if any, covers): a logistic model of :func:`nil_danger`."""
    honours, length, side, short = nil_danger(hand)
    w0, w1, w2, w3, w4 = NIL_WEIGHTS[(rules.players, rules.partnerships)]
    z = w0 + w1 * honours + w2 * length + w3 * side + w4 * short
    return 1.0 / (1.0 + math.exp(-z))


NIL_BASE = 0.6
"""The least chance of success for a Nil bid, with a hand worth no trick…"""
NIL_PER_TRICK = 0.05
"""…and how much more it must have for each trick the hand is worth otherwise."""
SHADE = {3: 0.8, 4: 0.4, 5: 0.3, 6: 0.3}
"""Tricks taken off the estimate before rounding, by number of players: a failed
contract costs far more than an overtrick (a bag; with quicksand, 10 points, while
a miss loses the whole contract), so the robot aims a little low. More with 3
players, whose long hands are harder to estimate. Measured in duplicate matches."""

SUICIDE_EST = 3.5
SUICIDE_NIL = 0.3
"""Suicide, first partner to bid: Nil with a hand worth under ``SUICIDE_EST`` tricks
that has at least this chance at Nil (or is worth a trick less), else 4 or more."""


def closest_legal(legal: list[BidValue], desired: int) -> BidValue:
    """The legal bid nearest ``desired`` (never blind nil; Nil only when ``desired``
    is Nil or when nothing else is allowed); on a tie, the lower one."""
    numbers = [b for b in legal if isinstance(b, int)]
    if desired > 0 and any(b > 0 for b in numbers):
        numbers = [b for b in numbers if b > 0]
    if not numbers:
        return legal[0]
    return min(numbers, key=lambda b: (abs(b - desired), b))


def _is_nil(bid: BidValue | None) -> bool:
    return bid == 0 or bid == BLIND_NIL


def wants_blind_nil(view: PlayerView) -> bool:
    """Whether to bid blind nil (asked while the hand is still face down): only when
    the side is far behind near the end of the game and the partner has not bid Nil.
    Far behind: at least 30 % of the target (150 of 500) below the leading side,
    which has already reached 60 % of the target."""
    rules = view.rules
    if not any(isinstance(a, Bid) and a.value == BLIND_NIL for a in view.legal):
        return False
    partner = view.rules.partner_of(view.seat)
    if partner is not None and _is_nil(view.bids[partner]):
        return False
    side = rules.side_of(view.seat)
    ours = view.scores[side]
    leader = max(v for s, v in enumerate(view.scores) if s != side)
    return leader - ours >= 0.3 * rules.target and leader >= 0.6 * rules.target


def choose_bid(view: PlayerView) -> BidValue:
    """The bid for the seat to act (its hand face up), among ``view.legal``."""
    return bid_and_reason(view)[0]


def bid_and_reason(view: PlayerView) -> tuple[BidValue, str, dict[str, float]]:
    """:func:`choose_bid`, the reason for it (a key of
    :data:`espadas.robots.explain.BID_REASONS`) and its parameters: ``tricks``, the
    hand's estimate, and ``nil``, its chance at Nil in per cent."""
    rules = view.rules
    assert view.held is not None
    legal: list[BidValue] = [a.value for a in view.legal if isinstance(a, Bid)]
    est = estimate_tricks(view.held, rules)
    p_nil = nil_chance(view.held, rules)
    partner = view.rules.partner_of(view.seat)
    partner_bid = view.bids[partner] if partner is not None else None
    partner_nil = _is_nil(partner_bid)
    side = rules.side_of(view.seat)
    params = {"tricks": round(est, 1), "nil": round(100 * p_nil)}

    # Nil: worth 200 points of swing; a number is worth about ten points a trick.
    nil_wanted = False
    why = "bid_nil"
    if not partner_nil and 0 in legal:
        need = NIL_BASE + NIL_PER_TRICK * est
        if isinstance(partner_bid, int) and partner_bid > 0:
            need += -0.05 if partner_bid >= 4 else 0.05 if partner_bid <= 2 else 0.0
        nil_wanted = est < 3.5 and p_nil >= need
        if rules.suicide and partner_bid is None:
            # The first partner chooses Nil or 4+: Nil unless the hand is worth 4.
            nil_wanted = est < SUICIDE_EST and (p_nil >= SUICIDE_NIL or est < SUICIDE_EST - 1)
            why = "bid_suicide_nil"
    if nil_wanted:
        return closest_legal(legal, 0), why, params

    why = "bid_count"
    target = est - SHADE[rules.players]
    if not rules.quicksand and view.bags[side] >= 7:
        target = est + 0.1  # the bag penalty is near: shade up
        why = "bid_bags"
    if partner_nil:
        target += 0.5  # covering a Nil takes tricks with high cards
        why = "bid_cover_nil"
    desired = max(1, math.floor(target + 0.5))
    # Keep the table's total plausible: when the bids already made and this one add
    # up to well over the tricks there are, shade down.
    others = sum(b for b in view.bids if isinstance(b, int))
    over = others + desired - (rules.hand_size + 1)
    if over > 0:
        desired = max(1, desired - (over + 1) // 2)
        why = "bid_table_total"
    return closest_legal(legal, min(desired, rules.hand_size)), why, params
