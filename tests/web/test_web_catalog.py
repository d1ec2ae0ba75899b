"""The texts the pages get from the one catalog (:mod:`espadas.i18n`): both
languages say the same things, and every text the pages and scripts ask for exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import httpx
import pytest

from espadas.server.settings import Settings
from espadas.web.site import STATIC, TEMPLATES, catalog, page
from server_helpers import running_server

SCRIPTS = sorted((STATIC / "js").rglob("*.js"))


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
        text = script.read_text("utf-8")
        wanted |= set(re.findall(r'\bt\("([a-z0-9_.]+)"', text))
        # keys chosen before t() is called: t(a ? "ui.turn_bid" : "ui.turn_play")
        prefixes = {key.split(".")[0] for key in texts}
        quoted = re.findall(r'"([a-z_]+\.[a-z0-9_.]+)"', text)
        wanted |= {key for key in quoted if key.split(".")[0] in prefixes}
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
    keys += [f"ui.suit.{s}" for s in "SHDC"] + [f"rank.{r}" for r in "AKQJT98765432"]
    assert [k for k in keys if k not in texts] == []


def test_the_site_serves_the_page_texts(tmp_path: Path) -> None:
    with running_server(Settings(data=tmp_path)) as base, httpx.Client(base_url=base) as http:
        for lang in ("es", "en"):
            answer = http.get(f"/i18n/{lang}.json")
            assert answer.status_code == 200
            assert answer.headers["content-type"].startswith("application/json")
            assert answer.json() == catalog(lang)
            etag = answer.headers["etag"]
            assert (
                http.get(f"/i18n/{lang}.json", headers={"if-none-match": etag}).status_code == 304
            )
        assert http.get("/i18n/fr.json").status_code == 404
