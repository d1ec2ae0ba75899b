"""The interface catalogs: both languages say the same things, and every text
the pages and scripts ask for exists."""

from __future__ import annotations

import re
import string

import pytest

from espadas.web.site import STATIC, TEMPLATES, catalog, page

SCRIPTS = sorted((STATIC / "js").glob("*.js"))


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys_and_parameters() -> None:
    es, en = catalog("es"), catalog("en")
    assert set(es) == set(en)
    for key in es:
        assert fields(es[key]) == fields(en[key]), key
        assert es[key].strip() and en[key].strip(), key


def test_every_key_asked_for_exists() -> None:
    texts = catalog("es")
    wanted: set[str] = set()
    for script in SCRIPTS:
        wanted |= set(re.findall(r'\bt\("([a-z0-9_.]+)"', script.read_text("utf-8")))
    for template in TEMPLATES.glob("*.html"):
        wanted |= set(re.findall(r"\{\{t:([a-z0-9_.]+)\}\}", template.read_text("utf-8")))
    assert wanted, "no keys found: the pattern is wrong"
    assert sorted(wanted - set(texts)) == []


@pytest.mark.parametrize("name", ["home", "table", "replay", "help"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_pages_fill_every_placeholder(name: str, lang: str) -> None:
    html = page(name, lang, "abcdefgh12")
    assert "{{" not in html and "}}" not in html
    assert f'<html lang="{lang}">' in html
    assert html.count("<h1") == 1


def test_every_reason_level_preset_and_suit_has_a_text() -> None:
    from espadas.engine import PRESETS
    from espadas.engine.game import REASONS
    from espadas.robots.registry import LEVELS

    texts = catalog("en")
    keys = [f"reason.{r}" for r in REASONS] + [f"robot.{level}" for level in LEVELS]
    keys += [f"preset.{p}" for p in PRESETS] + [f"preset.{p}.about" for p in PRESETS]
    keys += [f"suit.{s}" for s in "SHDC"] + [f"rank.{r}" for r in "AKQJT98765432"]
    assert [k for k in keys if k not in texts] == []
