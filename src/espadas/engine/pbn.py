"""PBN export of a game: one PBN game per hand, with custom ``Espadas*`` tags for
what bridge has no tag for (bids, tricks, scores, bags, result).

Four-player hands use the standard ``Deal`` tag and play section; individual
games with 3, 5 or 6 players, which PBN cannot express, carry the deal and the
tricks in ``EspadasDeal`` and ``EspadasPlay`` tags instead.

>>> from espadas.engine import Game, Rules
>>> text = game_pbn(Game.new(Rules.from_preset("pagat"), seed=1))
>>> text.splitlines()[0]
'% PBN 2.1'
"""

from __future__ import annotations

from collections.abc import Sequence

from espadas.engine.card import CARDS, RANK_CHARS, SUIT_CHARS
from espadas.engine.cardset import CardSet
from espadas.engine.game import Game
from espadas.engine.hand import Hand

PBN_SEATS = "NESW"


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_quote(value)}]"


def _pbn_card(card: int) -> str:
    return SUIT_CHARS[card // 13] + RANK_CHARS[card % 13]


def _seat(game: Game, seat: int) -> str:
    return PBN_SEATS[seat] if game.rules.players == 4 else str(seat)


def _per_side(names: Sequence[str], values: Sequence[int]) -> str:
    return "; ".join(f"{n} {v}" for n, v in zip(names, values, strict=True))


def game_pbn(game: Game, players: Sequence[str] | None = None, event: str = "Espadas") -> str:
    """The whole game as PBN text."""
    lines = ["% PBN 2.1", "% EXPORT", "% Espadas: custom tags Espadas* carry bids and scores", ""]
    rules_text = " ".join(f"{k}={v}" for k, v in game.rules.to_dict().items())
    sides = game.rules.side_names()
    for i, hand in enumerate(game.hands):
        lines.append(_tag("Event", event))
        lines.append(_tag("Site", "-"))
        lines.append(_tag("Date", "????.??.??"))
        lines.append(_tag("Board", str(i + 1)))
        if players is not None and game.rules.players == 4:
            for seat, tag in enumerate(("North", "East", "South", "West")):
                lines.append(_tag(tag, players[seat]))
        elif players is not None:
            lines.append(_tag("EspadasPlayers", "; ".join(players)))
        lines.append(_tag("Dealer", _seat(game, hand.dealer)))
        lines.append(_tag("Vulnerable", "None"))
        deal_text = " ".join(
            str(CardSet(hand.deal[(hand.dealer + k) % hand.n])) for k in range(hand.n)
        )
        if game.rules.players == 4:
            lines.append(_tag("Deal", f"{_seat(game, hand.dealer)}:{deal_text}"))
        else:
            lines.append(_tag("EspadasDeal", f"{hand.dealer}:{deal_text}"))
        lines.append(_tag("Scoring", "Espadas"))
        lines.append(_tag("EspadasRules", rules_text))
        bids = " ".join(
            f"{_seat(game, (hand.dealer + 1 + k) % hand.n)}:{'nil' if b == 0 else b}"
            for k, b in enumerate(hand.bid_order)
        )
        lines.append(_tag("EspadasBids", bids))
        lines.append(
            _tag(
                "EspadasTricks",
                " ".join(f"{_seat(game, s)}:{t}" for s, t in enumerate(hand.tricks)),
            )
        )
        if i < len(game.scored):
            fin = game.scored[i]
            lines.append(_tag("EspadasScore", _per_side(sides, fin.score.points)))
            lines.append(_tag("EspadasTotal", _per_side(sides, fin.totals)))
            lines.append(_tag("EspadasBags", _per_side(sides, fin.score.bags)))
            if fin.boston is not None:
                lines.append(_tag("EspadasBoston", sides[fin.boston]))
        acc = game.accusations.get(i)
        if acc is not None:
            verdict = "renege" if acc.true else "false_accusation"
            lines.append(
                _tag(
                    "EspadasAccusation",
                    f"{_seat(game, acc.by)} accuses {_seat(game, acc.against)} "
                    f"after play {acc.after_play}: {verdict}",
                )
            )
        if i == len(game.hands) - 1 and game.result is not None:
            lines.append(_tag("EspadasResult", f"{sides[game.result.winner]} {game.result.reason}"))
        lines.extend(_play_section(game, hand))
        lines.append("")
    return "\n".join(lines)


def _play_section(game: Game, hand: Hand) -> list[str]:
    if not hand.plays:
        return []
    tricks = hand.completed_tricks()
    current = hand.current_trick()
    if current is not None and current[1]:
        tricks.append((current[0], current[1], -1))
    if hand.n != 4:
        text = " / ".join(
            f"{lead}:" + " ".join(str(CARDS[c]) for c in cards) for lead, cards, _ in tricks
        )
        return [_tag("EspadasPlay", text)]
    first = tricks[0][0]
    out = [_tag("Play", _seat(game, first))]
    for lead, cards, _ in tricks:
        row = ["-"] * 4
        for k, card in enumerate(cards):
            seat = (lead + k) % 4
            row[(seat - first) % 4] = _pbn_card(card)
        out.append(" ".join(row))
    out.append("*")
    return out
