"""The robot protocol ``espadas-robot/1`` (FORMATS.md section 3), both directions.

A robot program reads one JSON request per line and answers one JSON line:
``{"bid": 3}``, ``{"bid": "blind_nil"}`` or ``{"card": "QH"}``. A line
``{"quit": true}`` ends it.

- :func:`request_for` turns a seat's :class:`~espadas.engine.PlayerView` into a
  request; :func:`parse_response` (or :func:`parse_line`) checks an answer against
  it and returns the :class:`~espadas.engine.Bid` or :class:`~espadas.engine.Play`.
- :func:`view_from_request` goes the other way, so that the project's own robots
  can run behind the protocol (``espadas robot LEVEL``); :func:`response_for`
  writes their action as an answer.

Choices this module makes where the format is silent:

- ``legal`` in the play phase holds the seat's *proper* plays (no renege): robots
  never renege (RULES.md section 5), so a renege is never offered to a program,
  and an answer that reneges is a fault like any other illegal card.
- Blind nil: the protocol has no "look" action. While a seat's hand is still
  face down (its view offers :class:`~espadas.engine.Look`), the request has
  ``phase`` ``"bid"``, ``hand`` ``[]`` and the bids, ``"blind_nil"`` included, as
  ``legal``. A ``"blind_nil"`` answer is the bid itself; a number means "look,
  then bid this": the caller applies ``Look(seat)`` first and then the bid
  (:func:`actions_for` gives both). The program must choose that number without
  having seen its cards.
- ``hand`` and the legal cards are listed spades first, high to low (``AS``
  … ``2C``); ``rules`` is the preset plus the options that differ from it
  (:meth:`~espadas.engine.Rules.to_dict`); ``trick`` is
  ``{"leader": SEAT, "cards": []}`` when a trick is due but no card is down
  yet, and ``null`` while bids are due.
- A request for a seat that has nothing to bid or play is refused with
  ``ValueError``.

>>> from espadas.engine import Game, Rules
>>> game = Game.new(Rules.from_preset("pagat"), seed=7)
>>> request = request_for(game.view_for(game.to_act))
>>> request["phase"], request["seat"], request["bids"], request["legal"][:3]
('bid', 3, [None, None, None, None], [0, 1, 2])
>>> parse_response({"bid": 4}, request)
Bid(value=4)
>>> parse_response({"card": "AS"}, request)
Traceback (most recent call last):
...
espadas.robots.protocol.ProtocolFault: expected {"bid": ...} in the bid phase, not {"card": ...}
>>> view_from_request(request).legal == game.view_for(3).legal
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from espadas.engine import (
    BLIND_NIL,
    Action,
    Bid,
    BidValue,
    Card,
    CardSet,
    CodecError,
    EspadasError,
    Look,
    Play,
    PlayerView,
    Rules,
    Trick,
    trick_winner,
)
from espadas.engine.codec import (
    bid_from_json,
    bid_json,
    card_from_json,
    card_json,
    cards_json,
    trick_from_json,
    trick_json,
)

PROTOCOL = "espadas-robot/1"
"""The value of every request's ``protocol`` key."""

REQUEST_KEYS = (
    "protocol",
    "phase",
    "rules",
    "players",
    "seat",
    "dealer",
    "hand",
    "bids",
    "tricks",
    "trick",
    "scores",
    "bags",
    "legal",
)
"""The keys every request has, in the order they are written."""

QUIT: dict[str, Any] = {"quit": True}
"""The line that ends a robot program."""


class ProtocolFault(ValueError):
    """A request or an answer that breaks ``espadas-robot/1``.

    ``kind`` says what went wrong: ``json`` (not JSON), ``shape`` (not an object,
    a missing or wrong key), ``type`` (a value of the wrong type), ``illegal``
    (a well-formed bid or card that is not legal now), ``error`` (the program
    answered ``{"error": ...}``), ``request`` (a malformed request).
    """

    def __init__(self, message: str, kind: str = "shape") -> None:
        super().__init__(message)
        self.kind = kind


# ----------------------------------------------------------------------------
# caller side: view -> request, answer -> action


def request_for(view: PlayerView) -> dict[str, Any]:
    """The request asking ``view.seat`` for its bid or card (every key present).

    Raises ``ValueError`` when the seat has no bid or card to give now.
    """
    rules = view.rules
    if view.to_act != view.seat or view.phase not in ("bidding", "playing"):
        raise ValueError(
            f"seat {view.seat} has no bid or card to give now (phase {view.phase},"
            f" to act {view.to_act})"
        )
    legal: list[Any]
    if view.phase == "bidding":
        phase = "bid"
        legal = [bid_json(a.value) for a in view.legal if isinstance(a, Bid)]
    else:
        phase = "play"
        legal = cards_json(reversed(view.proper_plays))
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal bid or card")
    hand = [] if view.held is None else cards_json(reversed(view.held))
    sides = rules.side_names()
    return {
        "protocol": PROTOCOL,
        "phase": phase,
        "rules": rules.to_dict(),
        "players": rules.players,
        "seat": view.seat,
        "dealer": view.dealer,
        "hand": hand,
        "bids": [None if b is None else bid_json(b) for b in view.bids],
        "tricks": [trick_json(t.leader, t.cards) for t in view.tricks],
        "trick": None if view.trick is None else trick_json(view.trick.leader, view.trick.cards),
        "scores": dict(zip(sides, view.scores, strict=True)),
        "bags": dict(zip(sides, view.bags, strict=True)),
        "legal": legal,
    }


def _show(value: Any, limit: int = 60) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def parse_line(line: str, request: Mapping[str, Any]) -> Action:
    """:func:`parse_response` for a raw answer line; a line that is not JSON is a
    fault of kind ``json``.

    >>> parse_line('{"card": "AS"', {"phase": "play", "legal": ["AS"]})
    Traceback (most recent call last):
    ...
    espadas.robots.protocol.ProtocolFault: the answer is not JSON: '{"card": "AS"'
    """
    try:
        obj = json.loads(line)
    except ValueError:
        text = line.strip()
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ProtocolFault(f"the answer is not JSON: {shown!r}", "json") from None
    return parse_response(obj, request)


def parse_response(obj: Any, request: Mapping[str, Any]) -> Action:
    """The action an answer (already decoded from JSON) stands for, checked against
    the request it answers. Raises :class:`ProtocolFault`.

    >>> req = {"phase": "play", "legal": ["QH", "2S"]}
    >>> parse_response({"card": "qh"}, req)
    Play(card=Card('QH'))
    >>> parse_response({"card": "KH"}, req)
    Traceback (most recent call last):
    ...
    espadas.robots.protocol.ProtocolFault: KH is not a legal card now; legal: QH 2S
    """
    phase = request["phase"]
    key, other = ("bid", "card") if phase == "bid" else ("card", "bid")
    if not isinstance(obj, dict):
        raise ProtocolFault(
            f'the answer must be a JSON object such as {{"{key}": ...}}, not {_show(obj)}'
        )
    if key not in obj:
        if "error" in obj:
            raise ProtocolFault(f"the robot reported an error: {_show(obj['error'])}", "error")
        if other in obj:
            raise ProtocolFault(
                f'expected {{"{key}": ...}} in the {phase} phase, not {{"{other}": ...}}'
            )
        keys = ", ".join(sorted(str(k) for k in obj)) or "none"
        raise ProtocolFault(f'expected {{"{key}": ...}}; the answer has keys: {keys}')
    if other in obj:
        raise ProtocolFault(f'the answer has both "bid" and "card"; give only "{key}"')
    value = obj[key]
    legal = request["legal"]
    if key == "bid":
        try:
            bid = bid_from_json(value, nil_word=False)  # "nil" is no bid in this protocol
        except CodecError:
            message = f'a bid is an integer or "blind_nil", not {_show(value)}'
            raise ProtocolFault(message, "type") from None
        if bid not in legal:
            shown = " ".join(str(b) for b in legal)
            raise ProtocolFault(f"{_show(value)} is not a legal bid now; legal: {shown}", "illegal")
        return Bid(bid)
    if not isinstance(value, str):
        raise ProtocolFault(f'a card is a string such as "QH", not {_show(value)}', "type")
    try:
        card = card_from_json(value)
    except CodecError:
        raise ProtocolFault(f'{_show(value)} is not a card (write it as "QH")', "type") from None
    if str(card) not in legal:
        raise ProtocolFault(f"{card} is not a legal card now; legal: {' '.join(legal)}", "illegal")
    return Play(card)


def actions_for(view: PlayerView, action: Action) -> tuple[Action, ...]:
    """The actions the caller applies for an answer: a number bid from a seat whose
    hand is still face down is ``Look(seat)`` and then the bid.

    >>> from espadas.engine import Game, Rules
    >>> game = Game.new(Rules.from_preset("cien"), seed=3)
    >>> actions_for(game.view_for(2), Bid(4))
    (Look(seat=2), Bid(value=4))
    >>> actions_for(game.view_for(2), Bid("blind_nil"))
    (Bid(value='blind_nil'),)
    """
    if isinstance(action, Bid) and action.value != BLIND_NIL and Look(view.seat) in view.legal:
        return (Look(view.seat), action)
    return (action,)


def response_for(action: Action) -> dict[str, Any]:
    """The answer line for a bid or a play.

    >>> response_for(Bid(3)), response_for(Play(Card("QH")))
    ({'bid': 3}, {'card': 'QH'})
    """
    if isinstance(action, Bid):
        return {"bid": bid_json(action.value)}
    if isinstance(action, Play):
        return {"card": card_json(action.card)}
    raise ValueError(f"{action!r} cannot be sent as an answer: only a bid or a card")


# ----------------------------------------------------------------------------
# robot side: request -> view


def _fault(message: str) -> ProtocolFault:
    return ProtocolFault(message, "request")


def _int(req: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = req[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fault(f"{key} must be an integer {low}..{high}, not {_show(value)}")
    return value


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise _fault(f'{where}: a card is a string such as "QH", not {_show(value)}')
    try:
        return card_from_json(value)
    except CodecError:
        raise _fault(f"{where}: {_show(value)} is not a card") from None


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _fault(f"{where} must be a list of cards, not {_show(value)}")
    return tuple(_card(v, where) for v in value)


def _trick(value: Any, where: str, n: int) -> tuple[int, tuple[Card, ...]]:
    """(leader, cards) of a trick. Requests carry no ``winner`` (the codec would read
    one), and a trick with too many cards comes back for the caller to refuse."""
    if not isinstance(value, dict) or set(value) != {"leader", "cards"}:
        raise _fault(f'{where} must be {{"leader": SEAT, "cards": [...]}}, not {_show(value)}')
    try:
        return trick_from_json(value, n)
    except CodecError:
        pass  # said below as the protocol says it
    leader = value["leader"]
    if isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < n:
        raise _fault(f"{where}: leader must be a seat 0..{n - 1}, not {_show(leader)}")
    return leader, _cards(value["cards"], where)


def _bid_value(value: Any, where: str, size: int) -> BidValue:
    try:
        return bid_from_json(value, size=size, nil_word=False)  # "nil" is no bid here
    except CodecError:
        raise _fault(f'{where}: a bid is 0..{size} or "blind_nil", not {_show(value)}') from None


def _by_side(req: Mapping[str, Any], key: str, sides: list[str]) -> tuple[int, ...]:
    value = req[key]
    if not isinstance(value, dict) or sorted(value) != sorted(sides):
        raise _fault(f"{key} must be an object keyed {', '.join(sides)}, not {_show(value)}")
    out = []
    for side in sides:
        v = value[side]
        if isinstance(v, bool) or not isinstance(v, int):
            raise _fault(f"{key}[{side}] must be an integer, not {_show(v)}")
        out.append(v)
    return tuple(out)


def view_from_request(req: Any) -> PlayerView:
    """Rebuilds the asking seat's :class:`~espadas.engine.PlayerView` from a request,
    checking it; raises :class:`ProtocolFault` (kind ``request``) on malformed input.

    What the request does not carry is filled in: ``hand_number`` is 1, ``looked``
    is true for every seat that has bid (and for the asking seat once its hand is
    shown), ``hand`` is ``None`` while it is face down, and ``legal`` holds only
    :class:`~espadas.engine.Bid` or :class:`~espadas.engine.Play` actions (never
    ``Look``); ``proper_plays`` is the set of legal cards.
    """
    if not isinstance(req, dict):
        raise _fault(f"a request must be a JSON object, not {_show(req)}")
    missing = [k for k in REQUEST_KEYS if k not in req]
    if missing:
        raise _fault(f"the request lacks {', '.join(missing)}")
    if req["protocol"] != PROTOCOL:
        raise _fault(f"protocol must be {PROTOCOL!r}, not {_show(req['protocol'])}")
    phase = req["phase"]
    if phase not in ("bid", "play"):
        raise _fault(f'phase must be "bid" or "play", not {_show(phase)}')
    try:
        rules = Rules.from_dict(req["rules"])
    except (EspadasError, TypeError, ValueError) as e:
        raise _fault(f"rules: {e}") from None
    n = rules.players
    if req["players"] != n or isinstance(req["players"], bool):
        raise _fault(f"players is {_show(req['players'])} but the rules have {n}")
    seat = _int(req, "seat", 0, n - 1)
    dealer = _int(req, "dealer", 0, n - 1)
    size = rules.hand_size

    hand_cards = _cards(req["hand"], "hand")
    bids_in = req["bids"]
    if not isinstance(bids_in, list) or len(bids_in) != n:
        raise _fault(f"bids must be a list of {n} values, not {_show(bids_in)}")
    bids = tuple(None if b is None else _bid_value(b, "bids", size) for b in bids_in)

    tricks_in = req["tricks"]
    if not isinstance(tricks_in, list):
        raise _fault(f"tricks must be a list, not {_show(tricks_in)}")
    tricks: list[Trick] = []
    seen = CardSet(hand_cards)
    if len(seen) != len(hand_cards):
        raise _fault("hand: a card appears twice")
    played_by = [0] * n
    taken = [0] * n
    broken = False

    def note(leader: int, cards: tuple[Card, ...], where: str) -> None:
        nonlocal seen, broken
        for k, c in enumerate(cards):
            if c in seen:
                raise _fault(f"{where}: {c} appears twice in the request")
            if c.bit & rules.removed:
                raise _fault(f"{where}: {c} is removed from the deck with {n} players")
            seen = seen | c.bit
            played_by[(leader + k) % n] += 1
            broken = broken or c.suit == 3

    next_leader: int | None = None
    for i, t in enumerate(tricks_in):
        leader, cards = _trick(t, f"tricks[{i}]", n)
        if len(cards) != n:
            raise _fault(f"tricks[{i}] has {len(cards)} cards; a completed trick has {n}")
        if next_leader is not None and leader != next_leader:
            raise _fault(
                f"tricks[{i}] is led by {leader} but seat {next_leader} won the trick before"
            )
        note(leader, cards, f"tricks[{i}]")
        winner = trick_winner(leader, cards, n)
        taken[winner] += 1
        next_leader = winner
        tricks.append(Trick(leader, cards, winner))
    if len(tricks) >= size:
        raise _fault(f"tricks: a hand has only {size} tricks")

    trick: Trick | None = None
    if req["trick"] is not None:
        leader, cards = _trick(req["trick"], "trick", n)
        if len(cards) >= n:
            raise _fault(f"trick has {len(cards)} cards; a trick in progress has fewer than {n}")
        if next_leader is not None and leader != next_leader:
            raise _fault(f"trick is led by {leader} but seat {next_leader} won the last trick")
        note(leader, cards, "trick")
        trick = Trick(leader, cards, None)

    legal_in = req["legal"]
    if not isinstance(legal_in, list) or not legal_in:
        raise _fault(f"legal must be a non-empty list, not {_show(legal_in)}")
    legal: tuple[Action, ...]
    hand: CardSet | None
    proper = CardSet(0)
    if phase == "bid":
        if tricks or trick is not None:
            raise _fault("no card is played while bids are due (tricks and trick)")
        if bids[seat] is not None:
            raise _fault(f"seat {seat} has already bid")
        legal = tuple(Bid(_bid_value(b, "legal", size)) for b in legal_in)
        face_down = not hand_cards
        if face_down and not rules.blind_nil:
            raise _fault(f"hand: the seat holds {size} cards, not 0")
        if not face_down and len(hand_cards) != size:
            raise _fault(f"hand: the seat holds {size} cards, not {len(hand_cards)}")
        if not face_down and Bid(BLIND_NIL) in legal:
            raise _fault('legal: "blind_nil" is only for a seat that has not seen its cards')
        hand = None if face_down else CardSet(hand_cards)
    else:
        if any(b is None for b in bids):
            raise _fault("every seat bids before the first card")
        if trick is None:
            raise _fault('trick must be {"leader": SEAT, "cards": [...]} in the play phase')
        if (trick.leader + len(trick.cards)) % n != seat:
            raise _fault(f"seat {seat} is not the seat to play in this trick")
        if len(hand_cards) != size - played_by[seat]:
            raise _fault(
                f"hand: seat {seat} has played {played_by[seat]} cards and must hold"
                f" {size - played_by[seat]}, not {len(hand_cards)}"
            )
        hand = CardSet(hand_cards)
        cards = _cards(legal_in, "legal")
        if any(c not in hand for c in cards):
            raise _fault("legal: every legal card is in the hand")
        proper = CardSet(cards)
        legal = tuple(Play(c) for c in proper)  # in the engine's order

    looked = tuple(
        (hand is not None) if s == seat else (not rules.blind_nil or bids[s] is not None)
        for s in range(n)
    )
    sides = rules.side_names()
    return PlayerView(
        rules=rules,
        hand_number=1,
        dealer=dealer,
        phase="bidding" if phase == "bid" else "playing",
        to_act=seat,
        looked=looked,
        bids=bids,
        tricks=tuple(tricks),
        trick=trick,
        tricks_taken=tuple(taken),
        cards_left=tuple(size - played_by[s] for s in range(n)),
        spades_broken=broken,
        scores=_by_side(req, "scores", sides),
        bags=_by_side(req, "bags", sides),
        hand_scores=None,
        result=None,
        seat=seat,
        held=hand,
        legal=legal,
        proper_plays=proper,
    )
