"""An event's boards (tables/boards.py): one commitment for the whole set, each board
committed to as a table's hand is, and a revealed boards file that verifies."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from espadas.engine import CardSet, Rules
from espadas.engine.errors import RecordError
from espadas.tables.boards import Boards, boards_json, fresh_boards, set_commitment, verify_boards
from espadas.tables.commitment import commit, deal_text


def test_the_set_commitment_is_the_digest_of_the_boards_commitments() -> None:
    boards = fresh_boards(Rules.from_preset("estandar"), 4)
    lines = "".join(commit(deal_text(b.deal), b.salt) + "\n" for b in boards.boards)
    expected = hashlib.sha256(("espadas-boards/1\n" + lines).encode()).hexdigest()
    assert boards.commitment == expected
    assert [b.number for b in boards.boards] == [1, 2, 3, 4]
    assert [b.dealer for b in boards.boards] == [0, 1, 2, 3]
    cards = [CardSet(m) for b in boards.boards for m in b.deal]
    assert all(len(c) == 13 for c in cards)
    assert len({b.salt for b in boards.boards}) == 4  # a fresh salt per board


def test_published_boards_show_no_card_and_no_salt() -> None:
    boards = fresh_boards(Rules.from_preset("sala", players=3), 2)
    published = boards_json(boards, reveal=False)
    assert published["commitment"] == boards.commitment
    assert all(set(item) == {"board", "dealer", "commitment"} for item in published["boards"])
    checks, whole = verify_boards(published)
    assert [c.status for c in checks] == ["missing", "missing"] and whole == "ok"
    assert Rules.from_dict(published["rules"]) == boards.rules


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 7), st.integers(0, 3), st.sampled_from(["deal", "salt", "order", "set"]))
def test_any_change_to_a_revealed_file_is_caught(count: int, which: int, change: str) -> None:
    boards = fresh_boards(Rules.from_preset("estandar"), count % 4 + 1)
    data = boards_json(boards, reveal=True)
    assert [c.status for c in verify_boards(data)[0]] == ["ok"] * len(boards.boards)
    bad = copy.deepcopy(data)
    item = bad["boards"][which % len(bad["boards"])]
    if change == "deal":  # two seats swap their hands
        item["deal"][0], item["deal"][1] = item["deal"][1], item["deal"][0]
        assert verify_boards(bad)[0][item["board"] - 1].status == "mismatch"
    elif change == "salt":
        item["salt"] = "00" * 16
        assert verify_boards(bad)[0][item["board"] - 1].status == "mismatch"
    elif change == "order" and len(bad["boards"]) > 1:  # a board swapped for another's commitment
        other = bad["boards"][(which + 1) % len(bad["boards"])]
        item["commitment"], other["commitment"] = other["commitment"], item["commitment"]
        assert verify_boards(bad)[1] == "mismatch"
    else:
        bad["commitment"] = set_commitment(
            [*[c["commitment"] for c in bad["boards"]][::-1], "0" * 64]
        )
        assert verify_boards(bad)[1] == "mismatch"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="espadas-record/1"), 'a boards file has "format"'),
        (lambda d: d.update(commitment="xyz"), "the set's commitment must be 64"),
        (lambda d: d.update(boards=[]), "boards must be a non-empty list"),
        (lambda d: d["boards"][0].update(board=7), "boards[0] must be an object with board 1"),
        (lambda d: d["boards"][0].update(commitment=3), "board 1: the commitment"),
        (lambda d: d["boards"][0].update(deal=["ZZ..."] * 4), "board 1: "),
    ],
)
def test_malformed_files_are_refused(change: object, message: str) -> None:
    data = boards_json(fresh_boards(Rules.from_preset("estandar"), 1), reveal=True)
    change(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=message.replace("[", r"\[").replace("]", r"\]")):
        verify_boards(data)


def test_bad_counts() -> None:
    for count in (0, 101):
        with pytest.raises(ValueError, match="1 to 100 boards"):
            fresh_boards(Rules.from_preset("estandar"), count)
    assert isinstance(fresh_boards(Rules.from_preset("estandar"), 1), Boards)
