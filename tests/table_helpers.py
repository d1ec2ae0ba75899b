"""Games dealt as a table deals them, for the commitment and verify tests."""

from __future__ import annotations

import random
from typing import Any

from espadas.engine import Bid, CardSet, Game, Rules
from espadas.engine.record import game_record
from espadas.tables.commitment import commit, deal_text, fresh_deal

Record = dict[str, Any]


def table_game(preset: str = "pagat", hands: int = 3, seed: int = 5, **options: Any) -> Record:
    """A game dealt as a table deals it (fresh deal, commitment shown first), played
    with random legal actions; its record carries each hand's commitment and salt."""
    rules = Rules.from_preset(preset, **options)
    game = Game(rules, first_dealer=1)
    rng = random.Random(seed)
    shown: list[tuple[str, str]] = []
    while not game.over and len(game.scored) < hands:
        if game.phase == "hand_end":
            game.next_hand()
        if game.phase == "dealing":
            deal, salt = fresh_deal(rules, game.dealer)
            shown.append((commit(deal_text(deal), salt), salt))  # before any bid
            game.deal(deal)
        actions = game.legal_actions()
        modest = [a for a in actions if isinstance(a, Bid) and a.value in (1, 2, 3)]
        choices = modest or actions
        game.apply(choices[int(rng.random() * len(choices))])
    record = game_record(game)
    for entry, (commitment, salt) in zip(record["hands"], shown, strict=True):
        entry["commitment"] = commitment
        entry["salt"] = salt
    return record


def swap_one_card(deal: list[str], a: int, b: int) -> None:
    """Gives one card of seat ``a`` to seat ``b`` and one of ``b`` to ``a``."""
    ha, hb = CardSet.parse(deal[a]), CardSet.parse(deal[b])
    ca, cb = min(ha), min(hb)
    deal[a] = str(ha - CardSet([ca]) | CardSet([cb]))
    deal[b] = str(hb - CardSet([cb]) | CardSet([ca]))
