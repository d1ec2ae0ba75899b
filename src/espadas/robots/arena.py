"""The duplicate arena: robot ``A`` against robot ``B`` on the same cards.

Duplicate play takes the luck of the deal out of a comparison: every deal is
played several times with the same cards at the same seats, the robots changing
seats between plays, and only the difference in their results counts.

- **Deals.** Deal ``i`` of a match with seed ``S`` is
  ``deal_cards(rules, random.Random(derive_seed(S, i)), dealer)`` with
  ``dealer = i % players``: the dealer rotates from deal to deal, so that every
  seat leads to the first trick equally often, and stays the same for every play
  of one deal.
- **Partnership games** (4 players, partnerships): each deal is played twice.
  In play 0 ``A`` holds seats 0 and 2 (side ``ns``) and ``B`` seats 1 and 3; in
  play 1 they swap. A play's margin is A's side score − B's side score.
- **Individual games** (3–6 players, each for themself): ``A`` plays against a
  field of ``B``. Deal ``i`` is played ``players`` times, ``A`` at seat ``j`` in
  play ``j`` and ``B`` in every other seat. A play's margin is A's score − the mean
  of the ``B`` seats' scores.
- **Deal margin** = the mean of its plays' margins. The match reports the mean deal
  margin with its Student-t 95 % confidence interval over deals.
- **Scoring.** Each play is one hand of a real :class:`~espadas.engine.Game`
  started with no bags, from 0–0 or (``start="mixed"``) from the score of
  :func:`~espadas.robots.standing.start_scores`, the same for every play of a deal;
  only the hand's own points count, so deals are independent. A side's *deal score*
  is the hand's points without any bag penalty, minus 10 per bag taken in the
  hand (every bag is costed at its long-run price of 10 points). The bags taken
  are counted exactly, also when a side takes 10 or more in one hand and with
  ``bags_reset`` (see :func:`deal_scores`). What each robot did (contracts, Nil,
  blind nil, Nils lost by the partner, bags, decision times) is counted in a
  :class:`~espadas.robots.tally.Tally`.
- **Robots** only ever see ``game.view_for(seat)``, or ``full_view(game, seat)``
  when they have ``sees_all = True`` (``omnisciente``). Each seat of each play has
  its own robot, made by ``make_robot(name, seed, arena=True, budget_ms=…)`` with a
  seed derived from (match seed, deal, play, seat): a match is the same for a seed,
  whatever the number of worker processes (decision times aside).
- **Lasting robots.** An external ``cmd:`` program is not started again for every
  play: the arena keeps one per seat for the whole match (or for the run of deals
  one worker process plays) and restarts it only after a fault (see
  :mod:`espadas.robots.roster`).
- **Faults.** An action that is not among ``view.legal`` (or that the engine
  refuses), an exception from ``act``, or a renege (the arena never accuses, so a
  card that does not follow suit would go unpunished) is a fault of that robot:
  the arena plays for it the first proper card, or its lowest legal non-Nil bid
  (Nil if that is all it may bid). After each play the robot's own ``faults``
  attribute (external programs count their protocol faults) is added and its
  ``close()`` is called (lasting robots: see above). A ``Look`` is applied and the
  robot asked again.

>>> from espadas.engine import Rules
>>> spec = MatchSpec("aleatorio", "aleatorio", Rules.from_preset("pagat"), deals=3, seed=5)
>>> result = run_match(spec)
>>> [d.index for d in result.deals], [len(d.plays) for d in result.deals]
([0, 1, 2], [2, 2, 2])
>>> result.deals[1].plays[1].roles
('B', 'A', 'B', 'A')
>>> summary = result.summary()
>>> summary["deals"], summary["robots"]
(3, {'A': 'aleatorio', 'B': 'aleatorio'})
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol

from espadas.engine import (
    BLIND_NIL,
    Bid,
    BidValue,
    Game,
    Look,
    Play,
    PlayerView,
    RuleError,
    Rules,
    deal_cards,
    deal_scores,
    full_view,
)
from espadas.robots import registry
from espadas.robots.base import Robot, fallback
from espadas.robots.roster import Roster
from espadas.robots.standing import STARTS, UnknownStart, behind_sides, start_scores
from espadas.robots.stats import Running, confidence_interval, mean, sample_sd
from espadas.robots.tally import Tally, robot_summary

ROLES = ("A", "B")
"""The two robots of a match."""


class RobotFactory(Protocol):
    """What makes the robots: :func:`espadas.robots.registry.make_robot` or a stand-in
    with its signature (a top-level function, so that worker processes can use it)."""

    def __call__(
        self, name: str, seed: int, *, arena: bool = False, budget_ms: float | None = None
    ) -> Robot: ...


@dataclass(frozen=True)
class MatchSpec:
    """What to play: two robot names, the rules, how many deals, the seed.

    ``factory`` makes the robots; ``None`` means ``registry.make_robot`` (looked up
    when the match runs). ``start`` chooses the score each play starts from (see
    :mod:`espadas.robots.standing`)."""

    robot_a: str
    robot_b: str
    rules: Rules = field(default_factory=Rules)
    deals: int = 100
    seed: int = 1
    budget_ms: float | None = None
    factory: RobotFactory | None = None
    start: str = "zero"

    def __post_init__(self) -> None:
        if self.start not in STARTS:
            raise UnknownStart(f"unknown start {self.start!r}; the starts are {', '.join(STARTS)}")

    def name(self, role: str) -> str:
        """The robot name playing ``role`` (``"A"`` or ``"B"``)."""
        return self.robot_a if role == "A" else self.robot_b

    def make(self, role: str, seed: int) -> Robot:
        """A fresh robot for ``role`` with ``seed``."""
        factory = self.factory if self.factory is not None else registry.make_robot
        return factory(self.name(role), seed, arena=True, budget_ms=self.budget_ms)


@dataclass(frozen=True)
class PlayResult:
    """One play of a deal: who sat where, the bids and tricks by seat, and each side's
    deal score."""

    roles: tuple[str, ...]
    bids: tuple[BidValue, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    margin: float


@dataclass(frozen=True)
class DealResult:
    """Every play of deal ``index``, its margin (mean of the plays' margins) and the
    two robots' tallies."""

    index: int
    dealer: int
    plays: tuple[PlayResult, ...]
    margin: float
    tallies: dict[str, Tally]


# seeds and seats -------------------------------------------------------------------
def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts' text, the same on every machine and process.

    >>> derive_seed(1, 0) == derive_seed(1, 0) != derive_seed(1, 1)
    True
    """
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def deal_for(rules: Rules, seed: int, index: int) -> tuple[int, tuple[int, ...]]:
    """The dealer and the cards of deal ``index`` of a match with ``seed``."""
    dealer = index % rules.players
    return dealer, deal_cards(rules, random.Random(derive_seed(seed, index)), dealer)


def seatings(rules: Rules) -> list[tuple[str, ...]]:
    """The role at each seat, one tuple per play of a deal.

    >>> from espadas.engine import Rules
    >>> seatings(Rules())
    [('A', 'B', 'A', 'B'), ('B', 'A', 'B', 'A')]
    >>> seatings(Rules.from_preset("sala", players=3))
    [('A', 'B', 'B'), ('B', 'A', 'B'), ('B', 'B', 'A')]
    """
    n = rules.players
    if rules.partnerships:
        return [tuple("A" if s % 2 == p else "B" for s in range(n)) for p in (0, 1)]
    return [tuple("A" if s == j else "B" for s in range(n)) for j in range(n)]


# one hand ----------------------------------------------------------------------------
def _acceptable(view: PlayerView, action: object) -> bool:
    if not isinstance(action, (Bid, Play, Look)) or action not in view.legal:
        return False
    return not isinstance(action, Play) or action.card in view.proper_plays


def play_hand(
    game: Game,
    robots: Sequence[Robot],
    on_decision: Callable[[int, float], None],
    on_fault: Callable[[int], None],
) -> None:
    """Plays the dealt hand of ``game`` to its end with one robot per seat.

    ``on_decision(seat, ms)`` receives each ``act`` call's wall time,
    ``on_fault(seat)`` each fault."""
    sees_all = [getattr(r, "sees_all", False) is True for r in robots]
    clock = time.perf_counter
    while game.phase in ("bidding", "playing"):
        seat = game.to_act
        assert seat is not None
        view: PlayerView = full_view(game, seat) if sees_all[seat] else game.view_for(seat)
        start = clock()
        action: object
        try:
            action = robots[seat].act(view)
        except Exception:
            action = None
        on_decision(seat, (clock() - start) * 1000)
        if _acceptable(view, action):
            assert isinstance(action, (Bid, Play, Look))
            try:
                if isinstance(action, Look):
                    game.look(seat)
                else:
                    game.apply(action, by=seat)
                continue
            except RuleError:
                pass
        on_fault(seat)
        game.apply(fallback(view), by=seat)


def play_deal(spec: MatchSpec, index: int, seats: Roster | None = None) -> DealResult:
    """Plays every play of deal ``index`` and scores them; ``seats`` keeps the lasting
    robots between deals (without it, they are closed after this deal)."""
    if seats is None:
        with Roster(spec.make) as own:
            return play_deal(spec, index, own)
    rules = spec.rules
    dealer, cards = deal_for(rules, spec.seed, index)
    start = start_scores(rules, spec.start, index)
    tallies = {role: Tally() for role in ROLES}
    plays: list[PlayResult] = []
    for number, roles in enumerate(seatings(rules)):
        seeds = [derive_seed(spec.seed, index, number, seat) for seat in range(len(roles))]
        robots = seats.robots(roles, seeds)
        game = Game(rules, first_dealer=dealer)
        game.scores[:] = start
        game.deal(cards)

        def decided(seat: int, ms: float, roles: tuple[str, ...] = roles) -> None:
            tallies[roles[seat]].times_ms.append(ms)

        def fault(seat: int, roles: tuple[str, ...] = roles) -> None:
            tallies[roles[seat]].faults += 1

        try:
            play_hand(game, robots, seats.watch(decided), seats.watch_faults(fault))
        finally:
            for seat, faults in enumerate(seats.end_play()):
                tallies[roles[seat]].faults += faults
        plays.append(_score_play(rules, game, roles, tallies, behind_sides(start)))
    margin = math.fsum(p.margin for p in plays) / len(plays)
    return DealResult(index, dealer, tuple(plays), margin, tallies)


def _score_play(
    rules: Rules,
    game: Game,
    roles: tuple[str, ...],
    tallies: dict[str, Tally],
    behind: tuple[bool, ...],
) -> PlayResult:
    hand = game.hands[-1]
    bids = [b if b is not None else 0 for b in hand.bids]
    tricks = list(hand.tricks)
    scores, bags = deal_scores(rules, bids, hand.blind, tricks)
    by_role: dict[str, list[int]] = {role: [] for role in ROLES}
    for side in range(rules.sides):
        role = roles[rules.seats_of(side)[0]]
        by_role[role].append(scores[side])
        tallies[role].count_side(hand, side, bags[side], behind[side])
    margin = mean(by_role["A"]) - mean(by_role["B"])
    shown: tuple[BidValue, ...] = tuple(
        BLIND_NIL if hand.blind[s] else bids[s] for s in range(rules.players)
    )
    return PlayResult(roles, shown, tuple(tricks), tuple(scores), tuple(bags), margin)


# a match -----------------------------------------------------------------------------
def _play_range(spec: MatchSpec, start: int, stop: int) -> list[DealResult]:
    with Roster(spec.make) as seats:
        return [play_deal(spec, i, seats) for i in range(start, stop)]


def _chunks(deals: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, min(10, math.ceil(deals / (jobs * 4))))
    return [(s, min(s + size, deals)) for s in range(0, deals, size)]


def run_match(
    spec: MatchSpec,
    *,
    jobs: int = 1,
    progress: Callable[[DealResult], None] | None = None,
) -> MatchResult:
    """Plays the match; ``jobs`` > 1 plays deals in that many worker processes (the
    result is the same, decision times aside). ``progress`` receives each deal's result
    as it completes (in completion order with several jobs)."""
    if spec.deals < 1:
        raise ValueError(f"a match needs at least 1 deal, not {spec.deals}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    results: list[DealResult] = []
    if jobs == 1:
        with Roster(spec.make) as seats:
            for i in range(spec.deals):
                deal = play_deal(spec, i, seats)
                results.append(deal)
                if progress is not None:
                    progress(deal)
    else:
        chunks = _chunks(spec.deals, jobs)
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
            pending: set[Future[list[DealResult]]] = {
                pool.submit(_play_range, spec, start, stop) for start, stop in chunks
            }
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    for deal in future.result():
                        results.append(deal)
                        if progress is not None:
                            progress(deal)
        results.sort(key=lambda d: d.index)
    return MatchResult(spec, results)


@dataclass
class MatchResult:
    """The deals of a match in order, and what they add up to."""

    spec: MatchSpec
    deals: list[DealResult]
    tallies: dict[str, Tally] = field(init=False)

    def __post_init__(self) -> None:
        self.tallies = {role: Tally() for role in ROLES}
        for deal in self.deals:
            for role in ROLES:
                self.tallies[role].merge(deal.tallies[role])

    @property
    def margins(self) -> list[float]:
        """Each deal's margin (A − B), in deal order."""
        return [d.margin for d in self.deals]

    def running(self) -> list[tuple[int, float, tuple[float, float] | None]]:
        """After each deal: deals so far, mean margin so far, its 95 % interval."""
        out: list[tuple[int, float, tuple[float, float] | None]] = []
        stats = Running()
        for margin in self.margins:
            stats.add(margin)
            h = stats.half_width()
            out.append(
                (stats.n, stats.mean, None if h is None else (stats.mean - h, stats.mean + h))
            )
        return out

    def summary(self) -> dict[str, Any]:
        """The match as one JSON-ready object (see ``espadas match --json``)."""
        spec = self.spec
        margins = self.margins
        ci = confidence_interval(margins)
        return {
            "robots": {role: spec.name(role) for role in ROLES},
            "preset": spec.rules.preset,
            "rules": spec.rules.to_dict(),
            "seed": spec.seed,
            "budget_ms": spec.budget_ms,
            "start": spec.start,
            "deals": len(margins),
            "plays_per_deal": len(seatings(spec.rules)),
            "margin": round(mean(margins), 3),
            "ci95": [round(ci[0], 3), round(ci[1], 3)] if ci else [None, None],
            "sd": round(sample_sd(margins), 3),
            **robot_summary(self.tallies),
        }


def check_robots(spec: MatchSpec) -> None:
    """Makes (and closes) one robot of each name, so that an unknown name fails before
    the match: raises what the factory raises (``UnknownRobot``)."""
    for role in ROLES:
        robot = spec.make(role, 0)
        close = getattr(robot, "close", None)
        if callable(close):
            close()
