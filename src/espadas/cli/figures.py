"""The figures of a load test's report: latency quantiles in milliseconds, and each
server's memory growth per minute.

>>> quantiles([0.001, 0.002, 0.003])["max"]
3.0
"""

from __future__ import annotations

from espadas.robots.stats import percentile


def quantiles(values: list[float]) -> dict[str, float | None]:
    """p50, p95, p99 and the largest of ``values`` (seconds) in milliseconds."""
    ms = [v * 1000 for v in values]
    shown: dict[str, float | None] = {
        f"p{q}": round(percentile(ms, q), 2) if ms else None for q in (50, 95, 99)
    }
    shown["max"] = round(max(ms), 2) if ms else None
    return shown


def growth(samples: list[tuple[float, list[float]]]) -> list[float | None]:
    """Each server's memory growth in MB per minute after the first minute (the
    slope of a least-squares line through the samples; None: too few samples).

    >>> growth([(0, [100.0]), (60, [200.0]), (90, [203.0]), (120, [206.0])])
    [6.0]
    """
    late = [(t, sizes) for t, sizes in samples if t >= 60]
    if len(late) < 3:
        return [None] * len(samples[0][1])
    growth: list[float | None] = []
    for i in range(len(late[0][1])):
        points = [(t / 60, sizes[i]) for t, sizes in late if sizes[i] > 0]
        if len(points) < 3:
            growth.append(None)
            continue
        mean_t = sum(t for t, _ in points) / len(points)
        mean_m = sum(m for _, m in points) / len(points)
        spread = sum((t - mean_t) ** 2 for t, _ in points)
        slope = sum((t - mean_t) * (m - mean_m) for t, m in points) / spread
        growth.append(round(slope, 2))
    return growth
