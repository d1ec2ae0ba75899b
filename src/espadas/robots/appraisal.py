"""What every action open to a seat is worth, from that seat's view alone: an
:class:`Appraisal`, the ground of the analysis of a game
(:mod:`espadas.robots.analysis`).

The values are those of ``experto``'s search (:mod:`espadas.robots.expert`): the
expected score difference at the end of the hand for the seat's side, its points
minus the others' (bags at −10 each, the game's end counted).

- A play: ``experto``'s own search (the values behind
  :meth:`~espadas.robots.expert.ExpertRobot.explain`). It values one card of each
  run of equivalent cards (cards of one suit with no card between them that
  another seat may hold); the card taken gets the value of its run and stands
  for it among the candidates (every other run stands as its lowest card). A
  renege (a card off the rules of play, in renege-allowed games) is not valued.
- A bid once the seat has looked: every legal bid, Nil included, scored over the
  same sampled deals and play-outs as ``experto`` bids (the bids still to come
  guessed as ``normal`` would make them).
- Before looking, in blind-nil games: blind nil against looking, over deals that
  also draw the seat's own cards (it has not seen them); looking is valued as
  bidding afterwards what ``normal`` would bid with the cards drawn.

A decision with a single action (one proper card, or only equivalent cards)
has nothing to weigh: its candidate has no points.

Each appraisal keeps the value of every candidate in every sampled deal
(:class:`~espadas.robots.noise.Samples`), so that the difference between two
candidates comes with its standard error (:meth:`Appraisal.error`).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from espadas.engine import BLIND_NIL, Action, Bid, Look, Play, PlayerView
from espadas.engine.card import CARDS
from espadas.engine.hand import first_lead_card
from espadas.robots.bidding import bid_and_reason, estimate_tricks
from espadas.robots.expert.estimates import guess_bids
from espadas.robots.expert.inference import bid_likelihoods
from espadas.robots.expert.robot import BID_SAMPLES, ExpertRobot, _representative
from espadas.robots.expert.values import Value, value_for
from espadas.robots.explain import Candidate, ranked
from espadas.robots.knowledge import Knowledge
from espadas.robots.noise import Samples, pooled

REPEAT = 2
"""Play-outs of each sampled deal per bid, as ``experto`` bids."""


@dataclass(frozen=True, slots=True)
class Appraisal:
    """The ``candidates`` of a decision, best first (``points`` ``None`` when there
    was nothing to weigh), and the action ``taken`` with its points (``None`` when
    it was not valued: a renege, or a decision without a choice). ``samples``: the
    value of each candidate in each sampled deal (``None`` when nothing was weighed,
    or once dropped to keep a verdict small)."""

    candidates: tuple[Candidate, ...]
    taken: Candidate
    samples: Samples | None = field(default=None, compare=False, repr=False)

    def best(self) -> Candidate:
        """The candidate with the most points (the action taken when none has any)."""
        scored = [c for c in self.candidates if c.points is not None]
        if not scored:
            return self.taken
        return max(scored, key=lambda c: c.points if c.points is not None else 0.0)

    def loss(self) -> float | None:
        """Points lost by the action taken: best minus taken, never negative
        (``None`` when the action taken has no value, ``0`` without a choice)."""
        best = self.best()
        if best.points is None:
            return 0.0
        if self.taken.points is None:
            return None
        return max(0.0, best.points - self.taken.points)

    def error(self, better: Action, worse: Action) -> float | None:
        """The standard error of ``better``'s points minus ``worse``'s, paired over the
        same sampled deals (``0`` for the same action; ``None`` without samples of
        both)."""
        if better == worse:
            return 0.0
        s = self.samples
        if s is None or better not in s.values or worse not in s.values:
            return None
        return s.error(better, worse)

    def without(self, actions: Sequence[Action]) -> Appraisal:
        """The appraisal with ``actions`` no longer among the candidates (the action
        taken stays)."""
        kept = tuple(
            c for c in self.candidates if c.action not in actions or c.action == self.taken.action
        )
        return dataclasses.replace(self, candidates=kept)

    def slim(self) -> Appraisal:
        """The appraisal without its samples."""
        return dataclasses.replace(self, samples=None)


class Appraiser(ExpertRobot):
    """``experto``'s search asked for the value of every action, not for a choice.
    Deterministic for its seed and the view; a fresh one per decision."""

    def appraise(self, view: PlayerView, taken: Action) -> Appraisal:
        """The value of each action open to ``view.seat`` and of ``taken``."""
        if taken not in view.legal:
            raise ValueError(f"{taken!r} is not open to seat {view.seat} now")
        if isinstance(taken, Look) or (taken == Bid(BLIND_NIL) and view.held is None):
            return self._face_down(view, taken)
        if isinstance(taken, Bid):
            return self._bids(view, taken)
        if isinstance(taken, Play):
            return self._plays(view, taken)
        return _unweighed(taken)

    # play ---------------------------------------------------------------------------
    def _plays(self, view: PlayerView, taken: Play) -> Appraisal:
        card = int(taken.card)
        proper = int(view.proper_plays)
        runs, values, w, draws = self._play_values(view)
        if len(runs) == 1:
            if proper >> card & 1:
                return _unweighed(taken)
            return Appraisal((Candidate(Play(CARDS[runs[0]])), Candidate(taken)), Candidate(taken))
        points = (w[:, None] * values).sum(axis=0) / max(float(w.sum()), 1e-9)
        if not proper >> card & 1:  # a renege: the search weighs proper plays only
            scored = [
                Candidate(Play(CARDS[r]), float(p)) for r, p in zip(runs, points, strict=True)
            ]
            return Appraisal((*ranked(scored), Candidate(taken)), Candidate(taken))
        mine = _representative(runs, card)
        # each run stands as its lowest card (the same whatever the seed), the taken's as it
        actions: list[Action] = [taken if i == mine else Play(CARDS[r]) for i, r in enumerate(runs)]
        shown = [Candidate(a, float(p)) for a, p in zip(actions, points, strict=True)]
        samples = Samples({a: values[:, i] for i, a in enumerate(actions)}, w, draws)
        return Appraisal(ranked(shown), Candidate(taken, float(points[mine])), samples)

    # bids ---------------------------------------------------------------------------
    def _bids(self, view: PlayerView, taken: Bid) -> Appraisal:
        legal = [a.value for a in view.legal if isinstance(a, Bid)]
        numbers = [b for b in legal if isinstance(b, int) and b > 0]
        guide, _, _ = bid_and_reason(view)
        assert view.held is not None
        own = guide if isinstance(guide, int) and guide > 0 else None
        if own is None:
            own = max(1, round(estimate_tricks(int(view.held), view.rules)))
        deals, weights, drawn = self._deals_drawn(view, self._bid_samples())
        guessed = np.repeat(guess_bids(view, deals), REPEAT, axis=0)
        w = np.repeat(np.asarray(weights, dtype=np.float64), REPEAT)
        rows = np.repeat(deals, REPEAT, axis=0)
        options: dict[Action, np.ndarray] = {}
        if numbers:
            out = self._bid_playouts(view, rows, guessed, own)
            for b in numbers:
                options[Bid(b)] = _row_values(view, view, out, guessed, b)
        if 0 in legal:
            out = self._bid_playouts(view, rows, guessed, 0)
            options[Bid(0)] = _row_values(view, view, out, guessed, 0)
        return _appraisal(Samples(options, w, np.repeat(drawn, REPEAT)), taken)

    def _face_down(self, view: PlayerView, taken: Action) -> Appraisal:
        count = self._bid_samples()
        deals = _full_deals(view, count, self.rng)
        weights = bid_likelihoods(view, deals, Knowledge(view))
        guessed = np.repeat(guess_bids(view, deals), REPEAT, axis=0)
        w = np.repeat(np.asarray(weights, dtype=np.float64), REPEAT)
        rows = np.repeat(deals, REPEAT, axis=0)
        options: dict[Action, np.ndarray] = {}
        looked = self._bid_playouts(view, rows, guessed, None)
        options[Look(view.seat)] = _row_values(view, view, looked, guessed, None)
        if Bid(BLIND_NIL) in view.legal:
            bids = tuple(BLIND_NIL if s == view.seat else b for s, b in enumerate(view.bids))
            blind_view = dataclasses.replace(view, bids=bids)
            out = self._bid_playouts(view, rows, guessed, 0)
            options[Bid(BLIND_NIL)] = _row_values(view, blind_view, out, guessed, 0)
        draws = np.repeat(np.arange(count), REPEAT)
        return _appraisal(Samples(options, w, draws), taken)

    def nil_deals(self, view: PlayerView, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``count`` deals of every seat's cards (int64[count, n]) and their weights,
        as the bids are appraised: once the seat has looked, its own cards and the
        others' drawn by the evidence of the bids; before, every hand drawn."""
        if view.held is None:
            deals = _full_deals(view, count, self.rng)
            return deals, np.asarray(bid_likelihoods(view, deals, Knowledge(view)), dtype=float)
        return self._deals(view, count)

    def _bid_samples(self) -> int:
        return min(BID_SAMPLES, max(50, self.playouts // 10))

    def _bid_playouts(
        self, view: PlayerView, rows: np.ndarray, guessed: np.ndarray, own: int | None
    ) -> np.ndarray:
        """Trick counts of play-outs of ``rows`` from the first lead, the seat bidding
        ``own`` (``None``: its guessed bid) and the others their guessed bids."""
        rules = view.rules
        table = np.array(guessed, dtype=np.int64)
        if own is not None:
            table[:, view.seat] = own
        leader = (view.dealer + 1) % rules.players
        forced = first_lead_card(rules) if rules.first_lead == "two_of_clubs" else -1
        return self._run(view, rows, leader, [], 0, forced, table, None)


def mean_appraisal(appraisals: Sequence[Appraisal]) -> Appraisal:
    """The appraisals of one decision (searched with different seeds) averaged: each
    action's points are the mean of its points in every appraisal."""
    first = appraisals[0]

    def mean(action: Action) -> float | None:
        found = [c.points for a in appraisals for c in a.candidates if c.action == action]
        if len(found) != len(appraisals) or any(p is None for p in found):
            return None
        return sum(p for p in found if p is not None) / len(found)

    cands = ranked(Candidate(c.action, mean(c.action)) for c in first.candidates)
    unvalued = [c for c in cands if c.points is None]
    cands = (*(c for c in cands if c.points is not None), *unvalued)
    samples = pooled([a.samples for a in appraisals])
    return Appraisal(cands, Candidate(first.taken.action, mean(first.taken.action)), samples)


def _unweighed(taken: Action) -> Appraisal:
    return Appraisal((Candidate(taken),), Candidate(taken))


def _appraisal(samples: Samples, taken: Action) -> Appraisal:
    """The appraisal of the actions ``samples`` weighed: each worth its weighted mean
    (summed in row order, as ``experto`` sums its bids)."""
    w = samples.weights.tolist()
    total = max(float(samples.weights.sum()), 1e-9)
    options: list[tuple[Action, float]] = []
    for action, v in samples.values.items():
        summed = 0.0
        for weight, value in zip(w, v.tolist(), strict=True):
            summed += weight * value
        options.append((action, summed / total))
    cands = ranked(Candidate(a, p) for a, p in options)
    points = next((c.points for c in cands if c.action == taken), None)
    if points is None:
        cands = (*cands, Candidate(taken))
    return Appraisal(cands, Candidate(taken, points), samples)


def _row_values(
    view: PlayerView,
    scoring_view: PlayerView,
    out: np.ndarray,
    guessed: np.ndarray,
    own: int | None,
) -> np.ndarray:
    """The value for ``view.seat``'s side of each row of trick counts ``out``, with
    the bids ``guessed`` by row (the seat's replaced by ``own`` unless ``None``),
    blind nils as ``scoring_view`` shows them (float64[rows])."""
    values: dict[tuple[int, ...], Value] = {}
    found: list[float] = []
    for row, deal_bids in zip(out.tolist(), guessed.tolist(), strict=True):
        if own is not None:
            deal_bids[view.seat] = own
        key = tuple(deal_bids)
        fn = values.get(key)
        if fn is None:
            fn = values[key] = value_for(scoring_view, deal_bids)
        found.append(fn(tuple(row)))
    return np.array(found, dtype=np.float64)


def _full_deals(view: PlayerView, count: int, rng: random.Random) -> np.ndarray:
    """``count`` deals of every unseen card, the seat's own included (int64[count, n]):
    what a seat that has not looked may hold. Nothing is played before the bids,
    so any deal of the unseen cards fits the view."""
    unseen = Knowledge(view).unseen
    cards = [c for c in range(64) if unseen >> c & 1]
    sizes = view.cards_left
    out = np.zeros((count, len(sizes)), dtype=np.int64)
    for i in range(count):
        rng.shuffle(cards)
        at = 0
        for s, size in enumerate(sizes):
            mask = 0
            for c in cards[at : at + size]:
                mask |= 1 << c
            out[i, s] = mask
            at += size
    return out
