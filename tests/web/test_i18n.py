"""Translations: every error code the engine raises has a Spanish and an English text.

The codes are found by reading the engine's source, so a new code without a
translation fails here.
"""

from __future__ import annotations

import ast
import json
import re
import string
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

import espadas.engine
from espadas.engine import (
    Card,
    Game,
    IllegalAccusation,
    IllegalBid,
    IllegalPlay,
    InvalidRules,
    ParseError,
    RuleError,
    Rules,
)
from espadas.engine.errors import RecordError
from espadas.engine.record import rebuild
from espadas.i18n import (
    CATALOG,
    ERRORS,
    LANGS,
    SECTIONS,
    TABLE_ERRORS,
    UI,
    WEB,
    bid_name,
    error_text,
    has_text,
    seat_name,
    translate,
)

ENGINE = Path(espadas.engine.__file__).parent
SOURCES = Path(espadas.__file__).parent
ERROR_CLASSES = {
    "RuleError",
    "WrongPhase",
    "NotYourTurn",
    "IllegalBid",
    "IllegalPlay",
    "IllegalAccusation",
    "GameOver",
    "InvalidRules",
    "ParseError",
    "InvalidDeal",
}
SAMPLE: dict[str, Any] = {
    "card": "QH",
    "suit": "H",
    "seat": 1,
    "by": 0,
    "against": 2,
    "value": 3,
    "max": 13,
    "phase": "playing",
    "text": "zz",
    "rank": "Z",
    "option": "target",
    "preset": "nope",
    "side": "xx",
    "play": 5,
    "hands": 3,
}


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def engine_codes() -> dict[str, list[set[str]]]:
    """Every code raised in the engine, with the parameter names of each raise."""
    found: dict[str, list[set[str]]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _call_name(node) in ERROR_CLASSES and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    keys = {k.arg for k in node.keywords if k.arg is not None}
                    found.setdefault(first.value, []).append(keys)
            # codes returned as ("code", "message") and raised elsewhere (bid problems)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
                elts = node.value.elts
                if len(elts) == 2 and _is_text(elts[1]):
                    first = elts[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        found.setdefault(first.value, []).append({"value"})
    return found


CODES = engine_codes()


def test_the_scan_finds_the_engine_codes() -> None:
    for code in ("must_follow", "not_in_hand", "bid_range", "no_hell", "suicide_nil"):
        assert code in CODES
    for code in ("against_partner", "renege_prevented", "option_value", "card_syntax"):
        assert code in CODES
    assert len(CODES) >= 50


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_code_has_spanish_and_english(code: str) -> None:
    assert has_text(code, "es"), f"no Spanish text for {code!r}"
    assert has_text(code, "en"), f"no English text for {code!r}"


@pytest.mark.parametrize("code", sorted(CODES))
def test_texts_take_the_parameters_the_engine_gives(code: str) -> None:
    for keys in CODES[code]:
        params = {k: SAMPLE.get(k, "x") for k in keys}
        es = translate(code, "es", **params)
        en = translate(code, "en", **params)
        assert es != en, code
        assert "{" not in es.replace('{"', "") and "{" not in en.replace('{"', "")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _variants(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else value


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_both_languages_use_the_same_parameters(key: str) -> None:
    entry = CATALOG[key]
    assert set(entry) == {"es", "en"}
    es = [_fields(t) for t in _variants(entry["es"])]
    en = [_fields(t) for t in _variants(entry["en"])]
    assert es == en


def test_error_and_interface_keys_do_not_clash() -> None:
    assert not set(ERRORS) & set(UI)
    assert not set(ERRORS) & set(TABLE_ERRORS)
    assert not set(UI) & set(TABLE_ERRORS)
    assert not set(WEB) & (set(ERRORS) | set(UI) | set(TABLE_ERRORS))
    assert all(k.startswith(("ui.", "api.", "mail.", "page.")) for k in UI)
    assert len(CATALOG) == len(ERRORS) + len(UI) + len(TABLE_ERRORS) + len(WEB)


def test_the_catalog_files_have_the_same_sections_and_keys() -> None:
    data = {
        lang: json.loads(files("espadas.i18n").joinpath(f"{lang}.json").read_text("utf-8"))
        for lang in LANGS
    }
    for lang in LANGS:
        assert list(data[lang]) == list(SECTIONS), lang
    for section in SECTIONS:
        assert list(data["es"][section]) == list(data["en"][section]), section
        for key, text in data["es"][section].items():
            other = data["en"][section][key]
            assert type(text) is type(other), key
            if isinstance(text, list):
                assert len(text) == len(other), key


def _python_keys() -> set[str]:
    """Catalog keys written out in the Python sources, outside the catalog itself."""
    pattern = re.compile(r"(ui|api|mail|page)\.[a-z0-9_.]+")
    found: set[str] = set()
    for path in sorted(SOURCES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and pattern.fullmatch(text) and not text.endswith("."):
                found.add(text)
    return found


def test_every_key_the_python_code_uses_exists() -> None:
    keys = _python_keys()
    assert {"ui.you", "mail.push.turn", "page.back_home", "ui.verify_ok"} <= keys
    assert sorted(keys - set(CATALOG)) == []


def test_real_errors_from_the_engine() -> None:
    game = Game.new(Rules.from_preset("pagat"), seed=7)
    with pytest.raises(IllegalBid) as bid:
        game.bid(99)
    assert error_text(bid.value) == "Una apuesta es Nil (0) o de 1 a 13, no 99."
    assert error_text(bid.value, "en") == "A bid is Nil (0) or 1 to 13, not 99."
    while game.phase == "bidding":
        game.bid(3)
    hand = game.hand.held[game.to_act or 0]
    missing = next(c for c in range(52) if not hand >> c & 1)
    with pytest.raises(IllegalPlay) as play:
        game.play(missing)
    card = Card(missing).symbol
    assert error_text(play.value) == f"{card} no está en tu mano."
    assert error_text(play.value, "en") == f"{card} is not in your hand."


def test_accusation_errors() -> None:
    game = Game.new(Rules(), seed=1)
    with pytest.raises(IllegalAccusation) as err:
        game.accuse(0, 2)
    assert error_text(err.value) == "N y S son pareja: solo se puede acusar a un rival."
    assert error_text(err.value, "en").startswith("N and S are partners")
    pagat = Game.new(Rules.from_preset("pagat"), seed=1)
    with pytest.raises(IllegalAccusation) as prevented:
        pagat.accuse(0, 1)
    assert "renuncio está impedido" in error_text(prevented.value)


def test_rules_and_parse_errors() -> None:
    with pytest.raises(InvalidRules) as bad:
        Rules.from_preset("estandar", renege="maybe")
    assert error_text(bad.value) == "renege debe ser uno de allowed, prevented, no maybe."
    assert error_text(bad.value, "en") == "renege must be one of allowed, prevented, not maybe."
    with pytest.raises(ParseError) as parse:
        Card.parse("XX")
    assert error_text(parse.value).startswith("«XX» no es una carta")


def test_must_follow_names_the_suit() -> None:
    err = IllegalPlay("must_follow", "you must follow diamonds", card="AS", suit="D")
    assert error_text(err) == "Debes asistir a diamantes: no puedes jugar A♠."
    assert error_text(err, "en") == "You must follow diamonds: you may not play A♠."


def test_unknown_code_falls_back_to_the_english_message() -> None:
    assert error_text(RuleError("brand_new_code", "something new")) == "something new"
    # a known code raised without the parameters its text needs
    assert error_text(IllegalBid("bid_range", "a bid is 0..13")) == "a bid is 0..13"
    # a known code with a plainer variant for fewer parameters
    assert (
        error_text(RuleError("card_type", '"XX" is not a card')) == "Eso no es una carta como QH."
    )
    assert translate("no.such.key", "es") == "no.such.key"
    assert error_text(RuleError("ui.you", "an interface key is no error code")).startswith("an")


def test_record_errors_keep_their_english_details() -> None:
    with pytest.raises(RecordError) as err:
        rebuild({"format": "espadas-record/1", "rules": {}, "players": ["a"], "hands": []})
    assert err.value.code == "players"  # also an InvalidRules code, with another meaning
    assert error_text(err.value) == "players must be a list of 4 names"


def test_names() -> None:
    assert [seat_name(s, 4, "es") for s in range(4)] == ["N", "E", "S", "O"]
    assert [seat_name(s, 4, "en") for s in range(4)] == ["N", "E", "S", "W"]
    assert seat_name(3, 5, "es") == "asiento 3" and seat_name(3, 5, "en") == "seat 3"
    assert bid_name(0, "es") == "Nil" and bid_name("blind_nil", "es") == "Nil a ciegas"
    assert bid_name("blind_nil", "en") == "Blind nil" and bid_name(4, "en") == "4"
    assert translate("ui.suit.S", "es") == "espadas"


def test_spanish_is_the_default_and_unknown_languages_fall_back() -> None:
    assert translate("ui.you") == "tú"
    assert translate("ui.you", "fr") == "tú"
