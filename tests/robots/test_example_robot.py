"""The robot written in JavaScript in the documentation (``docs/examples/robot.js``)
plays whole deals through ``espadas match`` by the ``espadas-robot/1`` protocol:
every answer legal and in time, and it beats ``aleatorio``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "robot.js"


def test_the_javascript_robot_plays_without_a_fault() -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the documentation's JavaScript robot")
        pytest.skip("node is not installed")
    robot = f"cmd:{node} {EXAMPLE}"
    command = [sys.executable, "-m", "espadas.cli.main", "match", robot, "aleatorio"]
    done = subprocess.run(
        [*command, "--deals", "6", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["faults"] == {"A": 0, "B": 0}
    assert result["contracts"]["A"] == 12  # 6 deals played twice, both seats of side A
    assert result["margin"] > 0
