"""Small statistics for the arena: mean, Student-t confidence intervals, percentiles.

Standard library only. The t quantile is computed exactly for integer degrees of
freedom (the closed-form Student t distribution function of Abramowitz & Stegun
26.7.3–4, inverted by bisection) up to 200 degrees of freedom, and by the
Cornish–Fisher expansion around the normal quantile beyond (error below 1e-6).

>>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 10), 3)
(12.706, 2.228)
>>> round(t_quantile(0.975, 30), 3), round(t_quantile(0.975, 1000), 3)
(2.042, 1.962)
>>> mean([1.0, 2.0, 6.0])
3.0
>>> low, high = confidence_interval([1.0, 2.0, 6.0])
>>> round(low, 2), round(high, 2)
(-3.57, 9.57)
>>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([5.0], 95)
(2.5, 5.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

_EXACT_UP_TO = 200
"""Degrees of freedom up to which :func:`t_cdf` sums its exact series."""


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; raises ``ValueError`` for no values."""
    if not values:
        raise ValueError("the mean of no values is undefined")
    return math.fsum(values) / len(values)


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (n − 1 in the denominator); 0.0 below 2 values.

    >>> sample_sd([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) == (32 / 7) ** 0.5
    True
    """
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(math.fsum((v - m) ** 2 for v in values) / (n - 1))


def t_cdf(t: float, df: int) -> float:
    """P(T ≤ t) for Student's t with ``df`` (integer ≥ 1) degrees of freedom.

    >>> t_cdf(0.0, 5), round(t_cdf(12.706, 1), 4), round(t_cdf(-2.228, 10), 4)
    (0.5, 0.975, 0.025)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if t < 0:
        return 1.0 - t_cdf(-t, df)
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2 == 1:
        # A = 2/π (θ + sinθ cosθ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + … ))
        term = 1.0
        total = 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        a = 2 / math.pi * (theta + s * math.cos(theta) * total)
    else:
        # A = sinθ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + … )
        term = 1.0
        total = 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        a = s * total
    return (1.0 + a) / 2


@lru_cache(maxsize=1024)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (0 < p < 1)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p}")
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    z = NormalDist().inv_cdf(p)
    if df > _EXACT_UP_TO:
        v = float(df)
        return (
            z
            + (z**3 + z) / (4 * v)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        )
    low, high = z, max(2 * z, 1.0)
    while t_cdf(high, df) < p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2


def half_width(values: Sequence[float], level: float = 0.95) -> float | None:
    """Half the width of the Student-t confidence interval of the mean; ``None`` below
    two values (one value says nothing about spread).

    >>> half_width([3.0, 3.0, 3.0]), half_width([1.0]) is None
    (0.0, True)
    """
    n = len(values)
    if n < 2:
        return None
    return t_quantile((1 + level) / 2, n - 1) * sample_sd(values) / math.sqrt(n)


def confidence_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float] | None:
    """The Student-t confidence interval of the mean at ``level``; ``None`` below two
    values."""
    h = half_width(values, level)
    if h is None:
        return None
    m = mean(values)
    return (m - h, m + h)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), interpolated linearly between closest ranks
    (numpy's default method). Raises ``ValueError`` for no values.

    >>> percentile([10.0, 20.0, 30.0], 0), percentile([10.0, 20.0, 30.0], 100)
    (10.0, 30.0)
    """
    if not values:
        raise ValueError("the percentile of no values is undefined")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be within 0..100, not {q}")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    below = math.floor(pos)
    above = min(below + 1, len(ordered) - 1)
    frac = pos - below
    return ordered[below] + (ordered[above] - ordered[below]) * frac


@dataclass
class Running:
    """Mean and spread of a stream of values (Welford's method), for progress bars and
    running charts.

    >>> r = Running()
    >>> for v in (1.0, 2.0, 6.0):
    ...     r.add(v)
    >>> r.n, r.mean, round(r.half_width() or 0, 2)
    (3, 3.0, 6.57)
    """

    n: int = 0
    mean: float = 0.0
    _m2: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (value - self.mean)

    @property
    def sd(self) -> float:
        """The sample standard deviation so far (0.0 below two values)."""
        return math.sqrt(self._m2 / (self.n - 1)) if self.n > 1 else 0.0

    def half_width(self, level: float = 0.95) -> float | None:
        """Half-width of the t interval of the mean so far; ``None`` below two values."""
        if self.n < 2:
            return None
        return t_quantile((1 + level) / 2, self.n - 1) * self.sd / math.sqrt(self.n)
