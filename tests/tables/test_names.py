"""The display-name rule (espadas.tables.names) over random Unicode text: what it
accepts never holds a refused character, is normalised and stays accepted; each
refused class is refused wherever it stands in an otherwise good name."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from espadas.tables.names import (
    BLANKS,
    JOINERS,
    MARKS_MAX,
    NAME_MAX,
    BadName,
    display_name,
    imitates_robot,
    shown_name,
)
from profile_helpers import examples

BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)]
ZERO_WIDTH = ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u180e", "\U000e0041"]
CONTROLS = [chr(c) for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))]
CONTROLS += ["\u2028", "\u2029", "\ue000", "\U000f0000", "\ud800"]
SPACES = [" ", "\u00a0", "\u2003", "\u3000", "\u202f"]
MARKS = ["\u0301", "\u0308", "\u20e3", "\ufe0f"]

good_names = (
    st.text(
        alphabet=st.characters(categories=("Lu", "Ll", "Lo", "Nd", "Po", "So")),
        min_size=1,
        max_size=30,
    )
    .map(lambda t: unicodedata.normalize("NFC", t))
    .filter(lambda t: not imitates_robot(t) and not set(t) & BLANKS)
)


def _accepts(text: str) -> str | None:
    try:
        return display_name(text)
    except BadName:
        return None


@settings(max_examples=examples(600))
@given(st.text(max_size=60))
@example("Evil\r\nBcc: x@example.org")
@example("\u202eanA")
@example("\u200d")
@example("robot:normal")
def test_accepted_names_hold_no_refused_class(text: str) -> None:
    name = _accepts(text)
    if name is None:
        return
    assert name == unicodedata.normalize("NFC", name) == name.strip()
    assert 1 <= len(name) <= NAME_MAX
    assert "  " not in name
    for i, char in enumerate(name):
        category = unicodedata.category(char)
        assert category not in ("Cc", "Zl", "Zp", "Cs", "Co", "Cn"), repr(char)
        assert char not in BLANKS
        assert category != "Zs" or char == " "
        if category == "Cf":
            assert char in JOINERS and 0 < i < len(name) - 1
    assert any(unicodedata.category(c)[0] in "LNPS" for c in name)
    assert not imitates_robot(name)
    assert display_name(name) == name  # normalised names stay accepted as they are
    assert shown_name(name) == name


def _refused(text: str) -> str:
    with pytest.raises(BadName) as err:
        display_name(text)
    assert err.value.status == 422
    return err.value.code


@given(good_names, st.sampled_from(CONTROLS), st.integers(0, 30))
def test_control_characters_are_refused(name: str, char: str, at: int) -> None:
    assert _refused(name[:at] + char + name[at:]) == "name_control"


@given(good_names, st.sampled_from(BIDI + ZERO_WIDTH + sorted(BLANKS)), st.integers(0, 30))
def test_bidi_zero_width_and_fillers_are_refused(name: str, char: str, at: int) -> None:
    assert _refused(name[:at] + char + name[at:]) == "name_format"


@given(good_names, st.integers(0, 30))
def test_a_joiner_at_an_edge_or_beside_a_space_is_refused(name: str, at: int) -> None:
    for text in ("\u200d" + name, name + "\u200c", name[:at] + " \u200d " + name[at:]):
        assert _refused(text) == "name_format"


@given(st.text(alphabet=st.sampled_from(SPACES + MARKS + sorted(JOINERS)), max_size=20))
def test_names_of_invisible_characters_only_are_refused(text: str) -> None:
    assert _refused(text) in ("name_empty", "name_format")


@given(good_names, st.integers(MARKS_MAX + 1, 10))
def test_a_pile_of_marks_is_refused(name: str, count: int) -> None:
    assume(len(name) + count <= NAME_MAX)
    assert _refused(name + "\u0301" * count) == "name_marks"


@given(
    st.sampled_from(["robot", "ROBOT", "Robot", "rObOt", "Rоbot", "ｒｏｂｏｔ", "R0B0T", "Róbot"]),
    st.sampled_from([":", " ", "  ", "_", "-", ": ", "\u00a0", ""]),
    st.sampled_from(["normal", "Normal", "EXPERTO", "experto", "aleatorio", "random", "expert"]),
)
def test_names_that_imitate_robots_are_refused(robot: str, gap: str, level: str) -> None:
    assert _refused(robot + gap + level) == "name_robot"
    assert _refused(robot) == "name_robot"


@given(good_names, st.sampled_from(SPACES), st.sampled_from(SPACES))
def test_spaces_are_trimmed_and_runs_made_one(name: str, left: str, right: str) -> None:
    assume(len(name) + 4 <= NAME_MAX)
    middle = name[:1] + right + left + name[1:] if len(name) > 1 else name
    assert display_name(left + middle + right) == (
        name[:1] + " " + name[1:] if len(name) > 1 else name
    )


def test_names_people_have_are_accepted() -> None:
    for name in ("Ana", "José María", "Zoë", "O'Brien", "李小龍", "علي", "Nguyễn Thị Minh"):
        assert display_name(name) == unicodedata.normalize("NFC", name)
    for name in ("Robotina", "El robot", "Rob Otto", "👨\u200d👩\u200d👧", "🏳️\u200d🌈"):
        assert display_name(name) == name


@given(st.text(max_size=80))
def test_shown_name_is_always_safe(text: str) -> None:
    shown = shown_name(text)
    assert shown
    assert not any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cf") for c in shown) or all(
        c in JOINERS for c in shown if unicodedata.category(c) == "Cf"
    )
    assert "\r" not in shown and "\n" not in shown
