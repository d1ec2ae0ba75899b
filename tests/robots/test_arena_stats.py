"""What the arena counts per robot beyond the margin: blind nil (offered, bid, made,
behind or not), Nils lost by the partner, and the score plays start from
(``espadas.robots.standing``, ``espadas.robots.tally``, ``espadas match --start``)."""

from __future__ import annotations

import json
import random
from typing import ClassVar

import pytest

from espadas.cli.main import main
from espadas.engine import BLIND_NIL, Action, Bid, Look, Play, PlayerView, Rules
from espadas.robots import RandomRobot, Robot, registry
from espadas.robots.arena import MatchSpec, run_match
from espadas.robots.standing import STARTS, UnknownStart, behind_sides, start_scores

CIEN = Rules.from_preset("cien")


class BlindWhenOffered:
    """Bids blind nil whenever it is offered; otherwise plays at random."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomRobot(random.Random(seed))

    def act(self, view: PlayerView) -> Action:
        if Bid(BLIND_NIL) in view.legal:
            return Bid(BLIND_NIL)
        return self.inner.act(view)


class SeenScores:
    """Records the scores of the views it gets; bids 3 and plays its first card."""

    seen: ClassVar[list[tuple[int, ...]]] = []

    def act(self, view: PlayerView) -> Action:
        SeenScores.seen.append(tuple(view.scores))
        if view.phase == "playing":
            return Play(next(iter(view.proper_plays)))
        if Look(view.seat) in view.legal:
            return Look(view.seat)
        return Bid(3) if Bid(3) in view.legal else next(a for a in view.legal if isinstance(a, Bid))


class LowNil:
    """Bids Nil unless its partner did (then 4), and always plays its lowest proper
    card: as the partner of a Nil it never covers."""

    def act(self, view: PlayerView) -> Action:
        if view.phase == "playing":
            return Play(min(view.proper_plays))
        partner = view.rules.partner_of(view.seat)
        value = 4 if partner is not None and view.bids[partner] == 0 else 0
        return Bid(value) if Bid(value) in view.legal else Bid(3)


def factory(name: str, seed: int, *, arena: bool = False, budget_ms: float | None = None) -> Robot:
    if name == "blind":
        return BlindWhenOffered(seed)
    if name == "seen":
        return SeenScores()
    if name == "low":
        return LowNil()
    return registry.make_robot(name, seed, arena=arena, budget_ms=budget_ms)


# standing ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_mixed_starts_put_every_side_behind_and_ahead(players: int) -> None:
    rules = Rules.from_preset("sala", players=players)
    starts = [start_scores(rules, "mixed", i) for i in range(3 * rules.sides)]
    assert starts[0] == (0,) * rules.sides
    for side in range(rules.sides):
        assert any(behind_sides(s)[side] for s in starts)
        assert any(not behind_sides(s)[side] and max(s) > 0 for s in starts)
    for s in starts:
        assert max(s) < rules.target and min(s) >= 0
        if max(s) > 0:  # one behind or one ahead: a gap of 50 % of the target
            assert max(s) - min(s) == rules.target // 2
    assert all(start_scores(rules, "zero", i) == (0,) * rules.sides for i in range(9))


def test_an_unknown_start_is_refused() -> None:
    assert STARTS == ("zero", "mixed")
    with pytest.raises(UnknownStart):
        start_scores(CIEN, "late", 1)
    with pytest.raises(UnknownStart):
        MatchSpec("aleatorio", "aleatorio", CIEN, start="late")


def test_the_robots_see_the_starting_score() -> None:
    SeenScores.seen = []
    spec = MatchSpec("seen", "seen", CIEN, deals=3, seed=2, factory=factory, start="mixed")
    run_match(spec)
    firsts = {SeenScores.seen[0]}  # deal 0 starts level
    assert firsts == {(0, 0)}
    assert (30, 80) in SeenScores.seen and (80, 30) in SeenScores.seen


# blind nil --------------------------------------------------------------------------
def test_blind_nil_counts_by_opportunity_and_standing() -> None:
    deals = 6
    spec = MatchSpec("blind", "aleatorio", CIEN, deals, seed=3, factory=factory, start="mixed")
    s = run_match(spec).summary()
    assert s["start"] == "mixed"
    # every seat of every play is offered blind nil in cien: 2 seats x 2 plays a deal
    assert s["blind_nil_offered"] == {"A": 2 * 2 * deals, "B": 2 * 2 * deals}
    assert s["blind_nil_bids"]["A"] == 2 * 2 * deals and s["blind_nil_bid_pct"]["A"] == 100.0
    assert s["blind_nil_per_hand_pct"]["A"] == 100.0
    # deals 1, 2, 4, 5 start with one side behind: A is behind in one play of each
    behind, level = s["blind_nil_behind"]["A"], s["blind_nil_not_behind"]["A"]
    assert behind["offered"] == behind["bids"] == 2 * 4
    assert level["offered"] == level["bids"] == 2 * 2 * deals - 2 * 4
    assert behind["made"] + level["made"] == round(s["blind_nil_pct"]["A"] * 24 / 100)
    # a blind nil is a Nil too
    assert s["nil_bids"]["A"] >= s["blind_nil_bids"]["A"]


def test_no_blind_nil_where_the_rules_do_not_offer_it() -> None:
    s = run_match(MatchSpec("blind", "normal", Rules(), deals=2, factory=factory)).summary()
    assert s["blind_nil_offered"] == {"A": 0, "B": 0}
    assert s["blind_nil_bid_pct"] == {"A": None, "B": None}
    assert s["start"] == "zero"


def test_normal_bids_blind_nil_only_behind() -> None:
    s = run_match(MatchSpec("normal", "aleatorio", CIEN, deals=12, seed=1, start="mixed")).summary()
    assert s["blind_nil_behind"]["A"]["bids"] > 0
    assert s["blind_nil_not_behind"]["A"]["bids"] == 0


# Nils lost by the partner -------------------------------------------------------------
def test_nil_partner_faults_are_a_share_of_the_nils() -> None:
    spec = MatchSpec("low", "normal", Rules.from_preset("pagat"), deals=6, seed=5, factory=factory)
    s = run_match(spec).summary()
    for role in ("A", "B"):
        faults, pct = s["nil_partner_faults"][role], s["nil_partner_fault_pct"][role]
        if s["nil_bids"][role]:
            assert pct == round(100 * faults / s["nil_bids"][role], 2)
        assert faults <= s["nil_bids"][role] - round(s["nil_bids"][role] * s["nil_pct"][role] / 100)
    # a partner who never covers loses some of the Nils (the first trick it let go)
    assert s["nil_bids"]["A"] == 2 * 6 and s["nil_partner_faults"]["A"] > 0


def test_no_partner_faults_in_individual_games() -> None:
    rules = Rules.from_preset("sala", players=3)
    s = run_match(MatchSpec("aleatorio", "aleatorio", rules, deals=3)).summary()
    assert s["nil_partner_fault_pct"] == {"A": None, "B": None}


# the command line ---------------------------------------------------------------------
def test_start_and_new_rows_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "normal", "aleatorio", "--deals", "3", "--preset", "cien", "--start", "mixed"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["start"] == "mixed" and "nil_partner_fault_pct" in data
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "start mixed" in out.splitlines()[0]
    for row in ("Nil lost by the partner", "blind nil bids / offered", "blind nil made"):
        assert row in out
    with pytest.raises(SystemExit):
        main([*args[:-1], "late"])
