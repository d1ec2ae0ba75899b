"""The configuration reference (``docs/configuration.md``) is written from the
commands' own options, so it cannot drift: the committed page must be the one
``espadas.cli.config_reference`` writes now, it names every option of ``espadas
serve``, and the command line's defaults are the server settings' own."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from espadas.cli.config_reference import main, reference, subcommand
from espadas.server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "configuration.md"
REGENERATE = "python -m espadas.cli.config_reference docs/configuration.md"


def test_the_committed_page_is_the_generated_one() -> None:
    if PAGE.read_text(encoding="utf-8") != reference():
        pytest.fail(f"docs/configuration.md differs from the options: run {REGENERATE}")


def test_every_option_of_serve_is_on_the_page() -> None:
    parser, _ = subcommand("serve")
    page = reference()
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    assert len(options) >= 30
    for option in options:
        if option != "--help":
            assert f"`{option}" in page, option


def test_the_command_line_defaults_are_the_settings_defaults() -> None:
    parser, _ = subcommand("serve")
    defaults = Settings()
    fields = {f.name for f in dataclasses.fields(Settings)}
    shared = [a for a in parser._actions if a.dest in fields and a.dest not in ("data", "db")]
    assert len(shared) >= 15
    for action in shared:
        assert action.default == getattr(defaults, action.dest), action.dest
    assert parser.get_default("notice_interval_minutes") * 60 == (
        defaults.notice_interval.total_seconds()
    )
    assert parser.get_default("turn_limit_hours") * 3600 == defaults.turn_limit.total_seconds()


def test_the_module_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "configuration.md"
    assert main([str(out)]) == 0
    assert out.read_text(encoding="utf-8") == reference()
    assert main([]) == 2
