"""Builds ``obvious.json``: bids and follows that every competent player gets right,
the set on which the analysis (:mod:`espadas.robots.analysis`) must mark almost
nothing (``tests/robots/test_analysis_marks.py``).

Run from the repository root (``PYTHONPATH=src``)::

    python tests/robots/positions/generate_obvious.py > tests/robots/positions/obvious.json

Each position comes from a deal drawn with a fixed seed (``estandar``, scores and
bags drawn as ``generate.py`` draws them), bid and played by ``normal`` through the
engine. The categories:

- ``number_bid``: the seat bids first or second of its side (its partner has not
  bid), holds the ace of spades or an ace and king of one side suit with at most
  one more card of it (a Nil with such cards is all but lost), and ``normal``
  bids its count; right: that bid and one trick either side of it.
- ``win_cheaply_last``: the seat plays last to a trick of a side suit an opponent
  is winning, no seat bid Nil, its side still needs tricks and the bags are far
  from ten, and it holds two cards of the suit: one that wins the trick and one
  that does not. Taking the trick is right (its card equal to the winner too):
  ducking keeps a winner that may be trumped later. With a third card it may be
  worth more to keep the winner over a card still out (♠A T 9 under the ♠Q with
  the ♠K still out: the ace takes the king later and the ten wins too), and a
  spade is never trumped: those are left out.
- ``follow_low``: the same, but no card of the suit it follows beats the winning
  card: the lowest card of the suit (and the cards equal to it) is right; a
  higher one throws away a card that may win later.

The first answer of ``right`` is the one a competent player gives first (the
analysis tests take it). Like ``basics.json``, the file is the reviewed artefact.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from typing import Any

from espadas.engine import BLIND_NIL, Bid, Game, Play, PlayerView, Rules, deal_cards
from espadas.engine.codec import cards_json
from espadas.robots.bidding import bid_and_reason
from espadas.robots.knowledge import Knowledge
from espadas.robots.normal import NormalRobot
from espadas.robots.protocol import request_for

PER_CATEGORY = {"number_bid": 20, "win_cheaply_last": 10, "follow_low": 10}
SUITS = {"en": ("clubs", "diamonds", "hearts", "spades"), "es": ("tréboles", "diamantes",
         "corazones", "picas")}  # fmt: skip


def names(cards: list[int]) -> list[str]:
    return cards_json(sorted(cards, reverse=True))


def show(cards: list[int]) -> str:
    return " ".join(names(cards))


def run_of(view: PlayerView, card: int) -> list[int]:
    """``card`` and the seat's cards of its suit equal to it: no card between them
    that another seat may still hold or has played to the trick in progress."""
    others = Knowledge(view).unseen
    if view.trick is not None:
        others |= sum(1 << int(c) for c in view.trick.cards)
    mine = [int(c) for c in view.proper_plays if int(c) // 13 == card // 13]
    out = [card]
    for step in (1, -1):
        c = card + step
        while c // 13 == card // 13 and 0 <= c < 52:
            if c in mine:
                out.append(c)
            elif others >> c & 1:
                break
            c += step
    return sorted(out)


# --- the categories -------------------------------------------------------------------


def number_bid(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    rules = view.rules
    mate = rules.partner_of(view.seat)
    if mate is None or view.bids[mate] is not None or view.held is None:
        return None
    held = int(view.held)
    spade_ace = bool(held >> 51 & 1)
    short_ak = [
        s
        for s in range(3)
        if held >> (13 * s + 12) & 1
        and held >> (13 * s + 11) & 1
        and (held >> (13 * s) & 0x1FFF).bit_count() <= 3
    ]
    if not spade_ace and not short_ak:
        return None
    bid, why, _ = bid_and_reason(view)
    if why != "bid_count" or not isinstance(bid, int) or bid <= 0:
        return None
    right = [bid] + [b for b in (bid - 1, bid + 1) if 1 <= b <= rules.hand_size]
    if spade_ace:
        what = {"en": "the ace of spades", "es": "el as de picas"}
    else:
        s = short_ak[0]
        what = {lang: f"the ace and king of {SUITS[lang][s]}" for lang in ("en",)}
        what["es"] = f"el as y el rey de {SUITS['es'][s]}"
    return right, {
        "en": f"With {what['en']} a Nil is all but lost: bid your count, {bid} "
        f"(one trick more or less is a matter of style).",
        "es": f"Con {what['es']} el Nil está casi perdido: pide tu cuenta, {bid} "
        f"(una baza más o menos es cuestión de estilo).",
    }


def _last_against_opponent(view: PlayerView) -> tuple[int, list[int]] | None:
    """(winning card, the seat's cards of the led suit) when the seat plays last to a
    trick an opponent is winning, follows suit, no seat bid Nil, its side still
    needs tricks and every side's bags are under 7; else None."""
    rules = view.rules
    trick = view.trick
    if trick is None or len(trick.cards) != rules.players - 1:
        return None
    if any(b == 0 or b == BLIND_NIL for b in view.bids) or max(view.bags) >= 7:
        return None
    side = rules.side_of(view.seat)
    taken = sum(view.tricks_taken[s] for s in rules.seats_of(side))
    if taken >= view.contract(side):
        return None
    cards = [int(c) for c in trick.cards]
    led = cards[0] // 13
    best = max(c for c in cards if c // 13 == led or c >= 39)
    who = (trick.leader + cards.index(best)) % rules.players
    if rules.side_of(who) == side:
        return None
    suit = [int(c) for c in view.proper_plays if int(c) // 13 == led]
    if len(suit) < 2 or len(suit) != len(view.proper_plays):
        return None
    return best, suit


def win_cheaply_last(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    found = _last_against_opponent(view)
    if found is None:
        return None
    best, suit = found
    up = [c for c in suit if c // 13 == best // 13 and c > best]
    if len(suit) != 2 or len(up) != 1 or best // 13 == 3 or best >= 39:
        return None
    right = run_of(view, min(up))
    return right, {
        "en": f"You play last, an opponent's {show([best])} is winning and your side still "
        f"needs tricks: take it ({show(right)}) now, before the suit can be trumped.",
        "es": f"Juegas el último, gana el {show([best])} de un rival y a tu bando aún le "
        f"faltan bazas: gánala ya ({show(right)}), antes de que el palo se pueda fallar.",
    }


def follow_low(view: PlayerView) -> tuple[list[int], dict[str, str]] | None:
    found = _last_against_opponent(view)
    if found is None:
        return None
    best, suit = found
    if any(c // 13 == best // 13 and c > best for c in suit):
        return None
    right = run_of(view, min(suit))
    if len(right) == len(suit):
        return None
    return right, {
        "en": f"You play last and cannot beat the {show([best])}: follow with your lowest "
        f"card ({show(right)}) and keep the higher ones, which may still win.",
        "es": f"Juegas el último y no puedes superar el {show([best])}: sigue con tu carta "
        f"más baja ({show(right)}) y guarda las altas, que aún pueden ganar.",
    }


CATEGORIES = {
    "number_bid": number_bid,
    "win_cheaply_last": win_cheaply_last,
    "follow_low": follow_low,
}


# --- games ------------------------------------------------------------------------------


def views(key: int) -> Iterator[tuple[PlayerView, list[list[str]]]]:
    """Every decision of one hand of four ``normal`` robots (with a choice)."""
    rng = random.Random(key)
    rules = Rules.from_preset("estandar")
    game = Game(rules, first_dealer=rng.randrange(4))
    game.scores = [rng.randrange(0, 30) * 10 for _ in range(2)]
    game.bags = [rng.randint(0, 4) for _ in range(2)]
    game.deal(deal_cards(rules, rng, game.dealer))
    deal = [names([c for c in range(52) if int(h) >> c & 1]) for h in game.hand.deal]
    robots = [NormalRobot(random.Random(key * 10 + s)) for s in range(4)]
    while game.phase in ("bidding", "playing"):
        s = game.to_act
        assert s is not None
        view = game.view_for(s)
        if len(view.legal) >= 2:
            yield view, deal
        action = robots[s].act(view)
        assert isinstance(action, (Bid, Play))
        game.apply(action)


def collect() -> list[dict[str, Any]]:
    found: dict[str, list[dict[str, Any]]] = {c: [] for c in CATEGORIES}
    key = 7000
    while any(len(found[c]) < n for c, n in PER_CATEGORY.items()):
        key += 1
        taken: set[str] = set()
        for view, deal in views(key):
            for category, test in CATEGORIES.items():
                if category in taken or len(found[category]) >= PER_CATEGORY[category]:
                    continue
                hit = test(view)
                if hit is None:
                    continue
                right, reason = hit
                taken.add(category)
                count = len(found[category]) + 1
                is_bid = category == "number_bid"
                found[category].append(
                    {
                        "id": f"{category}-{count:02d}",
                        "category": category,
                        "deal": deal,
                        "request": request_for(view),
                        "right": right if is_bid else names(right)[::-1],
                        "reason": reason,
                    }
                )
    return [p for c in CATEGORIES for p in found[c]]


def main() -> int:
    positions = collect()
    doc = {"format": "espadas-positions/1", "positions": positions}
    json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
