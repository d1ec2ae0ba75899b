"""The duplicate arena (``espadas match``): fairness of the seatings, determinism,
deal scoring, individual rotation, faults, the omniscient view, the command line."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from espadas.cli.main import main
from espadas.engine import (
    BLIND_NIL,
    Action,
    Bid,
    BidValue,
    FullView,
    Look,
    Play,
    PlayerView,
    Rules,
    deal_scores,
)
from espadas.robots import RandomRobot, Robot, registry
from espadas.robots.arena import (
    MatchSpec,
    deal_for,
    derive_seed,
    run_match,
    seatings,
)
from espadas.robots.chart import line_chart
from espadas.robots.stats import confidence_interval, percentile, t_quantile

JSON_KEYS = {
    "deals",
    "margin",
    "ci95",
    "made_pct",
    "nil_pct",
    "nil_bids",
    "bags_per_hand",
    "decision_ms",
    "faults",
    "robots",
    "preset",
    "seed",
}


# test robots -----------------------------------------------------------------------
class FirstRobot:
    """Deterministic whatever its seed: bids the legal bid closest to 3 and plays its
    first proper card."""

    def act(self, view: PlayerView) -> Action:
        if view.phase == "playing":
            return Play(next(iter(view.proper_plays)))
        bids: list[int] = []
        for a in view.legal:
            value = a.value if isinstance(a, Bid) else None
            if isinstance(value, int):
                bids.append(value)
        best: int = min(bids, key=lambda b: (abs(b - 3), b))
        return Bid(best)


class IllegalRobot:
    """Always asks for something the table refuses; says it made 2 faults of its own."""

    faults = 2

    def __init__(self) -> None:
        self.closed = False

    def act(self, view: PlayerView) -> Action:
        return Bid(99) if view.phase == "bidding" else Bid(3)

    def close(self) -> None:
        self.closed = True


class RaisingRobot:
    def act(self, view: PlayerView) -> Action:
        raise RuntimeError("this robot is broken")


class RenegeRobot:
    """Reneges whenever the table would accept it (renege-allowed games)."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomRobot(random.Random(seed))

    def act(self, view: PlayerView) -> Action:
        for action in view.legal:
            if isinstance(action, Play) and action.card not in view.proper_plays:
                return action
        return self.inner.act(view)


class LookTwiceRobot:
    """Looks, then tries to look again (a fault), else plays at random."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomRobot(random.Random(seed))
        self.looks = 0

    def act(self, view: PlayerView) -> Action:
        if view.phase == "bidding" and self.looks < 2:
            self.looks += 1
            return Look(view.seat)
        return self.inner.act(view)


class SpyRobot:
    """Sees everything, and records what it was given."""

    sees_all = True
    seen: list[PlayerView] = []  # noqa: RUF012 - shared on purpose, reset by the test

    def __init__(self, seed: int) -> None:
        self.inner = RandomRobot(random.Random(seed))

    def act(self, view: PlayerView) -> Action:
        SpyRobot.seen.append(view)
        return self.inner.act(view)


class WatchedRobot(RandomRobot):
    seen: list[PlayerView] = []  # noqa: RUF012

    def act(self, view: PlayerView) -> Action:
        WatchedRobot.seen.append(view)
        return super().act(view)


MADE: list[Any] = []
make_robot = registry.make_robot


def factory(name: str, seed: int, *, arena: bool = False, budget_ms: float | None = None) -> Robot:
    """``make_robot`` plus the test robots above."""
    robot: Robot
    if name == "primero":
        robot = FirstRobot()
    elif name == "ilegal":
        robot = IllegalRobot()
    elif name == "roto":
        robot = RaisingRobot()
    elif name == "renuncio":
        robot = RenegeRobot(seed)
    elif name == "mirón":
        robot = LookTwiceRobot(seed)
    elif name == "espía":
        robot = SpyRobot(seed)
    elif name == "vigilado":
        robot = WatchedRobot(random.Random(seed))
    else:
        return make_robot(name, seed, arena=arena, budget_ms=budget_ms)
    MADE.append(robot)
    return robot


def spec(a: str, b: str, rules: Rules | None = None, deals: int = 6, seed: int = 3) -> MatchSpec:
    return MatchSpec(a, b, rules or Rules(), deals=deals, seed=seed, factory=factory)


def run_cli(args: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["match", *args])
    out, err = capsys.readouterr()
    return code, out, err


def without_times(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "decision_ms"}


# duplicate fairness ------------------------------------------------------------------
@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.from_preset("cien"),
        Rules.from_preset("sala", players=3),
        Rules.from_preset("sala", players=4, partnerships=False),
        Rules.from_preset("sala", players=5),
        Rules.from_preset("sala", players=6, quicksand=True),
    ],
    ids=lambda r: f"{r.preset}-{r.players}-{'pairs' if r.partnerships else 'solo'}",
)
def test_a_deterministic_robot_against_itself_mirrors_every_deal(rules: Rules) -> None:
    result = run_match(spec("primero", "primero", rules, deals=8))
    assert len(result.deals) == 8
    for deal in result.deals:
        first = deal.plays[0]
        for play in deal.plays[1:]:
            # the same cards at the same seats and the same decisions: the same hand
            assert (play.bids, play.tricks, play.scores) == (first.bids, first.tricks, first.scores)
        assert deal.margin == pytest.approx(0, abs=1e-9)
        if rules.partnerships:
            assert deal.plays[0].margin == -deal.plays[1].margin
    summary = result.summary()
    assert summary["margin"] == 0 and summary["ci95"] == [0, 0]
    assert summary["made_pct"]["A"] == summary["made_pct"]["B"] or not rules.partnerships


def test_partnership_seatings_swap_sides() -> None:
    result = run_match(spec("aleatorio", "aleatorio", Rules.from_preset("pagat"), deals=3))
    for deal in result.deals:
        assert [p.roles for p in deal.plays] == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
        for play in deal.plays:
            a_side = 0 if play.roles[0] == "A" else 1
            assert play.margin == play.scores[a_side] - play.scores[1 - a_side]
        assert deal.margin == (deal.plays[0].margin + deal.plays[1].margin) / 2


# determinism ---------------------------------------------------------------------------
def test_deals_and_robot_seeds_are_fixed_by_the_seed() -> None:
    rules = Rules()
    assert deal_for(rules, 9, 4) == deal_for(rules, 9, 4)
    assert deal_for(rules, 9, 4) != deal_for(rules, 9, 5)
    assert deal_for(rules, 9, 4) != deal_for(rules, 10, 4)
    assert [deal_for(rules, 1, i)[0] for i in range(6)] == [0, 1, 2, 3, 0, 1]
    assert derive_seed(1, 2, 0, 3) != derive_seed(1, 2, 1, 3)


def test_same_seed_same_match_and_jobs_do_not_matter(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["aleatorio", "normal", "--deals", "24", "--seed", "11", "--json"]
    runs = []
    for extra in ([], [], ["--jobs", "2"], ["--jobs", "3"]):
        code, out, _ = run_cli([*args, *extra], capsys)
        assert code == 0
        runs.append(json.loads(out))
    assert all(without_times(r) == without_times(runs[0]) for r in runs)
    code, out, _ = run_cli(
        ["aleatorio", "normal", "--deals", "24", "--seed", "12", "--json"], capsys
    )
    assert without_times(json.loads(out)) != without_times(runs[0])


def test_jobs_give_the_same_deals_in_order() -> None:
    base = MatchSpec("aleatorio", "aleatorio", Rules.from_preset("sala", players=5), deals=7)
    one = run_match(base)
    two = run_match(base, jobs=2)
    assert [d.index for d in two.deals] == list(range(7))
    assert [d.plays for d in two.deals] == [d.plays for d in one.deals]


# scoring ----------------------------------------------------------------------------------
def independent_score(
    rules: Rules, side: int, bids: Sequence[BidValue], tricks: Sequence[int]
) -> int:
    """Deal score written from RULES.md section 6 with every bag costed at 10 points
    (no bonuses, no quicksand)."""
    seats = rules.seats_of(side)
    total = 0
    contract = sum(b for s in seats if isinstance(b := bids[s], int) and b > 0)
    taken = sum(tricks[s] for s in seats if bids[s] not in (0, BLIND_NIL))
    for s in seats:
        if bids[s] in (0, BLIND_NIL):
            value = 200 if bids[s] == BLIND_NIL else 100
            total += value if tricks[s] == 0 else -value + tricks[s] - 10 * tricks[s]
    if contract:
        if taken >= contract:
            total += 10 * contract + (taken - contract) - 10 * (taken - contract)
        else:
            total -= 10 * contract
    return total


@pytest.mark.parametrize(
    "rules", [Rules.from_preset("pagat"), Rules.from_preset("cien"), Rules(players=4)]
)
def test_deal_scores_match_an_independent_computation(rules: Rules) -> None:
    result = run_match(spec("aleatorio", "normal", rules, deals=6))
    checked = 0
    for deal in result.deals:
        for play in deal.plays:
            assert sum(play.tricks) == rules.hand_size
            for side in range(rules.sides):
                assert play.scores[side] == independent_score(rules, side, play.bids, play.tricks)
                checked += 1
    assert checked == 6 * 2 * 2


def test_deal_scores_count_every_bag_at_ten() -> None:
    pagat = Rules.from_preset("pagat")
    no = [False] * 4
    # 12 bags in one hand: the engine takes 100 and carries 2; the arena costs all 12
    points, bags = deal_scores(pagat, [1, 2, 0, 0], no, [13, 0, 0, 0])
    assert bags == [12, 0]
    assert points == [10 + 12 + 100 - 120, -20 + 100]
    # cien resets bags at 10 and forgets how many there were: the count is still exact
    cien = Rules.from_preset("cien")
    points, bags = deal_scores(cien, [1, 1, 1, 0], no, [8, 0, 5, 0])
    assert bags == [11, 0]
    assert points == [20 + 11 - 110, -10 + 100]
    # blind nil made, Nil failed (its trick is a bag)
    points, bags = deal_scores(cien, [0, 0, 4, 5], [True, False, False, False], [0, 1, 6, 6])
    assert bags == [2, 2]
    assert points == [200 + 40 + 2 - 20, -100 + 1 + 50 + 1 - 20]
    # quicksand: no bags; overtricks and undertricks cost 10 each
    sand = Rules.from_preset("pagat", quicksand=True)
    assert deal_scores(sand, [3, 3, 3, 3], no, [5, 2, 3, 3]) == ([60 - 20, -10], [0, 0])
    # sala bonuses still count: big contract (+10 per trick beyond the 8th), exact 1-2
    sala = Rules.from_preset("sala")
    points, _ = deal_scores(sala, [5, 1, 5, 1], no, [6, 1, 5, 1])
    assert points == [100 + 1 + 20 - 10, 20 + 20]


# individual presets ------------------------------------------------------------------------
def test_individual_preset_rotates_a_through_every_seat() -> None:
    rules = Rules.from_preset("sala", players=3)
    assert seatings(rules) == [("A", "B", "B"), ("B", "A", "B"), ("B", "B", "A")]
    result = run_match(spec("aleatorio", "normal", rules, deals=5))
    for deal in result.deals:
        assert len(deal.plays) == 3
        for j, play in enumerate(deal.plays):
            assert play.roles.index("A") == j and play.roles.count("A") == 1
            others = [play.scores[s] for s in range(3) if s != j]
            assert play.margin == pytest.approx(play.scores[j] - sum(others) / 2)
        assert deal.margin == pytest.approx(sum(p.margin for p in deal.plays) / 3)
    assert result.tallies["A"].sides == 5 * 3
    assert result.tallies["B"].sides == 5 * 3 * 2


def test_individual_preset_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        [
            "aleatorio",
            "aleatorio",
            "--preset",
            "sala",
            "--set",
            "players=5",
            "--deals",
            "3",
            "--json",
        ],
        capsys,
    )
    data = json.loads(out)
    assert code == 0 and data["preset"] == "sala" and data["rules"]["players"] == 5
    assert data["plays_per_deal"] == 5


# faults ---------------------------------------------------------------------------------------
def test_illegal_actions_are_faults_and_the_match_goes_on() -> None:
    MADE.clear()
    result = run_match(spec("ilegal", "aleatorio", deals=4))
    a, b = result.tallies["A"], result.tallies["B"]
    instances = [r for r in MADE if isinstance(r, IllegalRobot)]
    assert len(instances) == 4 * 2 * 2  # deals × plays × seats
    assert all(r.closed for r in instances)
    # every decision was a fault, plus the robots' own count
    assert a.faults == len(a.times_ms) + 2 * len(instances)
    assert b.faults == 0
    # the arena played for it: lowest non-Nil bid, then the first proper card
    for deal in result.deals:
        for play in deal.plays:
            assert sum(play.tricks) == 13
            assert all(play.bids[s] == 1 for s in range(4) if play.roles[s] == "A")


def test_exceptions_and_reneges_are_faults(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_match(spec("aleatorio", "roto", deals=2))
    assert result.tallies["B"].faults == len(result.tallies["B"].times_ms) > 0
    assert result.tallies["A"].faults == 0
    renege = run_match(spec("renuncio", "aleatorio", Rules(renege="allowed"), deals=4))
    assert renege.tallies["A"].faults > 0 and renege.tallies["B"].faults == 0


def test_looking_is_an_action_and_looking_twice_a_fault() -> None:
    cien = Rules.from_preset("cien")
    result = run_match(spec("aleatorio", "aleatorio", cien, deals=6))
    assert result.tallies["A"].faults == result.tallies["B"].faults == 0
    looker = run_match(spec("mirón", "aleatorio", cien, deals=2))
    # one refused look per robot instance (the first hand-up look is accepted)
    assert looker.tallies["A"].faults == 2 * 2 * 2


def test_faults_on_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "make_robot", factory)
    code, out, _ = run_cli(["ilegal", "aleatorio", "--deals", "2", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["faults"]["A"] > 0 and data["faults"]["B"] == 0


# external programs: one process per seat ------------------------------------------------------
FIXTURE = str(Path(__file__).resolve().parents[1] / "fixtures" / "robot_fixture.py")


def fixture_robot(*args: str) -> str:
    return "cmd:" + shlex.join([sys.executable, FIXTURE, *args])


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_cmd_robot_keeps_one_process_per_seat_for_the_whole_match(tmp_path: Path) -> None:
    log = tmp_path / "pids"
    result = run_match(spec(fixture_robot("pid", str(log)), "aleatorio", deals=3))
    pids = [int(p) for p in log.read_text().split()]
    a = result.tallies["A"]
    assert a.faults == 0 and len(pids) == len(a.times_ms) > 100
    # A holds two seats in every play: two programs answer every request
    assert len(set(pids)) == 2
    assert all(gone(pid) for pid in set(pids)), "closed at the end of the match"


def test_a_cmd_robot_gets_a_fresh_process_after_a_fault(tmp_path: Path) -> None:
    log = tmp_path / "pids"
    result = run_match(spec(fixture_robot("pid", str(log), "7"), "aleatorio", deals=2))
    answers = Counter(log.read_text().split())
    # every 7th answer of a process is not JSON: a fault, and the next request
    # goes to a new process
    assert max(answers.values()) == 7 and len(answers) > 2
    assert result.tallies["A"].faults == sum(1 for n in answers.values() if n == 7)
    assert sum(answers.values()) == len(result.tallies["A"].times_ms)


def test_a_cmd_robot_with_jobs_gives_the_same_match(tmp_path: Path) -> None:
    robot = fixture_robot("pid", str(tmp_path / "pids"))
    one = run_match(spec(robot, "normal", deals=4)).summary()
    two = run_match(spec(robot, "normal", deals=4), jobs=2).summary()
    assert without_times(one) == without_times(two)


# views ---------------------------------------------------------------------------------------
def test_a_robot_that_sees_all_gets_a_full_view_and_others_do_not() -> None:
    SpyRobot.seen.clear()
    WatchedRobot.seen.clear()
    run_match(spec("espía", "vigilado", deals=2))
    assert SpyRobot.seen and all(isinstance(v, FullView) for v in SpyRobot.seen)
    for view in SpyRobot.seen:
        assert isinstance(view, FullView)
        assert view.all_held[view.seat] == view.held
        assert sum(len(h) for h in view.all_held) == sum(view.cards_left)
    assert WatchedRobot.seen
    assert not any(isinstance(v, FullView) for v in WatchedRobot.seen)


# command line -----------------------------------------------------------------------------------
def test_json_output_has_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        ["aleatorio", "normal", "--deals", "5", "--seed", "4", "--json"], capsys
    )
    assert code == 0
    assert len(out.strip().splitlines()) == 1
    data = json.loads(out)
    assert data.keys() >= JSON_KEYS
    assert data["deals"] == 5 and data["seed"] == 4 and data["preset"] == "estandar"
    assert data["robots"] == {"A": "aleatorio", "B": "normal"}
    low, high = data["ci95"]
    assert low <= data["margin"] <= high
    for key in ("made_pct", "nil_pct", "bags_per_hand", "faults", "nil_bids", "decision_ms"):
        assert set(data[key]) == {"A", "B"}, key
    for role in ("A", "B"):
        ms = data["decision_ms"][role]
        assert 0 <= ms["p50"] <= ms["p95"] <= ms["max"]
    assert "5/5 deals" in err  # the progress bar, on stderr only


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["aleatorio", "normal", "--deals", "3"], capsys)
    assert code == 0
    assert out.startswith("aleatorio (A) vs normal (B): estandar, 3 deals × 2 plays, seed 1")
    for word in ("margin per deal", "contracts made", "Nil made", "bags per hand", "faults"):
        assert word in out


def test_chart_is_valid_svg(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "margin.svg"
    code, _, _ = run_cli(["aleatorio", "aleatorio", "--deals", "12", "--chart", str(path)], capsys)
    assert code == 0
    root = ET.parse(path).getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    series = root.findall("svg:polyline", ns)
    assert len(series) == 1 and len(series[0].get("points", "").split()) == 12
    assert root.findall("svg:polygon", ns)  # the interval band
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "deals played" in texts and "points" in texts
    assert root.find("svg:line[@class='zero']", ns) is not None


def test_chart_with_one_point_and_no_band() -> None:
    svg = line_chart([1], [0.0], [None], [None], title="<one>", x_label="x", y_label="y")
    root = ET.fromstring(svg)
    assert root.find("{http://www.w3.org/2000/svg}polygon") is None
    assert "&lt;one&gt;" in svg


@pytest.mark.parametrize(
    "args",
    [
        ["nadie", "aleatorio"],
        ["aleatorio", "cmd:"],
        ["aleatorio", "cmd:no-such-program-here robot normal"],
        ["aleatorio", "aleatorio", "--set", "players=7"],
        ["aleatorio", "aleatorio", "--set", "nonsense"],
        ["aleatorio", "aleatorio", "--set", "colour=red"],
        ["aleatorio", "aleatorio", "--deals", "0"],
        ["aleatorio", "aleatorio", "--jobs", "0"],
        ["aleatorio", "aleatorio", "--budget-ms", "-5"],
        ["aleatorio", "aleatorio", "--chart", "/no/such/folder/x.svg"],
    ],
)
def test_bad_arguments_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(args, capsys)
    assert code == 2 and out == "" and err.startswith("espadas match:")


def test_unparsable_numbers_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["match", "aleatorio", "aleatorio", "--deals", "many"])
    assert exc.value.code == 2


# statistics -----------------------------------------------------------------------------------
def test_t_quantiles_against_the_table() -> None:
    table = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 20: 2.086, 30: 2.042, 60: 2.000, 120: 1.980}
    for df, value in table.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-3)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-4)
    assert t_quantile(0.025, 7) == -t_quantile(0.975, 7)


def test_interval_and_percentiles() -> None:
    assert confidence_interval([5.0]) is None
    ci = confidence_interval([1.0, 3.0])
    assert ci is not None and ci[0] == pytest.approx(2 - 12.706, abs=1e-3)
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.5
    assert percentile(values, 95) == pytest.approx(95.05)
    assert percentile(values, 100) == 100.0
