"""The live socket's protocol under hostile clients: every message is answered
(a view, a done or a refusal), the socket stays open, and no frame ever holds a
card its viewer may not see."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from server_helpers import Client, card_strings

MAX_MESSAGE = 1000


class Socket:
    """One viewer's live socket, read frame by frame; every view is checked."""

    def __init__(self, base: str, table: str, cookie: str, hands: dict[Any, set[str]]) -> None:
        url = base.replace("http://", "ws://") + f"/api/tables/{table}/live"
        headers = {"Cookie": cookie} if cookie else {}
        self.ws: ClientConnection = connect(
            url, additional_headers=headers, legacy=True, compression=None
        )
        self.hands = hands
        self.version = 0

    def send(self, message: str | bytes) -> None:
        self.ws.send(message)

    def frame(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if frame.get("type") == "view":
            check_view(frame["view"], self.hands)
            self.version = max(self.version, frame["version"])
        return frame

    def until(self, wanted: set[str]) -> dict[str, Any]:
        """Frames up to the first of a type in ``wanted`` (views are checked on the way)."""
        while True:
            frame = self.frame()
            if frame.get("type") in wanted:
                return frame

    def drain(self) -> None:
        """Reads (and checks) every frame already sent."""
        try:
            while True:
                self.frame(timeout=0.05)
        except TimeoutError:
            return

    def close(self) -> None:
        self.ws.close()


def check_view(view: dict[str, Any], hands: dict[Any, set[str]]) -> None:
    """No card outside the viewer's own hand and the played cards; the hands
    seen by different seats never share a card."""
    game = view.get("game")
    if not isinstance(game, dict):
        assert card_strings(view) == []
        return
    played = set(card_strings([game["tricks"], game["trick"]]))
    seat = view["you"]
    hand = game["hand"]
    if seat is None:
        assert hand is None and game["legal"] == [], game
        own: set[str] = set()
    else:
        own = set() if hand is None else set(card_strings(hand))
        if hand is not None:
            assert len(own) == len(hand) == game["cards_left"][seat], (hand, game["cards_left"])
            assert not own & played, (own, played)
        key = (view["id"], game["hand_number"])
        seen = hands.setdefault((key, seat), set())
        seen |= own
        for (other_key, other_seat), cards in hands.items():
            if other_key == key and other_seat != seat:
                assert not seen & cards, (seat, other_seat, seen & cards)
    for card in card_strings(view):
        assert card in own or card in played, (seat, card, game["phase"])


def expected(message: str | bytes) -> str:
    """What the server must answer, by the protocol in the README."""
    if isinstance(message, bytes):
        return "not_text"
    if len(message) > MAX_MESSAGE:
        return "too_long"
    try:
        value = json.loads(message)
    except ValueError:
        return "bad_message"
    if not isinstance(value, dict):
        return "bad_message"
    if value.get("type") in ("sync", "act"):
        return str(value["type"])
    return "unknown_message"


def echoed(message: str | bytes) -> Any:
    """The ``id`` the answer must carry: the message's own if short, else none."""
    if isinstance(message, bytes) or len(message) > MAX_MESSAGE:
        return None
    try:
        ref = json.loads(message).get("id")
    except (ValueError, AttributeError, TypeError):
        return None
    return ref if isinstance(ref, int | str) and len(str(ref)) <= 40 else None


@pytest.fixture(scope="module")
def people(base: str) -> Iterator[list[Client]]:
    """Ana and Luis (who will sit), Sofía (who will watch) and an anonymous visitor."""
    clients = [Client(base) for _ in range(4)]
    for client, name in zip(clients, ["Ana", "Luis", "Sofía"], strict=False):
        client.sign_in(name)
    yield clients
    for client in clients:
        client.close()


def new_table(people: list[Client]) -> str:
    ana, luis, sofia, _anonymous = people
    tid: str = ana.ok("POST", "/api/tables", {"target": 250})["id"]
    luis.ok("POST", f"/api/tables/{tid}/join")
    ana.ok("POST", f"/api/tables/{tid}/robots", {"level": "aleatorio"})
    ana.ok("POST", f"/api/tables/{tid}/start")
    sofia.ok("POST", f"/api/tables/{tid}/join")
    return tid


def test_malformed_messages_are_refused_and_the_socket_stays_open(
    base: str, people: list[Client]
) -> None:
    tid = new_table(people)
    socket = Socket(base, tid, people[0].cookie_header(), {})
    try:
        assert socket.frame()["type"] == "view"
        cases: list[tuple[str | bytes, str]] = [
            (b'{"type": "sync"}', "not_text"),
            (b"\xff\xfe\x80", "not_text"),
            ('{"type": "act", "id": 1, "action": {"type": "bid"', "bad_message"),
            ('{"type": "sync"', "bad_message"),
            ("[1, 2]", "bad_message"),
            ('{"type": "dance", "id": 9}', "unknown_message"),
            ("{}", "unknown_message"),
            ('{"type": "act", "id": "x", "action": {}}' + " " * MAX_MESSAGE, "too_long"),
        ]
        for message, code in cases:
            socket.send(message)
            answer = socket.until({"refused", "done"})
            assert answer["type"] == "refused", (message, answer)
            assert (answer["status"], answer["error"]) == (400, code), (message, answer)
            assert answer["message"] and answer["id"] == echoed(message)
        socket.send('{"type": "sync"}')
        assert socket.until({"view"})["version"] == socket.version
    finally:
        socket.close()


def test_invalid_utf8_text_is_closed_with_a_close_frame(base: str, people: list[Client]) -> None:
    """A text frame that is not UTF-8 breaks the WebSocket protocol itself (RFC 6455
    8.1): the server fails the connection, with a close frame (1007), not a drop."""
    tid = new_table(people)
    socket = Socket(base, tid, people[0].cookie_header(), {})
    socket.frame()
    socket.ws.send(b"\xff\xfe", text=True)
    with pytest.raises(ConnectionClosed) as closed:
        socket.until({"refused"})
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007


KINDS = ["look", "bid", "play", "accuse", "next_hand", "confirm_end", "abandon", "claim", "x"]
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 15),
    st.integers(),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["AS", "10h", "QH", "2C", "nil", "blind_nil"]),
)
VALUES = st.recursive(
    ATOMS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
REFS = st.one_of(st.none(), st.integers(), st.text(max_size=45), st.floats())
ACTS = st.builds(
    lambda ref, action: {"type": "act", "id": ref, "action": action},
    REFS,
    st.one_of(
        st.fixed_dictionaries({"type": st.sampled_from(KINDS), "value": ATOMS}),
        st.fixed_dictionaries({"type": st.sampled_from(KINDS)}),
        VALUES,
    ),
)
OBJECTS = st.one_of(
    st.just({"type": "sync"}),
    ACTS,
    st.fixed_dictionaries({"type": VALUES}),
    VALUES,
)
TEXTS = st.one_of(
    OBJECTS.map(json.dumps),
    st.tuples(OBJECTS.map(json.dumps), st.integers(0, 60)).map(lambda t: t[0][: t[1]]),
    st.text(max_size=30),
    st.just("{" * 600 + "}" * 600),
)
MESSAGES = st.one_of(
    TEXTS,
    st.binary(max_size=30),
    st.tuples(st.just("legal"), st.integers(0, 20), REFS),  # a proper act, in turn or not
)
"""A message, or ``("legal", i, ref)``: act the viewer's i-th legal action, or
without one a card of its hand out of turn."""


def resolve(message: Any, socket: Socket, client: Client, tid: str) -> str | bytes:
    if not isinstance(message, tuple):
        assert isinstance(message, str | bytes)
        return message
    _, index, ref = message
    game = client.view(tid).get("game") or {}
    legal = game.get("legal") or []
    if legal:
        action = legal[index % len(legal)]
    elif game.get("hand"):
        action = {"type": "play", "value": game["hand"][index % len(game["hand"])]}
    else:
        action = {"type": "bid", "value": index % 14}
    return json.dumps({"type": "act", "id": ref, "action": action})


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(st.tuples(st.integers(0, 3), MESSAGES), min_size=1, max_size=12))
def test_every_message_is_answered_and_no_card_leaks(
    base: str, people: list[Client], script: list[tuple[int, Any]]
) -> None:
    tid = new_table(people)
    hands: dict[Any, set[str]] = {}
    sockets = [Socket(base, tid, client.cookie_header(), hands) for client in people]
    try:
        for socket in sockets:
            assert socket.frame()["type"] == "view"
        for who, raw in script:
            socket = sockets[who]
            message = resolve(raw, socket, people[who], tid)
            socket.drain()
            socket.send(message)
            kind = expected(message)
            if kind == "sync":
                assert socket.until({"view", "refused", "done"})["type"] == "view"
                continue
            answer = socket.until({"refused", "done"})
            assert answer["id"] == echoed(message), (message, answer)
            if kind == "act":
                if answer["type"] == "done" and socket.version < answer["version"]:
                    assert socket.until({"view"})["version"] >= answer["version"]
                elif answer["type"] == "refused":
                    assert 400 <= answer["status"] < 500 and answer["message"], answer
                    assert answer["status"] != 429, answer
            else:
                assert answer["type"] == "refused" and answer["error"] == kind, (message, answer)
        for socket in sockets:  # still open, and every frame checked
            socket.send('{"type": "sync"}')
            assert socket.until({"view"})["type"] == "view"
            socket.drain()
    finally:
        for socket in sockets:
            socket.close()
