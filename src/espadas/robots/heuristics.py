"""Card play of the rule-based robot: a card for the seat to play, from its view.

The choice follows the habits of a careful club player, with card memory from
:class:`~espadas.robots.knowledge.Knowledge` and rough odds of who holds what
(:func:`~espadas.robots.knowledge.holding_odds`):

- its own Nil first: play the highest card that still loses, discard high cards
  when void, win only when forced;
- the partner's Nil next: overtake the partner's winning card, play high when the
  partner plays after, lead high cards or suits the partner is void in;
- an opponent's Nil: lead low into the Nil bidder, stay under the Nil bidder's
  card, keep the bar low when the Nil bidder plays after;
- then the contract: win cheaply while tricks are needed (second hand low, third
  hand high, the lowest card that wins, never overtake the partner's sure winner,
  cash winners, draw trumps, lead from strength); once it is made, duck with the
  highest losing card (bags), unless setting the opponents pays.

Only cards from ``view.proper_plays`` are chosen: the robot never reneges.

>>> import random
>>> from espadas.engine import Game, Rules, Bid
>>> game = Game.new(Rules.from_preset("pagat"), seed=5)
>>> while game.phase == "bidding":
...     game.apply(Bid(3))
>>> view = game.view_for(game.to_act)
>>> choose_play(view, random.Random(1)) in view.proper_plays
True
"""

from __future__ import annotations

import random

from espadas.engine import CARDS, Card, PlayerView
from espadas.engine.cardset import SPADES
from espadas.robots.knowledge import above, bits, is_master, known_void
from espadas.robots.odds import card_value, p_beats, p_forced, p_hold
from espadas.robots.situation import Situation, situation, wants_every_trick
from espadas.robots.tricks import beats

SPADE = 3
JACK, QUEEN = 9, 10
SURE = 0.7
"""The chance of holding a trick above which a card counts as a winner."""

Why = tuple[int, str]
"""A card and the habit that chose it (a reason key, see :mod:`espadas.robots.explain`)."""


# Shedding -------------------------------------------------------------------


def _dump(sit: Situation, cards: list[int]) -> int:
    """The card to shed among ``cards`` (none of which wins the trick now): the
    highest card of the suit led, else the one most likely to win later."""
    follow = [c for c in cards if c // 13 == sit.led]
    if follow:
        return follow[-1]
    return max(cards, key=lambda c: (card_value(sit, c), c % 13))


def _discard(sit: Situation, cards: list[int]) -> int:
    """The card to throw away when void and not trumping, keeping winners and
    trumps: the least valuable card, from a short suit when holding spades (a void
    to ruff later), else from a long one."""
    has_spades = bool(sit.k.hand & SPADES)

    def keep(c: int) -> float:
        v = card_value(sit, c)
        if c >= 39:
            v += 1.0
        length = len(sit.mine(c // 13))
        v += 0.05 * length if has_spades else -0.05 * length
        return v

    return min(cards, key=lambda c: (keep(c), c % 13))


def _low(sit: Situation) -> int:
    """A card that does not try to win: the lowest of the suit led, else a discard
    (a card that does not beat the trick when there is one)."""
    follow = [c for c in sit.plays if c // 13 == sit.led]
    if follow:
        return follow[0]
    unders = [c for c in sit.plays if not beats(c, sit.best, sit.led)]
    if unders:
        return _discard(sit, unders)
    return sit.plays[0]


# Own Nil ---------------------------------------------------------------------


def _p_win_alone(sit: Situation, card: int, led: int, seats: tuple[int, ...]) -> float:
    """The chance that this seat's ``card`` (best so far) takes the trick when it bid
    Nil: the partner overtakes when it can, opponents only when forced."""
    p = 1.0
    rules = sit.view.rules
    for s in seats:
        if s == sit.partner:
            o = p_beats(sit, s, card, led)
        elif rules.partnerships or sit.nil_alive[s]:
            o = p_forced(sit, s, card, led)
        else:
            o = 0.5 * (p_beats(sit, s, card, led) + p_forced(sit, s, card, led))
        p *= 1.0 - o
    return p


def _nil_lead(sit: Situation) -> Why:
    """Leads the card least likely to win (on a tie, the higher one)."""
    others = sit.others()
    return min(
        sit.plays,
        key=lambda c: (round(_p_win_alone(sit, c, c // 13, others), 3), c >= 39, -(c % 13)),
    ), "nil_lead_low"


def _nil_follow(sit: Situation) -> Why:
    """The highest card that still loses; void, the most dangerous card; forced to
    win, the card most likely to be overtaken (or the most dangerous when last)."""
    unders = [c for c in sit.plays if not beats(c, sit.best, sit.led)]
    if unders:
        return _dump(sit, unders), "nil_under"
    if not sit.later:
        return max(sit.plays, key=lambda c: (card_value(sit, c), c)), "nil_forced_last"
    return min(
        sit.plays,
        key=lambda c: (round(_p_win_alone(sit, c, sit.led, sit.later), 3), -c),
    ), "nil_forced_hope"


# Partner's Nil -----------------------------------------------------------------


def _cover_follow(sit: Situation, partner: int) -> Why | None:
    """Protects the partner's Nil: overtakes the partner's winning card, or plays
    high when the partner plays after and may be forced to win. None when the
    partner is not in danger in this trick."""
    if partner in sit.played:
        if sit.best_seat != partner:
            return None
        beaters = [c for c in sit.plays if beats(c, sit.best, sit.led)]
        return (beaters[0], "cover_overtake") if beaters else None
    if partner not in sit.later:
        return None

    def risk(c: int) -> float:
        bar = c if beats(c, sit.best, sit.led) else sit.best
        return p_forced(sit, partner, bar, sit.led)

    if risk(_low(sit)) < 0.03:
        return None
    return min(
        sit.plays, key=lambda c: (4.0 * risk(c) + 0.15 * card_value(sit, c), c)
    ), "cover_high"


def _cover_lead(sit: Situation, partner: int) -> Why:
    """Leads for a partner who bid Nil: high cards the partner can play under, or a
    suit the partner is void in; winners first while tricks are needed."""
    others = sit.others()
    want = sit.mode != "duck"

    def score(c: int) -> float:
        suit = c // 13
        risk = p_forced(sit, partner, c, suit)
        hold = p_hold(sit, c, suit, others)
        return 4.0 * risk - (0.3 * hold if want else 0.0) + 0.15 * card_value(sit, c) * (1 - hold)

    return min(sit.plays, key=lambda c: (score(c), c)), "cover_lead"


# Opponents' Nil ----------------------------------------------------------------


def _rival_nils(sit: Situation) -> list[int]:
    return [s for s in range(sit.n) if sit.nil_alive[s] and not sit.mate(s)]


def _bust_follow(sit: Situation) -> Why | None:
    """Against a Nil bidder: stays under its winning card, or keeps the bar low
    when it plays after. None when this trick cannot hurt its Nil."""
    for o in _rival_nils(sit):
        unders = [c for c in sit.plays if not beats(c, sit.best, sit.led)]
        if o in sit.played:
            if sit.best_seat == o and unders:
                return _dump(sit, unders), "bust_under"
            continue
        if o not in sit.later or p_forced(sit, o, sit.best, sit.led) < 0.05:
            continue
        if unders:
            return _dump(sit, unders), "bust_low"
        return sit.plays[0], "bust_low"
    return None


def _bust_lead(sit: Situation) -> Why | None:
    """Leads low into a Nil bidder: the card most likely to force it to win, unless
    its partner is likely to cover. None when no lead gives it a real chance."""
    rivals = _rival_nils(sit)
    others = sit.others()
    rules = sit.view.rules
    best_card, best_score, best_p = -1, -1.0, 0.0
    for c in sit.plays:
        suit = c // 13
        total = 0.0
        for o in rivals:
            f = p_forced(sit, o, c, suit)
            mate = rules.partner_of(o)
            if mate is not None and not sit.nil_alive[mate]:
                cover = p_beats(sit, mate, c, suit)
                f *= 1.0 - (0.8 if others.index(mate) < others.index(o) else 0.5) * cover
            total += f
        score = total - 0.1 * card_value(sit, c)
        if score > best_score:
            best_card, best_score, best_p = c, score, total
    return (best_card, "bust_lead") if best_p >= 0.05 else None


# Ducking ------------------------------------------------------------------------


def _duck_follow(sit: Situation) -> Why:
    """Contract made: lose the trick with the highest card that loses; when every
    card wins, play the one most likely to be overtaken (the most valuable when
    last, since the trick is ours anyway)."""
    unders = [c for c in sit.plays if not beats(c, sit.best, sit.led)]
    if unders:
        return _dump(sit, unders), "duck_under"
    if not sit.threats(sit.later):
        return max(sit.plays, key=lambda c: (card_value(sit, c), c)), "duck_win_anyway"
    return min(sit.plays, key=lambda c: (p_hold(sit, c, sit.led, sit.later), c)), "duck_overtakable"


def _duck_lead(sit: Situation) -> Why:
    """Contract made: lead the card least likely to win, the highest of those."""
    others = sit.others()

    def key(c: int) -> tuple[int, bool, int]:
        return (round(p_hold(sit, c, c // 13, others) / 0.05), c >= 39, -(c % 13))

    return min(sit.plays, key=key), "duck_lead"


# Winning tricks -----------------------------------------------------------------


def _win_follow(sit: Situation) -> Why:
    """Tricks needed: win cheaply, second hand low, third hand high, and never
    overtake the partner's likely winner."""
    best, led = sit.best, sit.led
    beaters = [c for c in sit.plays if beats(c, best, led)]
    later = sit.threats(sit.later)
    if sit.mate(sit.best_seat):
        hold = p_hold(sit, best, led, later)
        if hold >= SURE or not beaters:
            return _low(sit), "partner_winning"
        for c in beaters:
            if p_hold(sit, c, led, later) >= max(SURE, hold + 0.25):
                return c, "overtake_partner"
        return _low(sit), "partner_winning"
    if not beaters:
        return _low(sit), "cannot_win"
    if not later:
        return beaters[0], "win_last"
    odds = [(c, p_hold(sit, c, led, later)) for c in beaters]
    for c, p in odds:
        if p >= SURE:
            return c, "win_sure"
    partner = sit.partner
    if partner is not None and partner in sit.later and not sit.nil_alive[partner]:
        return _low(sit), "second_hand_low"  # the partner may still win it
    top = max(p for _, p in odds)
    if top >= 0.25:
        return next(c for c, p in odds if p >= top - 0.01), "third_hand_high"  # cheaply
    return _low(sit), "low_no_chance"


def _win_lead(sit: Situation) -> Why:
    """Tricks needed: draw trumps when strong in them, cash safe winners, lead to
    the partner's ruff, shorten a suit to ruff, else lead from strength."""
    k = sit.k
    others = sit.others()
    opps = sit.threats(others)
    plays = sit.plays
    spades = [c for c in plays if c >= 39]
    my_spades = (k.hand & SPADES).bit_count()
    if spades and is_master(k, spades[-1]) and wants_every_trick(sit.view, sit.me, sit.mode):
        # every trick is needed: the master spade first, it cannot be ruffed
        return spades[-1], "every_trick_master"
    if spades and opps:
        most = max(sum(sit.odds[o][c] for c in bits(k.unseen & SPADES)) for o in opps)
        top = spades[-1]
        if most > 0.3 and is_master(k, top) and my_spades >= most + 1:
            return top, "draw_trumps"
    cash = [(p_hold(sit, c, c // 13, others), c) for c in plays if c < 39 and is_master(k, c)]
    cash = [t for t in cash if t[0] >= 0.75]
    if cash:
        return max(cash)[1], "cash_winner"
    partner = sit.partner
    if partner is not None and not sit.nil_alive[partner]:
        for suit in range(3):
            mine = [c for c in plays if c // 13 == suit]
            if (
                mine
                and known_void(k, partner, suit)
                and k.possible(partner) & SPADES
                and not all(known_void(k, o, suit) for o in opps)
            ):
                return mine[0], "lead_partner_ruff"
    if my_spades >= 2:
        for suit in range(3):
            mine = sit.mine(suit)
            if (
                len(mine) == 1
                and mine[0] in plays
                and mine[0] % 13 < QUEEN
                and not is_master(k, mine[0])
            ):
                return mine[0], "shorten_for_ruff"
    choices: list[tuple[float, float, int, str]] = []
    for suit in range(4):
        mine = [c for c in plays if c // 13 == suit]
        if not mine:
            continue
        top = mine[-1]
        card = mine[0]
        why = "lead_strength"
        score = 0.3 * len(mine)
        higher = (k.unseen & above(top)).bit_count()
        if suit == SPADE:
            score -= 1.5
        elif higher == 1 and top % 13 >= JACK:
            if top - 1 in mine and top % 13 >= QUEEN:
                card, why = top, "force_master"  # top of a sequence
                score += 1.0
            else:
                score -= 1.5 if len(mine) <= 3 else 0.5  # don't lead away from K-x
        if suit != SPADE:
            ruffers = [o for o in opps if known_void(k, o, suit) and k.possible(o) & SPADES]
            score -= 2.0 * len(ruffers)
            if partner is not None and known_void(k, partner, suit):
                score += 0.8
        choices.append((score, sit.rng.random(), card, why))
    best = max(choices)
    return best[2], best[3]


# Entry point ----------------------------------------------------------------------


def _follow(sit: Situation) -> Why:
    partner = sit.partner
    if partner is not None and sit.nil_alive[partner]:
        c = _cover_follow(sit, partner)
        if c is not None:
            return c
    if sit.bust_ok:
        c = _bust_follow(sit)
        if c is not None:
            return c
    if sit.mode == "duck":
        return _duck_follow(sit)
    return _win_follow(sit)


def _lead(sit: Situation) -> Why:
    partner = sit.partner
    if partner is not None and sit.nil_alive[partner]:
        return _cover_lead(sit, partner)
    if sit.bust_ok:
        c = _bust_lead(sit)
        if c is not None:
            return c
    if sit.mode == "duck":
        return _duck_lead(sit)
    return _win_lead(sit)


def choose_play(view: PlayerView, rng: random.Random) -> Card:
    """The card the seat to act plays, among ``view.proper_plays``; ``rng`` only
    breaks ties between equally good leads."""
    return play_and_reason(view, rng)[0]


def play_and_reason(view: PlayerView, rng: random.Random) -> tuple[Card, str]:
    """:func:`choose_play` and the habit that chose the card, a reason key of
    :data:`espadas.robots.explain.PLAY_REASONS` (``only_card`` for a forced card)."""
    plays = view.proper_plays
    if not plays:
        raise ValueError(f"seat {view.seat} has no card to play now")
    if len(plays) == 1:
        return CARDS[int(plays).bit_length() - 1], "only_card"
    sit = situation(view, rng)
    if sit.nil_alive[sit.me]:
        card, why = _nil_lead(sit) if sit.led < 0 else _nil_follow(sit)
    elif sit.led < 0:
        card, why = _lead(sit)
    else:
        card, why = _follow(sit)
    return CARDS[card], why
