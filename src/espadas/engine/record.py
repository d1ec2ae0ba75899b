"""Game records (``espadas-record/1``) and games rebuilt from them, as FORMATS.md fixes them.

>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=1)
>>> rec = game_record(game, ["Ana", "Bea", "Carla", "Dani"])
>>> rec["format"], len(rec["hands"])
('espadas-record/1', 1)
>>> game_record(rebuild(rec), ["Ana", "Bea", "Carla", "Dani"]) == rec
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeGuard

from espadas.engine.cardset import CardSet
from espadas.engine.codec import bid_from_json, bid_json, card_from_json, cards_json
from espadas.engine.errors import (
    EspadasError,
    InvalidDeal,
    InvalidRules,
    ParseError,
    RecordError,
    ReplayError,
    RuleError,
)
from espadas.engine.game import Game
from espadas.engine.hand import check_deal
from espadas.engine.rules import Rules

FORMAT = "espadas-record/1"
END_REASONS = ("abandon", "timeout")


def game_record(game: Game, players: list[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` as it stands (the last hand may be incomplete)."""
    n = game.rules.players
    names = list(players) if players is not None else [f"seat {s}" for s in range(n)]
    if len(names) != n:
        raise ValueError(f"players must name {n} seats")
    hands: list[dict[str, Any]] = []
    for i, hand in enumerate(game.hands):
        entry: dict[str, Any] = {
            "dealer": hand.dealer,
            "deal": [str(CardSet(m)) for m in hand.deal],
            "bids": [bid_json(b) for b in hand.bid_order],
            "plays": cards_json(hand.plays),
        }
        acc = game.accusations.get(i)
        if acc is not None:
            entry["accusation"] = {
                "by": acc.by,
                "against": acc.against,
                "after_play": acc.after_play,
            }
        hands.append(entry)
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "players": names,
        "hands": hands,
    }
    if game.end_outside is not None:
        reason, side = game.end_outside
        out["end"] = {"reason": reason, "side": game.rules.side_name(side)}
    return out


def load_record(text: str) -> dict[str, Any]:
    """Parses JSON text and checks the record's structure (raises :class:`RecordError`)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError("not_json", f"not JSON: {exc}") from None
    check_record(data)
    return data  # type: ignore[no-any-return]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_record(data: object) -> Rules:
    """Checks everything FORMATS.md calls malformed before any action is replayed."""
    if not isinstance(data, dict):
        raise RecordError("not_object", "a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError("format", f"format must be {FORMAT!r}, not {data.get('format')!r}")
    if "rules" not in data:
        raise RecordError("no_rules", "the record has no rules")
    try:
        rules = Rules.from_dict(data["rules"])
    except InvalidRules as exc:
        raise RecordError("rules", f"rules: {exc}") from None
    n = rules.players
    players = data.get("players")
    if not isinstance(players, list) or len(players) != n:
        raise RecordError("players", f"players must be a list of {n} names")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError("hands", "hands must be a list")
    previous_dealer: int | None = None
    for h, hand in enumerate(hands):
        where = f"hand {h}"
        if not isinstance(hand, dict):
            raise RecordError("hand", f"{where} must be an object")
        dealer = hand.get("dealer")
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise RecordError("dealer", f"{where}: dealer must be a seat 0..{n - 1}")
        if previous_dealer is not None and dealer != (previous_dealer + 1) % n:
            raise RecordError(
                "dealer_order",
                f"{where}: the dealer must pass to the left, to seat {(previous_dealer + 1) % n}",
            )
        previous_dealer = dealer
        deal = hand.get("deal")
        if not isinstance(deal, list) or len(deal) != n:
            raise RecordError("deal", f"{where}: deal must list {n} hands")
        try:
            masks = [int(CardSet.parse(t)) if isinstance(t, str) else -1 for t in deal]
            if -1 in masks:
                raise RecordError("deal", f"{where}: each hand of the deal is a string")
            check_deal(rules, masks)
        except (ParseError, InvalidDeal) as exc:
            raise RecordError("deal", f"{where}: {exc}") from None
        for key in ("bids", "plays"):
            if not isinstance(hand.get(key, []), list):
                raise RecordError(key, f"{where}: {key} must be a list")
        acc = hand.get("accusation")
        if acc is not None:
            if not isinstance(acc, dict):
                raise RecordError("accusation", f"{where}: accusation must be an object")
            for key in ("by", "against"):
                if not _is_int(acc.get(key)) or not 0 <= acc[key] < n:
                    raise RecordError(
                        "accusation", f"{where}: accusation {key} must be a seat 0..{n - 1}"
                    )
            after = acc.get("after_play")
            plays = hand.get("plays", [])
            if not _is_int(after) or not 0 <= after <= len(plays):
                raise RecordError(
                    "accusation",
                    f"{where}: accusation after_play must be a count 0..{len(plays)} "
                    "(the plays recorded)",
                )
    end = data.get("end")
    if end is not None:
        if not isinstance(end, dict) or end.get("reason") not in END_REASONS:
            raise RecordError("end", 'end.reason must be "abandon" or "timeout"')
        if end.get("side") not in rules.side_names():
            raise RecordError("end", f"end.side must be one of {', '.join(rules.side_names())}")
    return rules


def rebuild(data: Mapping[str, Any] | object) -> Game:
    """Rebuilds the game of a record through the engine. Raises :class:`RecordError` for a
    malformed record and :class:`ReplayError` at the first illegal action."""
    rules = check_record(data)
    assert isinstance(data, dict)
    hands = data["hands"]
    first_dealer = hands[0]["dealer"] if hands else 0
    game = Game(rules, first_dealer=first_dealer)
    for h, entry in enumerate(hands):
        if game.over:
            raise ReplayError(h, 0, f"hand {h} follows the end of the game")
        if h > 0:
            if game.phase != "hand_end":
                raise ReplayError(h, 0, f"hand {h} follows hand {h - 1}, which did not finish")
            game.next_hand()
        game.deal([int(CardSet.parse(t)) for t in entry["deal"]])
        bids = entry.get("bids", [])
        plays = entry.get("plays", [])
        acc = entry.get("accusation")
        k = 0
        try:
            for raw in bids:
                game.bid(bid_from_json(raw))
                k += 1
            for i, raw in enumerate(plays):
                if acc is not None and acc["after_play"] == i:
                    game.accuse(acc["by"], acc["against"])
                if game.over:
                    raise RuleError("after_end", f"play {i} comes after the game ended", play=i)
                game.play(card_from_json(raw))
                k += 1
            if acc is not None and acc["after_play"] == len(plays):
                game.accuse(acc["by"], acc["against"])
        except EspadasError as exc:
            raise ReplayError(h, k, f"hand {h}, action {k}: {exc}") from None
    end = data.get("end")
    if end is not None:
        if game.over:
            raise RecordError("end_after_end", "end: the game was already over")
        game.end_outside_play(end["reason"], rules.side_index(end["side"]))
    return game


def replay_summary(game: Game) -> dict[str, Any]:
    """The object ``espadas replay --json`` prints (FORMATS.md section 2)."""
    rules = game.rules
    names = rules.side_names()
    out_hands: list[dict[str, Any]] = []
    for i, hand in enumerate(game.hands):
        entry: dict[str, Any] = {
            "tricks": list(hand.tricks),
            "trick_winners": list(hand.winners),
            "score": None,
            "total": None,
            "bags": None,
            "boston": None,
        }
        if i < len(game.scored):
            fin = game.scored[i]
            entry["score"] = dict(zip(names, fin.score.points, strict=True))
            entry["total"] = dict(zip(names, fin.totals, strict=True))
            entry["bags"] = dict(zip(names, fin.score.bags, strict=True))
            entry["boston"] = None if fin.boston is None else names[fin.boston]
        out_hands.append(entry)
    result = game.result
    return {
        "hands": out_hands,
        "winner": None if result is None else names[result.winner],
        "reason": None if result is None else result.reason,
    }
