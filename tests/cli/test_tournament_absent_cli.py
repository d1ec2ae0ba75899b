"""``espadas event create --absent``: the event's choice for an absent entrant,
stored on the store itself and shown by the API (a robot unless told)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from espadas.cli.main import main
from server_helpers import Client, running_server, settings_for


def test_the_absent_option_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path)
    settings = settings_for(tmp_path, robot_workers=0, rate=10_000, burst=10_000, notices=False)
    with running_server(settings) as base:
        org = Client(base)
        try:
            org.sign_in("Olga")
            shown = {}
            for extra in ([], ["--absent", "claim"], ["--absent", "robot"]):
                argv = ["event", "create", "Copa", "--organiser", "Olga", "--boards", "1"]
                assert main([*argv, *extra, "--json", "--data", data]) == 0
                made = json.loads(capsys.readouterr().out)
                shown[tuple(extra)] = org.ok("GET", f"/api/events/{made['id']}")["absent"]
            assert list(shown.values()) == ["robot", "claim", "robot"]
            with pytest.raises(SystemExit):  # argparse refuses another value
                main(["event", "create", "x", "--organiser", "Olga", "--absent", "forfeit"])
            assert "invalid choice" in capsys.readouterr().err
        finally:
            org.close()
