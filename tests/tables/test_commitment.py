"""Verifiable deals: the documented serialization, fresh deals and the record check."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from typing import Any

import pytest

from espadas.engine import Game, Rules
from espadas.engine.errors import ParseError, RecordError
from espadas.engine.hand import check_deal
from espadas.engine.record import game_record, load_record, rebuild
from espadas.tables.commitment import (
    SALT_BYTES,
    HandCheck,
    commit,
    deal_text,
    fresh_deal,
    serialize,
    verify_record,
)
from table_helpers import swap_one_card, table_game

FULL = (1 << 52) - 1


def documented_bytes(deal: list[str], salt: str) -> bytes:
    """The serialization as the README and the module docstring write it."""
    return ("espadas-deal/1\n" + "\n".join(deal) + "\n" + salt + "\n").encode("utf-8")


# the serialization ---------------------------------------------------------------------


def test_known_vector() -> None:
    deal = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    salt = "00112233445566778899aabbccddeeff"
    assert serialize(deal, salt) == documented_bytes(deal, salt)
    expected = hashlib.sha256(documented_bytes(deal, salt)).hexdigest()
    assert commit(deal, salt) == expected
    # the value the README and the docstring print
    assert expected == "10cef5d9b6cb538afb46d6ac96c7309d53f170428dcc1dd547f422fb932ee7b5"


def test_vector_from_a_real_deal() -> None:
    rec = game_record(Game.new(Rules.from_preset("estandar"), seed=11))
    deal = rec["hands"][0]["deal"]
    salt = "9f" * SALT_BYTES
    raw = ("espadas-deal/1\n" + "\n".join(deal) + "\n" + salt + "\n").encode()
    assert commit(deal, salt) == hashlib.sha256(raw).hexdigest()


def test_other_spellings_are_put_in_record_form() -> None:
    deal = ["AKQ.JT9.8765.432", "JT98..AKQJ.KQJ98", ".AKQ8765432.T9.T", "765432...A765"]
    spelt = ["akq.jt9.8765.432", "J1098..akqj.kqj98", "-.AKQ8765432.109.t", "765432.-.-.A765"]
    salt = "ab" * SALT_BYTES
    assert serialize(spelt, salt) == serialize(deal, salt) == documented_bytes(deal, salt)
    assert serialize(deal, salt).split(b"\n")[3] == b".AKQ8765432.T9.T"


def test_every_card_and_the_salt_change_the_commitment() -> None:
    deal = deal_text(fresh_deal(Rules(), 0)[0])
    salt = "00" * SALT_BYTES
    base = commit(deal, salt)
    swapped = [deal[1], deal[0], *deal[2:]]
    assert commit(swapped, salt) != base
    assert commit(deal, "01" + salt[2:]) != base
    assert re.fullmatch(r"[0-9a-f]{64}", base)


@pytest.mark.parametrize("salt", ["", "A1", "abc", "zz", " ab", "ab\n", 7])
def test_bad_salt(salt: Any) -> None:
    with pytest.raises(ValueError, match="salt"):
        serialize(["AK..."], salt)


def test_bad_hand() -> None:
    with pytest.raises(ParseError):
        serialize(["AKX..."], "ab")


# fresh deals ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_fresh_deal_is_a_valid_deal(players: int) -> None:
    rules = Rules.from_preset("sala", players=players)
    for dealer in range(players):
        deal, salt = fresh_deal(rules, dealer)
        assert len(deal) == players
        assert all(h.bit_count() == rules.hand_size for h in deal)
        union = 0
        for h in deal:
            assert union & h == 0, "a card dealt twice"
            union |= h
        assert union == FULL & ~rules.removed
        assert check_deal(rules, deal) == deal
        assert re.fullmatch(f"[0-9a-f]{{{2 * SALT_BYTES}}}", salt)


def test_fresh_deals_and_salts_differ() -> None:
    rules = Rules()
    draws = [fresh_deal(rules, 0) for _ in range(20)]
    assert len({salt for _, salt in draws}) == 20
    assert len({deal for deal, _ in draws}) == 20


def test_fresh_deal_ignores_the_global_random_state() -> None:
    random.seed(1)
    first = fresh_deal(Rules(), 0)
    random.seed(1)
    second = fresh_deal(Rules(), 0)
    assert first[0] != second[0] and first[1] != second[1]


def test_fresh_deal_refuses_a_bad_dealer() -> None:
    with pytest.raises(ValueError, match="dealer"):
        fresh_deal(Rules(), 4)


# checking a record ----------------------------------------------------------------------


def test_the_record_loader_accepts_commitment_and_salt() -> None:
    rec = table_game()
    loaded = load_record(json.dumps(rec))
    assert loaded["hands"][0]["salt"] == rec["hands"][0]["salt"]
    assert len(rebuild(loaded).hands) == len(rec["hands"])


def test_a_table_game_verifies() -> None:
    rec = table_game(hands=3)
    checks = verify_record(rec)
    assert [c.hand for c in checks] == [1, 2, 3]
    assert all(c.status == "ok" for c in checks)
    assert all(
        c.expected == c.actual == h["commitment"] for c, h in zip(checks, rec["hands"], strict=True)
    )


def test_an_individual_game_verifies() -> None:
    rec = table_game("sala", hands=2, players=5)
    assert [c.status for c in verify_record(rec)] == ["ok", "ok"]


def test_a_swapped_card_fails_that_hand_only() -> None:
    rec = table_game(hands=3)
    swap_one_card(rec["hands"][1]["deal"], 0, 2)
    checks = verify_record(rec)
    assert [c.status for c in checks] == ["ok", "mismatch", "ok"]
    bad = checks[1]
    assert bad.hand == 2 and bad.expected == rec["hands"][1]["commitment"]
    assert bad.actual == commit(rec["hands"][1]["deal"], rec["hands"][1]["salt"])
    assert bad.actual != bad.expected


def test_an_altered_salt_fails_that_hand() -> None:
    rec = table_game(hands=3)
    salt = rec["hands"][2]["salt"]
    rec["hands"][2]["salt"] = ("0" if salt[0] != "0" else "1") + salt[1:]
    assert [c.status for c in verify_record(rec)] == ["ok", "ok", "mismatch"]


def test_an_altered_commitment_fails_that_hand() -> None:
    rec = table_game(hands=2)
    rec["hands"][0]["commitment"] = commit(rec["hands"][1]["deal"], rec["hands"][1]["salt"])
    assert [c.status for c in verify_record(rec)] == ["mismatch", "ok"]


def test_missing_commitment_or_salt() -> None:
    rec = table_game(hands=3)
    del rec["hands"][0]["commitment"]
    del rec["hands"][2]["salt"]
    checks = verify_record(rec)
    assert [c.status for c in checks] == ["missing", "ok", "missing"]
    first, _, last = checks
    assert first.expected is None and first.actual == commit(
        rec["hands"][0]["deal"], rec["hands"][0]["salt"]
    )
    assert last == HandCheck(3, "missing", rec["hands"][2]["commitment"], None)


def test_a_record_without_commitments() -> None:
    rec = game_record(Game.new(Rules(), seed=3))
    assert verify_record(rec) == [HandCheck(1, "missing", None, None)]
    rec["hands"] = []
    assert verify_record(rec) == []


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("commitment", "AB" * 32),
        ("commitment", "ab" * 31),
        ("commitment", "gg" * 32),
        ("commitment", 12),
        ("salt", "abc"),
        ("salt", "AB" * SALT_BYTES),
        ("salt", ""),
        ("salt", ["ab"]),
    ],
)
def test_malformed_commitment_or_salt(key: str, value: object) -> None:
    rec = table_game(hands=2)
    rec["hands"][1][key] = value
    with pytest.raises(RecordError, match=key) as info:
        verify_record(rec)
    assert info.value.message.startswith("hand 1:")  # counted from 0, as the engine does


def test_a_malformed_record_is_refused() -> None:
    rec = table_game(hands=2)
    broken = copy.deepcopy(rec)
    broken["hands"][0]["deal"][1] = broken["hands"][0]["deal"][0]
    with pytest.raises(RecordError, match="twice"):
        verify_record(broken)
    with pytest.raises(RecordError):
        verify_record([rec])
