"""``espadas serve``'s daily-challenge options: the settings they give, and a bad
start time or count of boards refused (exit 2) before anything starts."""

from __future__ import annotations

import argparse

import pytest

from espadas.cli import challenge_options
from espadas.cli.main import main


def _parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    challenge_options.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_defaults_are_the_settings_defaults() -> None:
    from espadas.server.settings import Settings

    given = challenge_options.challenge_settings(_parsed())
    defaults = Settings()
    assert given == {name: getattr(defaults, name) for name in given}


def test_options_reach_the_settings() -> None:
    given = challenge_options.challenge_settings(
        _parsed(
            "--challenge-start",
            "23:59",
            "--challenge-boards",
            "12",
            "--challenge-preset",
            "pagat",
            "--challenge-partner",
            "normal",
            "--challenge-opponents",
            "aleatorio",
        )
    )
    assert given == {
        "challenge_start": "23:59",
        "challenge_boards": 12,
        "challenge_preset": "pagat",
        "challenge_partner": "normal",
        "challenge_opponents": "aleatorio",
    }


@pytest.mark.parametrize(
    "argv",
    [["--challenge-start", "24:00"], ["--challenge-start", "7"], ["--challenge-boards", "101"]],
)
def test_serve_refuses_bad_values(
    argv: list[str], tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--data", str(tmp_path), *argv]) == 2
    assert "--challenge-" in capsys.readouterr().err
