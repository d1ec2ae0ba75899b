"""The analysis of a game (``espadas analyze``): every decision of the chosen seats,
valued from that seat's own view at that moment (:mod:`espadas.robots.appraisal`),
with the points it lost and a mark.

A record (FORMATS.md section 1) is replayed through the engine; before each bid
and play of an analysed seat its :class:`~espadas.engine.PlayerView` is taken —
never the cards it could not see. In blind-nil games a seat that has not looked
first chooses between looking and blind nil (a recorded number or Nil counts as
bid after looking): that is a decision of its own, numbered as the bid.

The loss is the best candidate's points minus the taken action's (never
negative), and the mark follows :data:`THRESHOLDS` (points lost, at least):
``inaccuracy`` 4 (under half a trick made or a bag), ``mistake`` 8 (about a
bag, or a trick of the contract), ``blunder`` 30 (a contract set, a Nil lost).

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
    """A decision analysed: its :class:`Appraisal`, the loss and the mark."""

    decision: Decision
    appraisal: Appraisal
    loss: float | None
    mark: str | None


def mark_for(loss: float | None) -> str | None:
    """The mark of a decision that lost ``loss`` points (``None``: not valued).

    >>> [mark_for(x) for x in (0.0, 3.9, 4.0, 12.5, 30.0, None)]
    [None, None, 'inaccuracy', 'mistake', 'blunder', None]
    """
    found = None
    for name in MARKS:
        if loss is not None and loss >= THRESHOLDS[name]:
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
    more times, and the values averaged, when the first search marks it."""
    from espadas.robots.appraisal import Appraiser, mean_appraisal

    first = seed_of(seed, decision)
    appraisal = Appraiser(first, budget_ms).appraise(decision.view, decision.taken)
    loss = appraisal.loss()
    if loss is not None and loss >= THRESHOLDS["inaccuracy"]:
        rng = random.Random(first)
        more = [
            Appraiser(rng.getrandbits(31), budget_ms).appraise(decision.view, decision.taken)
            for _ in range(CONFIRM)
        ]
        appraisal = mean_appraisal([appraisal, *more])
        loss = appraisal.loss()
    mark = "blunder" if is_renege(decision) else mark_for(loss)
    return Verdict(decision, appraisal, loss, mark)


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
        "best": action_json(v.appraisal.best().action),
        "loss": _points(v.loss),
        "mark": v.mark,
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
