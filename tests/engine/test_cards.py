"""Cards and card sets: text forms (FORMATS.md notation) and set behaviour."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from espadas.engine import CARDS, DECK, EMPTY, Card, CardSet, ParseError, Suit


@pytest.mark.parametrize(
    ("text", "out"),
    [("AS", "AS"), ("10h", "TH"), ("th", "TH"), ("A♠", "AS"), ("10♥", "TH"), ("2c", "2C"),
     ("qd", "QD"), (" kS ", "KS"), ("9♣", "9C"), ("j♢", "JD")],
)  # fmt: skip
def test_card_parse(text: str, out: str) -> None:
    assert str(Card.parse(text)) == out
    assert Card(text) == Card.parse(out)


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "XS", "AX", "AS!", "10", "♠"])
def test_card_parse_refused(text: str) -> None:
    with pytest.raises(ParseError) as info:
        Card.parse(text)
    assert "AS or 10H" in str(info.value)


def test_card_values() -> None:
    assert [str(c) for c in CARDS[:3]] == ["2C", "3C", "4C"]
    assert str(CARDS[51]) == "AS"
    assert Card("AS").suit is Suit.SPADES and Card("AS").rank == 12
    assert Card("TD").symbol == "10♦"
    assert all(Card(str(c)) is c for c in CARDS)
    # Any spade beats any other card as an int; within a suit higher ranks are greater.
    assert min(c for c in CARDS if c.suit is Suit.SPADES) > max(
        c for c in CARDS if c.suit is not Suit.SPADES
    )
    with pytest.raises(ParseError):
        Card(52)


def test_cardset_pbn_forms() -> None:
    hand = CardSet.parse("AKQ.JT9.8765.432")
    assert len(hand) == 13 and str(hand) == "AKQ.JT9.8765.432"
    assert str(CardSet.parse("AK..QJ65432.T98")) == "AK..QJ65432.T98"
    assert CardSet.parse("AK.-.QJ65432.T98") == CardSet.parse("AK..QJ65432.T98")
    assert str(EMPTY) == "..." and len(DECK) == 52
    assert repr(hand) == "CardSet('AKQ.JT9.8765.432')"
    assert CardSet.parse("A10.-.-.-") == CardSet(["AS", "TS"])


@pytest.mark.parametrize("text", ["AKQ.JT9.8765", "AKX...", "AA...", "a.b.c.d.e"])
def test_cardset_parse_refused(text: str) -> None:
    with pytest.raises(ParseError):
        CardSet.parse(text)


@given(st.sets(st.integers(0, 51)), st.sets(st.integers(0, 51)))
def test_cardset_behaves_like_a_set(a: set[int], b: set[int]) -> None:
    x, y = CardSet(a), CardSet(b)
    assert set(x) == a and len(x) == len(a)
    assert set(x | y) == a | b
    assert set(x & y) == a & b
    assert set(x - y) == a - b
    assert set(x ^ y) == a ^ b
    assert set(~x) == set(range(52)) - a
    assert x.isdisjoint(y) == a.isdisjoint(b)
    assert x.issubset(y) == a.issubset(b)
    assert all((c in x) == (c in a) for c in range(52))
    assert CardSet.parse(str(x)) == x
    assert list(x) == sorted(a) and x.cards() == sorted(a, reverse=True)
    assert x.highest() == (max(a) if a else None)
    assert x.lowest() == (min(a) if a else None)
    for suit in Suit:
        assert set(x.suit(suit)) == {c for c in a if c // 13 == suit}


def test_pick_is_uniform_and_member() -> None:
    cs = CardSet.parse("AK.Q.J.2")
    rng = random.Random(4)
    counts = {c: 0 for c in cs}
    for _ in range(5000):
        counts[cs.pick(rng)] += 1
    assert set(counts) == set(cs)
    assert all(800 < n < 1200 for n in counts.values()), counts
    with pytest.raises(IndexError):
        EMPTY.pick(rng)
