"""Chat at a table (:mod:`espadas.tables.chat`): who may write, what a message
may hold, the per-person limit, the creator's switch for spectators, the log
(messages survive a rebuild), and that nothing of a message reaches a robot's
view or the game's record."""

from __future__ import annotations

import json
import random
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from espadas.engine import Rules
from espadas.robots.protocol import request_for
from espadas.robots.random_robot import RandomRobot
from espadas.tables.chat import (
    LIMITS,
    PHRASES,
    SHOWN,
    TEXT_MAX,
    ChatRefused,
    TooFast,
    author_key,
    chat_command,
)
from espadas.tables.errors import BadCommand, NotAllowed, TableError
from espadas.tables.event import Event
from espadas.tables.names import CONTROL
from espadas.tables.table import Table
from espadas.tables.view import ViewText, action_json, table_view

AT = datetime(2026, 1, 1, tzinfo=UTC)


def table_with_robots(seed: int = 1) -> Table:
    table, _ = Table.create("t1", Rules.from_preset("pagat"), "ana", "Ana", AT)
    table.join("luis", "Luis", AT)
    table.add_robots("ana", "normal", AT)
    table.start("ana", AT, dealer=lambda rules, dealer: _fixed_deal(rules, dealer, seed))
    return table


def _fixed_deal(rules: Rules, dealer: int, seed: int) -> tuple[tuple[int, ...], str]:
    from espadas.engine.deal import deal_cards

    return deal_cards(rules, random.Random(seed + dealer), dealer), "ab" * 16


def say(table: Table, player: str, at: datetime = AT, **content: Any) -> list[Event]:
    return chat_command(table, player, player.title(), "say", at, **content)


def test_players_and_spectators_write_and_spectators_are_marked() -> None:
    table = table_with_robots()
    say(table, "ana", text="¡Hola!")
    say(table, "marta", phrase="well_played")  # watching, signed in
    chat = table_view(table, "luis")["chat"]
    assert chat["count"] == 2 and chat["spectators"] is True
    first, second = chat["messages"]
    assert (first["name"], first["seat"], first["spectator"], first["text"]) == (
        "Ana",
        0,
        False,
        "¡Hola!",
    )
    assert (second["name"], second["seat"], second["spectator"], second["phrase"]) == (
        "Marta",
        None,
        True,
        "well_played",
    )
    assert "text" not in second and "phrase" not in first
    # a pseudonym, the same for every message of a person, never the player id
    assert first["author"] == author_key("ana") and all("player" not in m for m in chat["messages"])
    chat_command(table, "secret-id-123", "Pepe", "say", AT, text="hola")
    assert "secret-id-123" not in json.dumps(table_view(table, None))


def test_every_quick_phrase_is_accepted_and_others_are_not() -> None:
    table = table_with_robots()
    for i, phrase in enumerate(PHRASES):
        say(table, "ana", AT + timedelta(seconds=5 * i), phrase=phrase)
    assert [m.phrase for m in table.chat.messages] == list(PHRASES)
    for bad in ("hello", "", "WELL_PLAYED", 3):
        with pytest.raises(BadCommand) as err:
            say(table, "luis", phrase=bad)
        assert err.value.code == "bad_phrase"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "chat_empty"),
        ("   \u3000 ", "chat_empty"),
        ("\u0301\u0301", "chat_empty"),
        ("x" * (TEXT_MAX + 1), "chat_long"),
        ("línea\nnueva", "chat_control"),
        ("a\tb", "chat_control"),
        ("nul\x00", "chat_control"),
        ("\u202egnp.exe", "chat_format"),
        ("zero\u200bwidth", "chat_format"),
        ("e" + "\u0301" * 6, "chat_marks"),
        (None, "chat_empty"),
        (["hola"], "chat_empty"),
    ],
)
def test_messages_the_rule_refuses(text: Any, code: str) -> None:
    table = table_with_robots()
    version = table.version
    with pytest.raises(ChatRefused) as err:
        say(table, "ana", text=text)
    assert err.value.code == code and err.value.status == 422
    assert table.version == version and table.chat.count == 0


def test_a_message_is_trimmed_kept_as_given_and_may_hold_markup_and_emoji() -> None:
    table = table_with_robots()
    padded = "  " + "ñ" * TEXT_MAX + "  "
    say(table, "ana", text=padded)
    say(table, "luis", AT + timedelta(seconds=1), text="<script>alert(1)</script> 👩‍👩‍👧 &amp;")
    texts = [m.text for m in table.chat.messages]
    assert texts == ["ñ" * TEXT_MAX, "<script>alert(1)</script> 👩‍👩‍👧 &amp;"]


def test_a_message_with_both_a_text_and_a_phrase_or_neither_is_refused() -> None:
    table = table_with_robots()
    contents: list[dict[str, Any]] = [{}, {"text": "hola", "phrase": "sorry"}]
    for content in contents:
        with pytest.raises(ChatRefused):
            say(table, "ana", AT, **content)


def test_the_per_person_limit_of_five_in_ten_seconds() -> None:
    table = table_with_robots()
    for i in range(5):
        say(table, "ana", AT + timedelta(seconds=i), text=f"m{i}")
    with pytest.raises(TooFast) as err:
        say(table, "ana", AT + timedelta(seconds=5), text="one more")
    assert err.value.code == "chat_too_fast" and err.value.status == 429
    assert err.value.params == {"seconds": 5}  # the first of the five leaves at 10 s
    say(table, "luis", AT + timedelta(seconds=5), text="someone else may")
    say(table, "ana", AT + timedelta(seconds=10), text="ten seconds after the first")
    assert table.chat.count == 7


def test_the_per_person_limit_of_thirty_in_ten_minutes() -> None:
    _, (many, window) = LIMITS
    table = table_with_robots()
    at = AT
    for i in range(many):
        say(table, "ana", at, text=f"m{i}")
        at += timedelta(seconds=3)  # 5 in 10 s is never reached
    with pytest.raises(TooFast) as err:
        say(table, "ana", at, text="over")
    assert err.value.params["seconds"] == int((AT + window - at).total_seconds())
    say(table, "ana", AT + window, text="the first one left the window")


def test_the_limit_holds_after_a_rebuild_from_the_log() -> None:
    table = table_with_robots()
    for i in range(5):
        say(table, "ana", AT + timedelta(seconds=i), text=f"m{i}")
    again = Table.rebuild("t1", table.events)
    with pytest.raises(TooFast):
        say(again, "ana", AT + timedelta(seconds=6), text="still too fast")


def test_the_creator_turns_spectators_chat_off_and_on() -> None:
    table = table_with_robots()
    with pytest.raises(NotAllowed) as err:
        chat_command(table, "luis", "Luis", "chat_spectators", AT, value="off")
    assert err.value.code == "not_creator"
    events = chat_command(table, "ana", "Ana", "chat_spectators", AT, value="off")
    assert [(e.type, e.data) for e in events] == [("chat_spectators", {"on": False})]
    assert chat_command(table, "ana", "Ana", "chat_spectators", AT, value="off") == []
    with pytest.raises(NotAllowed) as closed:
        say(table, "marta", text="hola")
    assert closed.value.code == "chat_closed"
    say(table, "luis", text="players still write")
    assert table_view(table, None)["chat"]["spectators"] is False
    chat_command(table, "ana", "Ana", "chat_spectators", AT, value="on")
    say(table, "marta", text="and spectators again")
    with pytest.raises(BadCommand):
        chat_command(table, "ana", "Ana", "chat_spectators", AT, value="maybe")


def test_messages_survive_a_rebuild_and_the_view_keeps_the_latest() -> None:
    table = table_with_robots()
    at = AT
    for i in range(SHOWN + 7):
        say(table, ("ana", "luis", "marta")[i % 3], at, text=f"mensaje {i}")
        at += timedelta(seconds=4)
    again = Table.rebuild("t1", table.events)
    view = table_view(again, "ana")["chat"]
    assert view["count"] == SHOWN + 7
    assert [m["text"] for m in view["messages"]] == [f"mensaje {i}" for i in range(7, SHOWN + 7)]
    assert view == table_view(table, "ana")["chat"]


def test_the_shared_view_text_carries_the_chat() -> None:
    table = table_with_robots()
    text = ViewText(table)
    say(table, "ana", text="uno")
    newer = ViewText(table, text)
    for who in ("ana", "luis", None, "marta"):
        assert json.loads(newer.of(table, who)) == table_view(table, who)
    table.fault(2, "a move, no message", AT)
    moved = ViewText(table, newer)
    assert json.loads(moved.of(table, "ana"))["chat"]["messages"][0]["text"] == "uno"


def test_chat_does_not_start_a_turn_nor_change_the_record() -> None:
    table = table_with_robots()
    record, turn_since, turn_version = table.record(), table.turn_since, table.turn_version
    say(table, "ana", AT + timedelta(minutes=3), text="¿jugamos?")
    assert table.record() == record
    assert (table.turn_since, table.turn_version) == (turn_since, turn_version)
    assert set(record) == {"format", "rules", "players", "hands", "table"}


def test_a_robot_cannot_chat_and_unknown_chat_commands_are_refused() -> None:
    table = table_with_robots()
    with pytest.raises(BadCommand):
        chat_command(table, "ana", "Ana", "say", AT, text="hola", value=3)
    with pytest.raises(BadCommand):
        chat_command(table, "ana", "Ana", "chat_spectators", AT, value="off", text="x")
    assert table.chat.count == 0 and table.chat.spectators
    with pytest.raises(BadCommand):
        chat_command(table, "ana", "Ana", "shout", AT, text="hola")
    with pytest.raises(TableError):  # robots move only through robot_move (engine actions)
        table.act("ana", "say", AT, value="hola")


def _without_chat(events: list[Event]) -> list[Event]:
    kept = [e for e in events if e.type not in ("chat", "chat_spectators")]
    return [Event(i, e.type, e.data, e.at) for i, e in enumerate(kept, 1)]


message_texts = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=260),
    st.text(alphabet="abcñ ¡!<>&'\"", min_size=1, max_size=230),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(message_texts, min_size=1, max_size=12), seed=st.integers(0, 10_000))
def test_accepted_messages_are_clean_and_robots_views_never_hold_chat(
    texts: list[str], seed: int
) -> None:
    """Random text, sent by people between the robots' moves of a hand: what is
    accepted is at most 200 characters with no control character, and every
    view a robot is given is the one it would get at the same table without
    any chat."""
    table = table_with_robots(seed)
    robot = RandomRobot(random.Random(seed))
    rng = random.Random(seed)
    at = AT
    pending = list(texts)
    while table.game is not None and table.game.phase in ("bidding", "playing"):
        if pending and rng.random() < 0.5:
            at += timedelta(seconds=3)
            text = pending.pop()
            plain = text.strip() != "" and len(text.strip()) <= TEXT_MAX
            plain = plain and all(c in "abcñ ¡!<>&'\"" for c in text)
            try:
                say(table, rng.choice(("ana", "luis", "marta")), at, text=text)
            except ChatRefused:
                assert not plain, text
            continue
        game = table.game
        seat = game.to_act
        assert seat is not None
        clean = Table.rebuild("t1", _without_chat(table.events))
        assert clean.game is not None
        view = game.view_for(seat)
        assert view == clean.game.view_for(seat)
        if table.robot_to_act == seat and game.phase in ("bidding", "playing"):
            assert request_for(view) == request_for(clean.game.view_for(seat))
            table.robot_move(seat, robot.act(view), at)
        else:  # a person's move, through the same path as the page's
            action = robot.act(view)
            move = action_json(action)
            player = table.seats[seat].player  # type: ignore[union-attr]
            assert player is not None
            table.act(player, move["type"], at, value=move.get("value"))
    for message in table.chat.messages:
        assert message.text is not None
        assert 0 < len(message.text) <= TEXT_MAX
        assert message.text == message.text.strip()
        assert not any(unicodedata.category(c) in CONTROL for c in message.text)
    assert table.chat.count <= len(texts)
