"""``espadas robot LEVEL --explain [--lang es|en]``: each answer carries an optional
``"explain"`` key (candidates encoded as answers are, their points, the reason in the
chosen language); without ``--explain`` the answers are the bare protocol answers,
and the actions are the same either way."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from espadas.engine import Bid, Game, NextHand, Rules
from espadas.i18n import reason_text
from espadas.robots.explain import REASONS
from espadas.robots.protocol import parse_response, request_for

ROOT = Path(__file__).resolve().parents[2]
ROBOT_CMD = [sys.executable, "-m", "espadas.cli.main", "robot"]
BARE = re.compile(r'\{"(bid|card)": ("[0-9A-Z_a-z]+"|[0-9]+)\}')


def requests(preset: str, seed: int, count: int, **options: Any) -> list[dict[str, Any]]:
    """``count`` requests from one game, its actions taken by a simple rule."""
    game = Game.new(Rules.from_preset(preset, **options), seed=seed)
    out: list[dict[str, Any]] = []
    while len(out) < count and not game.over:
        if game.phase == "hand_end":
            game.apply(NextHand())
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        out.append(request_for(view))
        bids = [a for a in game.legal_actions() if isinstance(a, Bid)]
        numbers = [b for b in bids if isinstance(b.value, int) and b.value >= 2]
        game.apply(numbers[0] if numbers else game.legal_actions()[0])
    return out


def run(level: str, lines: list[str], *flags: str) -> list[str]:
    proc = subprocess.run(
        [*ROBOT_CMD, level, "--seed", "5", "--budget-ms", "10", *flags],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.splitlines()


@pytest.mark.parametrize("level", ["aleatorio", "normal", "experto"])
def test_explain_key_in_both_languages(level: str) -> None:
    reqs = requests("estandar", 2, 12) + requests("cien", 3, 6) + requests("sala", 4, 8, players=5)
    lines = [json.dumps(r) for r in reqs]
    plain = run(level, lines)
    english = run(level, lines, "--explain", "--lang", "en")
    spanish = run(level, lines, "--explain", "--lang", "es")
    assert len(plain) == len(english) == len(spanish) == len(reqs)
    for req, bare, en_line, es_line in zip(reqs, plain, english, spanish, strict=True):
        assert BARE.fullmatch(bare), bare  # unchanged: the protocol's answer, nothing more
        en, es = json.loads(en_line), json.loads(es_line)
        explain = en.pop("explain")
        es_explain = es.pop("explain")
        assert en == es == json.loads(bare), "the same action with or without --explain"
        parse_response(en, req)
        assert explain["reason_key"] == es_explain["reason_key"] in REASONS
        assert explain["candidates"] == es_explain["candidates"]
        assert explain["reason"] != es_explain["reason"]
        for cand in explain["candidates"]:
            points = cand.pop("points")
            assert points is None or isinstance(points, (int, float))
            parse_response(cand, req)  # each candidate is a legal answer
        assert dict(en) in [{k: v for k, v in c.items()} for c in explain["candidates"]]
        if level == "aleatorio":
            assert explain["reason_key"] == "random"
            assert len(explain["candidates"]) == len(req["legal"])
        if level == "experto" and req["hand"] and len(req["legal"]) > 1:
            assert "habit_key" in explain or explain["reason_key"] == "equivalent_cards"
        if level == "normal":
            assert "habit_key" not in explain


def test_reason_is_the_catalog_text() -> None:
    game = Game.new(Rules.from_preset("estandar"), seed=2)
    req = request_for(game.view_for(1))
    (line,) = run("normal", [json.dumps(req)], "--explain", "--lang", "en")
    explain = json.loads(line)["explain"]
    assert explain["reason_key"].startswith("bid_")
    tricks = re.search(r"at (\d+(\.\d)?) tricks", explain["reason"])
    assert tricks, explain["reason"]
    params = {"tricks": float(tricks.group(1))}
    assert explain["reason"] == reason_text(explain["reason_key"], "en", params)
    points = [c["points"] for c in explain["candidates"]]
    assert all(isinstance(p, float) for p in points) and points == sorted(points, reverse=True)


def test_face_down_hand_explains_the_guess() -> None:
    blind = Game.new(Rules.from_preset("cien"), seed=3)
    req = request_for(blind.view_for(2))
    (line,) = run("normal", [json.dumps(req)], "--explain", "--lang", "es")
    answer = json.loads(line)
    assert answer["explain"]["reason_key"] == "blind_guess"
    assert answer["explain"]["candidates"] == [{"bid": answer["bid"], "points": None}]
    assert "boca abajo" in answer["explain"]["reason"]


def test_lang_is_checked() -> None:
    proc = subprocess.run(
        [*ROBOT_CMD, "normal", "--explain", "--lang", "fr"],
        input="",
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )
    assert proc.returncode == 2 and "--lang" in proc.stderr
