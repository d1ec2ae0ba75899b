"""Texts in Spanish (the default) and English: engine errors and interface strings.

The texts are data: one catalog per language, ``es.json`` and ``en.json`` beside
this module, with the same keys in both. Each file has four sections:

- ``errors``: the engine's errors, by code (a key ``code.phase`` is a variant for
  that phase);
- ``table_errors``: refusals of the tables layer and the server, by code;
- ``interface``: the terminal game, ``espadas verify``, API refusals (``api.``),
  e-mail and push notices (``mail.``) and the server's short pages (``page.``);
- ``web``: the web pages (which also use ``interface`` texts such as
  ``ui.suit.S``; the site serves both sections to them).

A text is a string, or a list of variants: the first whose parameters are all
given wins (an error raised with fewer parameters gets a plainer text). The
server fills them with :meth:`str.format`; the pages fill ``{name}`` only.

Every error the engine raises carries a stable ``code`` and ``params``
(:mod:`espadas.engine.errors`); :func:`error_text` says it in the player's
language and falls back to the error's English message for a code it does not
know. :func:`translate` gives any text of the catalog.

>>> from espadas.engine import IllegalPlay
>>> err = IllegalPlay("must_follow", "you must follow hearts: ...", card="AS", suit="H")
>>> error_text(err)
'Debes asistir a corazones: no puedes jugar A♠.'
>>> error_text(err, "en")
'You must follow hearts: you may not play A♠.'
>>> translate("ui.bid_nil", "es"), seat_name(3, 4, "es"), seat_name(3, 4, "en")
('Nil', 'O', 'W')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.resources import files
from typing import Any

from espadas.engine.card import Card
from espadas.engine.errors import EspadasError, InvalidDeal, InvalidRules, ParseError, RuleError
from espadas.engine.rules import CHOICES, OPTIONS, PRESETS

LANGS = ("es", "en")
DEFAULT_LANG = "es"
SECTIONS = ("errors", "table_errors", "interface", "web")
"""The sections of each language's catalog file, in order."""

Template = str | tuple[str, ...]
"""One text per language; a tuple holds variants, the first whose parameters are
all given wins (an error raised with fewer parameters gets a plainer text)."""

TRANSLATED = (RuleError, InvalidRules, ParseError, InvalidDeal)
"""Errors whose codes the catalog says in every language. Record errors
(``RecordError``, ``ReplayError``) reuse some of these codes for other things and
carry their details only in the English message, which is what they show."""


def _load(lang: str) -> dict[str, dict[str, Template]]:
    """The catalog file of ``lang``, by section; variants become tuples."""
    raw = json.loads(files(__name__).joinpath(f"{lang}.json").read_text("utf-8"))
    if not isinstance(raw, dict) or set(raw) != set(SECTIONS):
        raise ValueError(f"{lang}.json must have the sections {', '.join(SECTIONS)}")
    out: dict[str, dict[str, Template]] = {}
    for section in SECTIONS:
        texts: dict[str, Template] = {}
        for key, value in raw[section].items():
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                texts[key] = tuple(value)
            elif isinstance(value, str):
                texts[key] = value
            else:
                raise ValueError(f"{lang}.json: {key} must be a text or a list of texts")
        out[section] = texts
    return out


def _by_key(section: str, loaded: dict[str, dict[str, dict[str, Template]]]) -> dict[str, Any]:
    """``{key: {lang: text}}`` for one section, in the order of the default language."""
    keys = dict.fromkeys(k for lang in LANGS for k in loaded[lang][section])
    return {
        key: {lang: loaded[lang][section][key] for lang in LANGS if key in loaded[lang][section]}
        for key in keys
    }


_LOADED = {lang: _load(lang) for lang in LANGS}

ERRORS: dict[str, dict[str, Template]] = _by_key("errors", _LOADED)
"""Engine errors, by code. A key ``code.phase`` is a variant for that phase."""
TABLE_ERRORS: dict[str, dict[str, Template]] = _by_key("table_errors", _LOADED)
"""Table and API errors (the tables layer and the server), by code."""
UI: dict[str, dict[str, Template]] = _by_key("interface", _LOADED)
"""Interface strings of the terminal, the API, notices and the server's pages."""
WEB: dict[str, dict[str, Template]] = _by_key("web", _LOADED)
"""Interface strings of the web pages."""
CATALOG: dict[str, dict[str, Template]] = {**ERRORS, **UI, **TABLE_ERRORS, **WEB}

SEAT_LETTERS: dict[str, tuple[str, ...]] = {
    lang: tuple(str(WEB["seat.letters"][lang]).split(",")) for lang in LANGS
}
"""``N, E, S, O`` (``W`` in English): the seats' letters with 4 players."""


def seat_name(seat: int, players: int = 4, lang: str = DEFAULT_LANG) -> str:
    """``N``/``E``/``S``/``O`` (``W`` in English) with 4 players, else ``asiento 3``."""
    if players == 4 and 0 <= seat < 4:
        return SEAT_LETTERS[_lang(lang)][seat]
    return _fill(_template("ui.seat", lang) or "{seat}", {"seat": seat})


def suit_name(suit_char: str, lang: str = DEFAULT_LANG) -> str:
    """``espadas``, ``corazones``, … for ``S``, ``H``, ``D``, ``C``."""
    return translate(f"ui.suit.{suit_char.upper()}", lang)


def bid_name(value: object, lang: str = DEFAULT_LANG) -> str:
    """``Nil``, ``Nil a ciegas``, a number, or a dash for no bid yet."""
    if value is None:
        return translate("ui.no_bid", lang)
    if value == "blind_nil":
        return translate("ui.bid_blind", lang)
    if value == 0 and not isinstance(value, bool):
        return translate("ui.bid_nil", lang)
    return str(value)


def reason_text(
    reason: str,
    lang: str = DEFAULT_LANG,
    params: Mapping[str, Any] | None = None,
    habit: str | None = None,
    hint: bool = False,
) -> str:
    """A robot's reason for a decision, in words (``ui.explain.<reason>``; see
    :mod:`espadas.robots.explain`), followed by the habit of ``normal`` that
    ``experto`` kept (``search_keeps_habit``) or overruled (any other reason).
    Decimals are written as the language writes them. ``hint``: said to the
    player whose move it is, as advice (``ui.hint.<reason>``: *tú*, *you*).

    >>> reason_text("bid_count", "es", {"tricks": 3.5})
    'Cuenta su mano en 3,5 bazas y apuesta algo por debajo.'
    >>> reason_text("bid_count", "es", {"tricks": 3.5}, hint=True)
    'Tu mano vale unas 3,5 bazas: apuesta algo por debajo.'
    >>> reason_text("search_best", "en", {}, "second_hand_low")  # doctest: +ELLIPSIS
    'Its search ... Habit of normal overruled: Second hand low: ...'
    """
    shown = {k: _number(v, lang) for k, v in (params or {}).items()}
    text = translate(f"ui.{'hint' if hint else 'explain'}.{reason}", lang, **shown)
    if habit is None:
        return text
    said = translate(f"ui.explain.{habit}", lang, **shown)
    key = "ui.explain_habit" if reason == "search_keeps_habit" else "ui.explain_overruled"
    return f"{text} {translate(key, lang, habit=said)}"


def _number(value: Any, lang: str) -> Any:
    """A float as ``3.5`` (``3,5`` in Spanish), ``15`` rather than ``15.0``."""
    if not isinstance(value, float):
        return value
    text = f"{value:g}"
    return text.replace(".", ",") if _lang(lang) == "es" else text


def translate(code: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    """The text for ``code`` in ``lang`` (English where the language lacks it).
    An unknown code gives the code itself. Raises ``KeyError`` when a parameter
    the text needs is missing."""
    template = _template(_variant(code, params), lang)
    if template is None:
        return code
    return _fill(template, _derived(params, lang))


def error_text(err: EspadasError, lang: str = DEFAULT_LANG, *, players: int = 4) -> str:
    """What ``err`` means, in ``lang``; its English message for a code without a
    text (or raised with parameters the text cannot use)."""
    known = isinstance(err, TRANSLATED) and err.code in ERRORS
    if not known and err.code not in TABLE_ERRORS:
        return err.message
    try:
        return translate(err.code, lang, players=players, **err.params)
    except (KeyError, IndexError, ValueError):
        return err.message


def has_text(code: str, lang: str) -> bool:
    """Whether the catalog holds ``code`` in ``lang`` itself (no fallback)."""
    return lang in CATALOG.get(code, {})


def _template(code: str, lang: str) -> Template | None:
    entry = CATALOG.get(code, {})
    return entry.get(_lang(lang)) or entry.get("en")


def _lang(lang: str) -> str:
    return lang if lang in LANGS else DEFAULT_LANG


def _variant(code: str, params: dict[str, Any]) -> str:
    phase = params.get("phase")
    if isinstance(phase, str) and f"{code}.{phase}" in CATALOG:
        return f"{code}.{phase}"
    return code


def _fill(template: Template, params: dict[str, Any]) -> str:
    variants = (template,) if isinstance(template, str) else template
    missing: KeyError | None = None
    for text in variants:
        try:
            return text.format_map(params)
        except KeyError as exc:
            missing = exc
    raise missing or KeyError(variants)


def _derived(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """The parameters plus the names a text may want: seats, suits, cards, bids."""
    out = dict(params)
    players = params.get("players", 4)
    for key in ("seat", "by", "against"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            out[f"{key}_name"] = seat_name(value, players, lang)
    suit = params.get("suit")
    if isinstance(suit, str) and suit.upper() in "SHDC" and len(suit) == 1:
        out["suit_name"] = suit_name(suit, lang)
    card = params.get("card")
    if isinstance(card, str):
        out["card"] = _card_symbol(card)
    if "value" in params:
        out["value_name"] = bid_name(params["value"], lang)
        out["value_text"] = _show(params["value"])
    if isinstance(params.get("option"), str):
        out["choices"] = _choices(params["option"], lang)
    out.setdefault("presets", ", ".join(PRESETS))
    out.setdefault("options", ", ".join(OPTIONS))
    return out


def _card_symbol(text: str) -> str:
    try:
        return Card.parse(text).symbol
    except ParseError:
        return text


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _choices(option: str, lang: str) -> str:
    allowed = CHOICES.get(option)
    if allowed is None:
        return translate("ui.choices_int_null" if option == "mercy" else "ui.choices_int", lang)
    items = ", ".join(_show(a) for a in allowed)
    return translate("ui.choices_one_of", lang, items=items)
