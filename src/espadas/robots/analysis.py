"""The analysis of a game (``espadas analyze``): every decision of the chosen seats,
valued from that seat's own view at that moment (:mod:`espadas.robots.appraisal`),
with the points it lost and a mark.

A record (FORMATS.md section 1) is replayed through the engine; before each bid
and play of an analysed seat its :class:`~espadas.engine.PlayerView` is taken —
never the cards it could not see. In blind-nil games a seat that has not looked
first chooses between looking and blind nil (a recorded number or Nil counts as
bid after looking): that is a decision of its own, numbered as the bid.

The loss is the best candidate's points minus the taken action's (never
negative), with its standard error (``loss_error``: the two actions compared over
the same sampled deals, :mod:`espadas.robots.noise`). A decision is marked only
when the loss is clear of the search's own noise: at least the threshold of
:data:`THRESHOLDS` (points lost: ``inaccuracy`` 4, under half a trick made or a
bag; ``mistake`` 8, about a bag or a trick of the contract; ``blunder`` 30, a
contract set, a Nil lost) and more than :data:`ERROR_FACTOR` standard errors.

A number bid is never marked against Nil on the search's word alone: when the best
candidate is Nil (blind nil, against looking at the cards) the Nil is played out
with ``normal`` at every seat (:mod:`espadas.robots.nil_check`), and unless it is
made more often than :data:`NIL_LEAST` the Nil is set aside and the bid is
compared with the best of the others (``nil_chance`` says how often it was made).

A decision that the first search marks is searched :data:`CONFIRM` more times with
other seeds, and the mean values decide. Each decision is searched with a seed of
its own, drawn from the analysis seed and the decision's place (hand, action,
seat, stage), so the result does not depend on the order the decisions are
searched in, nor on worker processes. A renege (renege-allowed games) is not
valued and is marked ``blunder``.

>>> from espadas.engine import Game, Rules
>>> from espadas.engine.record import game_record
>>> game = Game.new(Rules.from_preset("cien"), seed=2)
>>> game.to_act, game.bid(3)
(1, None)
>>> [(d.seat, d.stage, d.taken) for d in decisions(game_record(game))]
[(1, 'look', Look(seat=1)), (1, 'bid', Bid(value=3))]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from espadas.engine import BLIND_NIL, Action, Bid, Game, Look, Play, PlayerView
from espadas.engine.cardset import CardSet
from espadas.engine.codec import bid_from_json, bid_json, card_from_json, card_json
from espadas.engine.record import rebuild
from espadas.robots.explain import Candidate
from espadas.robots.registry import ANALYSIS_LEVELS, MAESTRO_FACTOR

if TYPE_CHECKING:
    # the search (and numba's kernel, ~75 MB) loads only when a decision is judged:
    # every espadas command, `serve` included, imports this module's command
    from espadas.robots.appraisal import Appraisal

FORMAT = "espadas-analysis/1"
MARKS = ("inaccuracy", "mistake", "blunder")
THRESHOLDS = {"inaccuracy": 4.0, "mistake": 8.0, "blunder": 30.0}
"""The least points lost for each mark."""
ERROR_FACTOR = 2.0
"""A decision is marked only when its loss is more than this many standard errors
of the loss (and at least a threshold): between two actions worth the same, noise
alone passes it about once in 40 comparisons."""
NIL_LEAST = 0.5
"""A number bid is marked against Nil only when the Nil is made more often than
this with ``normal`` at every seat (:func:`~espadas.robots.nil_check.nil_chance`)."""
CONFIRM = 3
"""A decision whose first search loses at least the ``inaccuracy`` threshold is searched
this many times more (other seeds, other sampled deals) and the values averaged:
sampling noise alone seldom survives it."""
LOOK = "look"
"""How the analysis writes the action of looking at one's cards."""


class UnknownLevel(ValueError):
    """A search level the analysis does not offer."""


@dataclass(frozen=True)
class Decision:
    """A decision to analyse: ``hand`` and ``action`` numbered as FORMATS.md section 2
    numbers them (from 0, bids then plays), the ``seat``, its ``view`` then, the
    action ``taken`` and the ``stage`` (``look``, ``bid`` or ``play``)."""

    hand: int
    action: int
    seat: int
    stage: str
    view: PlayerView
    taken: Action


@dataclass(frozen=True)
class Verdict:
    """A decision analysed: its :class:`Appraisal` (without its samples), the loss
    and the mark; ``loss_error``, the standard error of the loss; ``nil_chance``,
    how often the Nil that the search preferred to the bid was made with ``normal``
    at every seat (``None`` when not measured); ``chosen``, the best action the
    analysis stands by (the appraisal's best, unless that was a Nil set aside)."""

    decision: Decision
    appraisal: Appraisal
    loss: float | None
    mark: str | None
    loss_error: float | None = None
    nil_chance: float | None = None
    chosen: Candidate | None = None

    def best(self) -> Candidate:
        """The better action the analysis names."""
        return self.chosen if self.chosen is not None else self.appraisal.best()


def mark_for(loss: float | None, error: float | None = None) -> str | None:
    """The mark of a decision that lost ``loss`` points (``None``: not valued) with a
    standard error ``error``: none unless the loss is more than
    :data:`ERROR_FACTOR` errors.

    >>> [mark_for(x) for x in (0.0, 3.9, 4.0, 12.5, 30.0, None)]
    [None, None, 'inaccuracy', 'mistake', 'blunder', None]
    >>> mark_for(12.5, 3.0), mark_for(12.5, 7.0), mark_for(40.0, 15.0)
    ('mistake', None, 'blunder')
    """
    if loss is None or (error is not None and loss <= ERROR_FACTOR * error):
        return None
    found = None
    for name in MARKS:
        if loss >= THRESHOLDS[name]:
            found = name
    return found


def is_renege(decision: Decision) -> bool:
    """Whether the card taken broke the rules of play (renege-allowed games)."""
    taken = decision.taken
    return isinstance(taken, Play) and not int(decision.view.proper_plays) >> int(taken.card) & 1


def budget_of(level: str) -> float:
    """The search budget (ms per decision) of an analysis level."""
    if level not in ANALYSIS_LEVELS:
        raise UnknownLevel(f"unknown level {level!r}; choose one of {', '.join(ANALYSIS_LEVELS)}")
    from espadas.robots.expert.robot import DEFAULT_BUDGET_MS

    return DEFAULT_BUDGET_MS * (MAESTRO_FACTOR if level == "maestro" else 1)


def decisions(record: Mapping[str, Any], seats: Iterable[int] | None = None) -> list[Decision]:
    """Every decision of ``seats`` (all by default) in ``record``, in the order made.
    Raises ``RecordError`` or ``ReplayError`` as :func:`~espadas.engine.record.rebuild`
    does for a malformed or illegal record."""
    rules = rebuild(record).rules  # every check, before anything is analysed
    chosen = set(range(rules.players) if seats is None else seats)
    hands = record["hands"]
    game = Game(rules, first_dealer=hands[0]["dealer"] if hands else 0)
    found: list[Decision] = []
    for h, entry in enumerate(hands):
        if game.over:
            break
        if h > 0:
            game.next_hand()
        game.deal([int(CardSet.parse(t)) for t in entry["deal"]])
        acc = entry.get("accusation")
        k = 0
        for raw in entry.get("bids", []):
            value = bid_from_json(raw)
            seat = game.to_act
            assert seat is not None
            if seat in chosen:
                view = game.view_for(seat)
                if view.held is None and Bid(BLIND_NIL) in view.legal:
                    taken: Action = Bid(BLIND_NIL) if value == BLIND_NIL else Look(seat)
                    found.append(Decision(h, k, seat, "look", view, taken))
            if value != BLIND_NIL:
                game.look(seat)
                if seat in chosen:
                    found.append(Decision(h, k, seat, "bid", game.view_for(seat), Bid(value)))
            game.bid(value)
            k += 1
        for i, raw in enumerate(entry.get("plays", [])):
            if acc is not None and acc["after_play"] == i:
                break
            seat = game.to_act
            assert seat is not None
            card = card_from_json(raw)
            if seat in chosen:
                found.append(Decision(h, k, seat, "play", game.view_for(seat), Play(card)))
            game.play(card)
            k += 1
    return found


def seed_of(seed: int, decision: Decision) -> int:
    """The search seed of ``decision``: from the analysis seed and its place only."""
    d = decision
    return random.Random(f"{seed}:{d.hand}:{d.action}:{d.seat}:{d.stage}").getrandbits(31)


def judge(decision: Decision, budget_ms: float, seed: int) -> Verdict:
    """One decision analysed with ``budget_ms`` of search; searched :data:`CONFIRM`
    more times, and the values averaged, when the first search marks it; a number
    bid that would be marked against Nil is checked by :func:`nil_against`."""
    from espadas.robots.appraisal import Appraiser, mean_appraisal

    first = seed_of(seed, decision)
    rng = random.Random(first)
    appraisal = Appraiser(first, budget_ms).appraise(decision.view, decision.taken)
    loss = appraisal.loss()
    if loss is not None and loss >= THRESHOLDS["inaccuracy"]:
        more = [
            Appraiser(rng.getrandbits(31), budget_ms).appraise(decision.view, decision.taken)
            for _ in range(CONFIRM)
        ]
        appraisal = mean_appraisal([appraisal, *more])
    best = appraisal.best()
    loss, error = loss_of(appraisal, best)
    chance = None
    if _nil_best(decision, best) and mark_for(loss, error) is not None:
        chance = nil_against(decision, budget_ms, rng.getrandbits(31))
        if chance <= NIL_LEAST:
            others = [
                c for c in appraisal.candidates if c.points is not None and not _is_nil(c.action)
            ]
            best = max(others, key=lambda c: c.points or 0.0, default=appraisal.taken)
            loss, error = loss_of(appraisal, best)
    mark = "blunder" if is_renege(decision) else mark_for(loss, error)
    return Verdict(decision, appraisal.slim(), loss, mark, error, chance, best)


def loss_of(appraisal: Appraisal, best: Candidate) -> tuple[float | None, float | None]:
    """The points the action taken lost against ``best`` (never negative) and the
    standard error of that difference: ``(0, 0)`` without a choice, ``(None, None)``
    when the action taken was not valued (a renege)."""
    taken = appraisal.taken
    if best.points is None:
        return 0.0, 0.0
    if taken.points is None:
        return None, None
    return max(0.0, best.points - taken.points), appraisal.error(best.action, taken.action)


def _is_nil(action: Action) -> bool:
    return isinstance(action, Bid) and action.value in (0, BLIND_NIL)


def _nil_best(decision: Decision, best: Candidate) -> bool:
    """Whether the search prefers Nil to the number bid taken (or blind nil to
    looking at the cards)."""
    taken = decision.taken
    if isinstance(taken, Bid):
        return best.action == Bid(0) and isinstance(taken.value, int) and taken.value > 0
    return isinstance(taken, Look) and best.action == Bid(BLIND_NIL)


def nil_against(decision: Decision, budget_ms: float, seed: int) -> float:
    """How often the seat's Nil (blind nil before looking) is made with ``normal`` at
    every seat, over :data:`~espadas.robots.nil_check.NIL_DEALS` deals drawn as its
    bids are appraised."""
    from espadas.robots.appraisal import Appraiser
    from espadas.robots.nil_check import NIL_DEALS, nil_chance

    view = decision.view
    deals, weights = Appraiser(seed, budget_ms).nil_deals(view, NIL_DEALS)
    return nil_chance(view, deals, weights, seed, blind=isinstance(decision.taken, Look))


def _judge_task(task: tuple[Decision, float, int]) -> Verdict:
    return judge(*task)


def analyse(
    found: Sequence[Decision],
    level: str = "experto",
    seed: int = 1,
    *,
    jobs: int = 1,
    progress: Callable[[Verdict], None] | None = None,
    budget_ms: float | None = None,
) -> list[Verdict]:
    """Every decision of ``found`` analysed at ``level`` (or with ``budget_ms`` of
    search each), in order. ``jobs`` worker processes give the same result as one."""
    budget = budget_of(level) if budget_ms is None else budget_ms
    tasks = [(d, budget, seed) for d in found]
    verdicts: list[Verdict] = []
    results: Iterator[Verdict]
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            results = pool.map(_judge_task, tasks, chunksize=max(1, len(tasks) // (8 * jobs)))
            for verdict in results:
                verdicts.append(verdict)
                if progress is not None:
                    progress(verdict)
        return verdicts
    for task in tasks:
        verdict = _judge_task(task)
        verdicts.append(verdict)
        if progress is not None:
            progress(verdict)
    return verdicts


# JSON -------------------------------------------------------------------------------
def action_json(action: Action) -> object:
    """An action as the record writes it: a card ``"QH"``, a bid (``0`` for Nil,
    ``"blind_nil"``), or ``"look"``."""
    if isinstance(action, Play):
        return card_json(int(action.card))
    if isinstance(action, Bid):
        return bid_json(action.value)
    if isinstance(action, Look):
        return LOOK
    raise TypeError(f"{action!r} is not a decision of the analysis")


def _points(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def candidate_json(c: Candidate) -> dict[str, Any]:
    return {"action": action_json(c.action), "points": _points(c.points)}


def verdict_json(v: Verdict) -> dict[str, Any]:
    """One entry of ``decisions`` in the ``espadas-analysis/1`` object."""
    d = v.decision
    return {
        "hand": d.hand,
        "action": d.action,
        "seat": d.seat,
        "taken": action_json(d.taken),
        "best": action_json(v.best().action),
        "loss": _points(v.loss),
        "loss_error": _points(v.loss_error),
        "mark": v.mark,
        "nil_chance": None if v.nil_chance is None else round(v.nil_chance, 2),
        "candidates": [candidate_json(c) for c in v.appraisal.candidates],
    }


def summary(verdicts: Sequence[Verdict], seats: Iterable[int]) -> dict[str, Any]:
    """Per seat (keyed ``"0"``, ``"1"``, …): decisions, average loss (over the
    decisions valued), and the count of each mark."""
    out: dict[str, Any] = {}
    for seat in seats:
        mine = [v for v in verdicts if v.decision.seat == seat]
        losses = [v.loss for v in mine if v.loss is not None]
        average = round(sum(losses) / len(losses), 2) if losses else None
        out[str(seat)] = {
            "decisions": len(mine),
            "average_loss": average,
            "marks": {m: sum(1 for v in mine if v.mark == m) for m in MARKS},
        }
    return out


def analysis_json(verdicts: Sequence[Verdict], seats: Iterable[int]) -> dict[str, Any]:
    """The ``espadas-analysis/1`` object (README, "Records, replay and export")."""
    return {
        "format": FORMAT,
        "decisions": [verdict_json(v) for v in verdicts],
        "summary": summary(verdicts, seats),
    }
