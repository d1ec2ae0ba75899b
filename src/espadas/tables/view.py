"""What a table shows one person: JSON built from engine views, never from the state.

A seated person gets their seat's :class:`~espadas.engine.PlayerView` (their own
hand only, once they have looked); everyone else gets the public view. The
deal of a hand (with its salt) is shown only once every card of it has been
played; before that, only its commitment. Everyone's view also carries the
table's chat (its latest messages, :mod:`espadas.tables.chat`), which no engine
view, and so no robot, ever gets.

>>> from datetime import UTC, datetime
>>> from espadas.engine import Rules
>>> from espadas.tables.table import Table
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
>>> _ = table.add_robots("ana", "normal", at)
>>> _ = table.start("ana", at)
>>> mine, watching = table_view(table, "ana"), table_view(table, "someone")
>>> len(mine["game"]["hand"]), watching["game"]["hand"], watching["you"]
(13, None, None)
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from espadas.engine import (
    OPTIONS,
    Accuse,
    Action,
    Bid,
    ConfirmEnd,
    Look,
    NextHand,
    Play,
    PlayerView,
    PublicView,
    Rules,
    SideParts,
    Trick,
    codec,
    explain_hand,
)
from espadas.tables.absent import replace_open_at, replacer
from espadas.tables.clock import TURN_LIMIT
from espadas.tables.presence import presence_json
from espadas.tables.table import Table


def action_json(action: Action) -> dict[str, Any]:
    """An engine action as the API writes it (``{"type": "bid", "value": 3}``)."""
    if isinstance(action, Bid):
        return {"type": "bid", "value": action.value}
    if isinstance(action, Play):
        return {"type": "play", "value": str(action.card)}
    if isinstance(action, Look):
        return {"type": "look"}
    if isinstance(action, NextHand):
        return {"type": "next_hand"}
    if isinstance(action, ConfirmEnd):
        return {"type": "confirm_end"}
    if isinstance(action, Accuse):
        return {"type": "accuse", "value": action.against}
    raise ValueError(f"{action!r} is not offered to players")


def _trick(trick: Trick | None) -> dict[str, Any] | None:
    if trick is None:
        return None
    out = codec.trick_json(trick.leader, trick.cards, trick.winner)
    out.setdefault("winner", None)  # the views always carry the key
    return out


def game_json(view: PublicView) -> dict[str, Any]:
    """The JSON form of an engine view (a player's view adds hand and legal actions)."""
    out = _public_game(view)
    out.update(_personal_game(view))
    return out


def _public_game(view: PublicView) -> dict[str, Any]:
    rules = view.rules
    result = view.result
    return {
        "hand_number": view.hand_number,
        "dealer": view.dealer,
        "phase": view.phase,
        "to_act": view.to_act,
        "looked": list(view.looked),
        "bids": list(view.bids),
        "tricks": [_trick(t) for t in view.tricks],
        "trick": _trick(view.trick),
        "tricks_taken": list(view.tricks_taken),
        "cards_left": list(view.cards_left),
        "spades_broken": view.spades_broken,
        "sides": rules.side_names(),
        "scores": list(view.scores),
        "bags": list(view.bags),
        "hand_scores": None if view.hand_scores is None else list(view.hand_scores),
        "result": None
        if result is None
        else {
            "winner": rules.side_name(result.winner),
            "reason": result.reason,
            "loser": None if result.loser is None else rules.side_name(result.loser),
            "ranking": [rules.side_name(s) for s in result.ranking],
        },
    }


def _personal_game(view: PublicView) -> dict[str, Any]:
    if not isinstance(view, PlayerView):
        return {"hand": None, "legal": [], "proper_plays": []}
    rules = view.rules
    legal = [action_json(a) for a in view.legal]
    if view.phase in ("playing", "hand_end") and rules.renege == "allowed":
        opponents = [
            s for s in range(rules.players) if rules.side_of(s) != rules.side_of(view.seat)
        ]
        legal += [{"type": "accuse", "value": s} for s in opponents]
    return {
        "hand": None if view.held is None else codec.cards_json(reversed(view.held)),
        "legal": legal,
        "proper_plays": codec.cards_json(reversed(view.proper_plays)),
    }


def table_view(
    table: Table, player: str | None, *, turn_limit: timedelta = TURN_LIMIT
) -> dict[str, Any]:
    """Everything ``player`` (``None``: an anonymous spectator) may see of ``table``."""
    view = _public_table(table)
    view.update(_personal_table(table, player, turn_limit))
    game = table.game
    seat = view["you"]
    view["game"] = (
        None
        if game is None
        else game_json(game.public_view() if seat is None else game.view_for(seat))
    )
    return view


def _public_table(table: Table) -> dict[str, Any]:
    out = _lasting(table)
    out.update(_changing(table))
    out["chat"] = table.chat.to_json()
    return out


def _lasting(table: Table) -> dict[str, Any]:
    """The public keys that change only when a hand ends (or never)."""
    game = table.game
    finished = 0 if game is None else len(game.scored)
    return {
        "rules": table.rules.to_dict(),
        "options": options_of(table.rules),
        "players": table.rules.players,
        "deals": [
            {"hand": i + 1, "deal": d.deal, "salt": d.salt, "commitment": d.commitment}
            for i, d in enumerate(table.deals[:finished])
        ],
        "sheet": sheet(table),
        "hints": table.hints,
        "rated": table.rated,
        "absent": table.absent,
    }


def _changing(table: Table) -> dict[str, Any]:
    """The public keys that may change with any event."""
    return {
        "id": table.id,
        "version": table.version,
        "status": table.status,
        "seats": [
            None
            if s is None
            else {"seat": i, "name": s.name, "robot": s.robot, "human": s.player is not None}
            for i, s in enumerate(table.seats)
        ],
        "updated_at": None if table.updated_at is None else table.updated_at.isoformat(),
        "commitment": table.deals[-1].commitment if table.deals else None,
        "faults": len(table.faults),
        "rematch": table.rematch,
        "rematch_of": table.rematch_of,
        "replaced": table.replaced,
        "away": presence_json(table),
        "review": review(table),
    }


def _personal_table(table: Table, player: str | None, turn_limit: timedelta) -> dict[str, Any]:
    seat = table.seat_of(player)
    game = table.game
    claim_at = table.claim_open_at(turn_limit)
    replace_at = replace_open_at(table, player, turn_limit)
    can_claim = (
        seat is not None
        and table.absent == "claim"
        and claim_at is not None
        and game is not None
        and game.to_act is not None
        and table.rules.side_of(game.to_act) != table.rules.side_of(seat)
    )
    return {
        "you": seat,
        "creator": player is not None and player == table.creator,
        "claim_at": claim_at.isoformat() if can_claim and claim_at is not None else None,
        "replace_at": None if replace_at is None else replace_at.isoformat(),
    }


class ViewText:
    """A table's views as JSON text, the public part made once per version.

    Everyone at a table sees the same public part (seats, scores, tricks,
    deals, score sheet, the chat's latest messages); only ``you``, ``creator``,
    ``claim_at``, ``replace_at`` and the game's ``hand``, ``legal`` and
    ``proper_plays`` differ. This keeps the public part's JSON text and adds
    each person's part to it, so that a new version sent to many people is
    built and encoded once.

    >>> from datetime import UTC, datetime
    >>> from espadas.engine import Rules
    >>> at = datetime(2026, 1, 1, tzinfo=UTC)
    >>> table, _ = Table.create("t1", Rules(), "ana", "Ana", at)
    >>> _ = table.add_robots("ana", "normal", at)
    >>> _ = table.start("ana", at)
    >>> text = ViewText(table)
    >>> json.loads(text.of(table, "ana")) == table_view(table, "ana")
    True
    """

    __slots__ = ("_chat", "_game", "_lasting", "_mine", "_outer", "_spectator", "version")

    def __init__(self, table: Table, before: ViewText | None = None) -> None:
        """``before``: this table's previous view text, whose lasting part (rules,
        deals and score sheet) is kept while no hand has ended since, and its
        chat while no message came."""
        self.version = table.version
        game = table.game
        key = (0 if game is None else len(game.scored), len(table.deals), table.status)
        self._lasting: tuple[tuple[int, int, str], str]
        if before is not None and before._lasting[0] == key:
            self._lasting = before._lasting
        else:
            self._lasting = (key, _dumps(_lasting(table))[1:-1])
        chat = (table.chat.count, table.chat.spectators)
        self._chat: tuple[tuple[int, bool], str]
        if before is not None and before._chat[0] == chat:
            self._chat = before._chat  # a move, no message: the chat's text is kept
        else:
            self._chat = (chat, '"chat":' + _dumps(table.chat.to_json()))
        self._outer = _dumps(_changing(table))[:-1] + "," + self._lasting[1] + "," + self._chat[1]
        self._game = None if game is None else _dumps(_public_game(game.public_view()))[:-1]
        self._spectator: str | None = None
        # each person's text of this version, once made: the answer to a person's
        # own action and the view pushed to their socket are the same text
        self._mine: dict[tuple[str | None, timedelta], str] = {}

    def of(self, table: Table, player: str | None, turn_limit: timedelta = TURN_LIMIT) -> str:
        """``table_view(table, player)`` as JSON text; ``table`` must be at
        :attr:`version`."""
        if table.version != self.version:
            raise ValueError("the table has moved on since this view's public part was made")
        seat = table.seat_of(player)
        spectator = seat is None and player not in (table.creator, replacer(table))
        if spectator and self._spectator is not None:
            return self._spectator
        made = self._mine.get((player, turn_limit))
        if made is not None:
            return made
        mine = _personal_table(table, player, turn_limit)
        parts = [self._outer]
        for key, value in mine.items():
            parts.append(f',"{key}":{_dumps(value)}')
        game = table.game
        if game is None or self._game is None:
            parts.append(',"game":null}')
        else:
            view = game.public_view() if seat is None else game.view_for(seat)
            parts.append(f',"game":{self._game},{_dumps(_personal_game(view))[1:]}}}')
        text = "".join(parts)
        if spectator:
            self._spectator = text
        else:
            self._mine[(player, turn_limit)] = text
        return text


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def options_of(rules: Rules) -> dict[str, Any]:
    """Every option's value (not only those that differ from the preset).

    >>> options_of(Rules.from_preset("cien"))["blind_nil"]
    True
    """
    return {name: getattr(rules, name) for name in OPTIONS}


def sheet(table: Table) -> list[dict[str, Any]]:
    """The score sheet: per finished hand, the bids, tricks taken, the points
    (bag penalty included), bags and totals of each side, where those points
    come from (``parts``, per side) and the side that took every trick
    (``boston``, or ``None``)."""
    game = table.game
    if game is None:
        return []
    rows = []
    bags = [0] * table.rules.sides
    for number, (hand, finished) in enumerate(zip(game.hands, game.scored, strict=False), 1):
        bids = [0 if b is None else b for b in hand.bids]
        parts = explain_hand(table.rules, bids, hand.blind, hand.tricks, bags)
        bags = list(finished.score.bags)
        rows.append(
            {
                "hand": number,
                "bids": [
                    None if b is None else ("blind_nil" if hand.blind[s] else b)
                    for s, b in enumerate(hand.bids)
                ],
                "tricks": list(hand.tricks),
                "points": list(finished.score.points),
                "bags": list(finished.score.bags),
                "totals": list(finished.totals),
                "parts": [_parts(p) for p in parts],
                "boston": None
                if finished.boston is None
                else table.rules.side_name(finished.boston),
            }
        )
    return rows


def _parts(parts: SideParts) -> dict[str, Any]:
    return {
        "contract": parts.contract,
        "tricks": parts.tricks,
        "contract_points": parts.contract_points,
        "nils": [
            {"seat": seat, "blind": blind, "made": made, "points": points}
            for seat, blind, made, points in parts.nils
        ],
        "bonus": parts.bonus,
        "new_bags": parts.new_bags,
        "penalty": parts.penalty,
    }


def review(table: Table) -> dict[str, Any] | None:
    """After an accusation (the game is then over): who accused whom, the verdict,
    and the tricks of that hand with the accused's reneges marked."""
    game = table.game
    if game is None or not game.accusations:
        return None
    index, accusation = next(iter(game.accusations.items()))
    hand = game.hands[index]
    reneged = {i for i, seat in hand.reneges if seat == accusation.against}
    n = table.rules.players
    tricks = []
    for t in range(0, accusation.after_play, n):
        cards = hand.plays[t : min(t + n, accusation.after_play)]
        tricks.append(
            {
                "leader": hand.leaders[t // n],
                "cards": codec.cards_json(cards),
                "reneges": codec.cards_json(c for i, c in enumerate(cards, t) if i in reneged),
            }
        )
    return {
        "hand": index + 1,
        "by": accusation.by,
        "against": accusation.against,
        "true": accusation.true,
        "tricks": tricks,
    }
