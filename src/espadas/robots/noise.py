"""How far a search's estimate may be off: the values each candidate action got in
every sampled deal, and the standard error of the difference between two of them.

A search (:mod:`espadas.robots.appraisal`) values every candidate over the same
sampled deals, so two candidates are compared deal by deal (paired): the
difference of their means is the mean of the per-deal differences, and its
standard error comes from how those differences spread. One draw of the hidden
cards may stand in several rows: ``experto`` draws eight times the deals it
needs and keeps them in proportion to how well they fit the evidence, so a
likely draw is kept more than once, and a bid plays each deal out twice. The
rows of one draw are not independent: they count as one cluster (the
cluster-robust estimate of a weighted mean's variance, which for a resampled
estimate is the variance of the weighted mean of the draws), and never less than
if every row were independent.

>>> import numpy as np
>>> from espadas.engine import Bid
>>> s = Samples({Bid(2): np.array([10.0, 12.0, 9.0, 11.0]),
...              Bid(3): np.array([4.0, 8.0, 7.0, 5.0])}, np.ones(4), np.arange(4))
>>> s.mean(Bid(2)) - s.mean(Bid(3)), round(s.error(Bid(2), Bid(3)), 3)
(4.5, 0.957)
>>> s.error(Bid(2), Bid(2))
0.0

Four rows that are two draws kept twice each know less than four draws:

>>> values = {Bid(2): np.array([10.0, 10.0, 9.0, 9.0]), Bid(3): np.array([4.0, 4.0, 7.0, 7.0])}
>>> four = Samples(values, np.ones(4), np.arange(4))
>>> two = Samples(values, np.ones(4), np.array([0, 0, 1, 1]))
>>> round(four.error(Bid(2), Bid(3)), 3), round(two.error(Bid(2), Bid(3)), 3)
(1.155, 2.0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from espadas.engine import Action


@dataclass(frozen=True, eq=False)
class Samples:
    """The value of each candidate (``values[action]``, float64[rows]) in each row,
    the rows' ``weights`` and the draw of the hidden cards each row was played on
    (``draws``, int64[rows]: the rows of one draw form one cluster)."""

    values: Mapping[Action, np.ndarray]
    weights: np.ndarray
    draws: np.ndarray

    def mean(self, action: Action) -> float:
        """The weighted mean value of ``action`` over the rows."""
        w = self.weights
        return float((w * self.values[action]).sum() / max(float(w.sum()), 1e-12))

    def error(self, a: Action, b: Action) -> float:
        """The standard error of ``mean(a) - mean(b)``, paired row by row (see the
        module): the larger of the cluster-robust estimate (rows of one deal as one
        cluster) and the estimate that takes every row as independent."""
        w = self.weights
        rows = len(w)
        if a == b or rows < 2:
            return 0.0
        d = self.values[a] - self.values[b]
        total = max(float(w.sum()), 1e-12)
        r = w * (d - float((w * d).sum()) / total)
        plain = float((r * r).sum()) * rows / (rows - 1)
        _, groups = np.unique(self.draws, return_inverse=True)
        groups = np.asarray(groups).reshape(-1)
        count = int(groups.max()) + 1
        variance = plain
        if count >= 2:
            sums = np.bincount(groups, weights=r, minlength=count)
            variance = max(variance, float((sums * sums).sum()) * count / (count - 1))
        return float(np.sqrt(variance)) / total


def pooled(parts: Sequence[Samples | None]) -> Samples | None:
    """The rows of several searches of one decision together (``None`` if one has
    no samples or they weighed different actions), each search's draws apart from
    the others'. Each search's weights are scaled to sum to its number of rows, so
    each counts as its rows do: with as many rows each, the pooled mean is the mean
    of the searches' means."""
    found = [p for p in parts if p is not None]
    if not found or len(found) < len(parts):
        return None
    actions = set(found[0].values)
    if any(set(p.values) != actions for p in found):
        return None
    scaled = [p.weights * (len(p.weights) / max(float(p.weights.sum()), 1e-12)) for p in found]
    values = {a: np.concatenate([p.values[a] for p in found]) for a in found[0].values}
    draws, offset = [], 0
    for p in found:
        draws.append(p.draws + offset)
        offset += int(p.draws.max()) + 1 if len(p.draws) else 0
    return Samples(values, np.concatenate(scaled), np.concatenate(draws))
