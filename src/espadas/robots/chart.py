"""A line chart with an interval band, written as a standalone SVG file (no
dependencies): the arena's running mean margin with its 95 % interval.

>>> svg = line_chart([1, 2, 3], [4.0, -1.0, 2.0], [None, -9.0, -3.0], [None, 7.0, 7.0],
...                  title="A − B", x_label="deals", y_label="points")
>>> svg.startswith("<svg") and "<polyline" in svg and "<polygon" in svg
True
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(svg).tag
'{http://www.w3.org/2000/svg}svg'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

MAX_POINTS = 2000
"""Longer series are thinned to about this many points (the last one always kept)."""


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """About ``count`` round tick values (steps of 1, 2 or 5 times a power of ten)
    covering ``low..high``.

    >>> nice_ticks(0, 100)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> nice_ticks(-13, 7, 5)
    [-15.0, -10.0, -5.0, 0.0, 5.0, 10.0]
    """
    if not high > low:
        high = low + 1
    raw = (high - low) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks: list[float] = []
    k = 0
    while True:
        value = first + k * step
        ticks.append(round(value, 10) + 0.0)
        if value >= high - 1e-9 * step:
            return ticks
        k += 1


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _label(value: float) -> str:
    text = f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"
    return text.replace("-", "−")


def _thin(n: int) -> list[int]:
    if n <= MAX_POINTS:
        return list(range(n))
    step = math.ceil(n / MAX_POINTS)
    keep = list(range(0, n, step))
    if keep[-1] != n - 1:
        keep.append(n - 1)
    return keep


def line_chart(
    xs: Sequence[float],
    ys: Sequence[float],
    lows: Sequence[float | None] | None = None,
    highs: Sequence[float | None] | None = None,
    *,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    width: int = 800,
    height: int = 450,
    band_range_from: int = 0,
) -> str:
    """The SVG text of a line chart of ``ys`` over ``xs``, with a shaded band between
    ``lows`` and ``highs`` where both are given (``None`` leaves a gap), axes with
    ticks and labels, and a dashed zero line when 0 is in range.

    The y range covers the series, 0, and the band from point ``band_range_from`` on
    (the first intervals of a running mean are very wide); the band is clipped to
    the plot."""
    n = len(xs)
    if n == 0 or len(ys) != n:
        raise ValueError("a chart needs as many y values as x values, and at least one")
    lo_band = list(lows) if lows is not None else [None] * n
    hi_band = list(highs) if highs is not None else [None] * n
    if len(lo_band) != n or len(hi_band) != n:
        raise ValueError("the band needs one low and one high per point")
    keep = _thin(n)
    values = [ys[i] for i in keep]
    values += [
        v for i in keep if i >= band_range_from for v in (lo_band[i], hi_band[i]) if v is not None
    ]
    y_ticks = nice_ticks(min(0.0, *values), max(0.0, *values))
    x_ticks = nice_ticks(min(xs[0], xs[-1]), max(xs[0], xs[-1]))
    x0, x1 = x_ticks[0], x_ticks[-1]
    y0, y1 = y_ticks[0], y_ticks[-1]
    left, right, top, bottom = 70, 20, 40, 55
    plot_w, plot_h = width - left - right, height - top - bottom

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def py(y: float) -> float:
        return top + (y1 - min(max(y, y0), y1)) / (y1 - y0) * plot_h

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    # grid and ticks
    for t in y_ticks:
        y = _fmt(py(t))
        out.append(f'<line x1="{left}" y1="{y}" x2="{left + plot_w}" y2="{y}" stroke="#e5e5e5"/>')
        out.append(
            f'<text x="{left - 6}" y="{y}" text-anchor="end" dominant-baseline="middle">'
            f"{escape(_label(t))}</text>"
        )
    for t in x_ticks:
        x = _fmt(px(t))
        out.append(
            f'<line x1="{x}" y1="{top + plot_h}" x2="{x}" y2="{top + plot_h + 5}" stroke="#333"/>'
        )
        out.append(
            f'<text x="{x}" y="{top + plot_h + 18}" text-anchor="middle">{escape(_label(t))}</text>'
        )
    # band: one polygon per run of points that have both ends
    run: list[int] = []
    runs: list[list[int]] = []
    for i in keep:
        if lo_band[i] is not None and hi_band[i] is not None:
            run.append(i)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    for r in runs:
        upper = [f"{_fmt(px(xs[i]))},{_fmt(py(hi_band[i] or 0.0))}" for i in r]
        lower = [f"{_fmt(px(xs[i]))},{_fmt(py(lo_band[i] or 0.0))}" for i in reversed(r)]
        out.append(
            f'<polygon class="band" points="{" ".join(upper + lower)}" '
            'fill="#4a90d9" fill-opacity="0.25" stroke="none"/>'
        )
    # zero line, then the series
    if y0 <= 0 <= y1:
        z = _fmt(py(0))
        out.append(
            f'<line class="zero" x1="{left}" y1="{z}" x2="{left + plot_w}" y2="{z}" '
            'stroke="#c00" stroke-dasharray="4 3"/>'
        )
    points = " ".join(f"{_fmt(px(xs[i]))},{_fmt(py(ys[i]))}" for i in keep)
    out.append(
        f'<polyline class="series" points="{points}" fill="none" stroke="#1f5fa8" '
        'stroke-width="1.5"/>'
    )
    # axes and labels
    out.append(
        f'<path d="M{left},{top} V{top + plot_h} H{left + plot_w}" fill="none" stroke="#333"/>'
    )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{height - 12}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    cy = top + plot_h / 2
    out.append(
        f'<text x="16" y="{cy}" text-anchor="middle" transform="rotate(-90 16 {cy})">'
        f"{escape(y_label)}</text>"
    )
    out.append(
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_chart(
    path: str | Path,
    xs: Sequence[float],
    ys: Sequence[float],
    lows: Sequence[float | None] | None = None,
    highs: Sequence[float | None] | None = None,
    *,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    band_range_from: int = 0,
) -> None:
    """Writes :func:`line_chart` to ``path`` (UTF-8)."""
    svg = line_chart(
        xs,
        ys,
        lows,
        highs,
        title=title,
        x_label=x_label,
        y_label=y_label,
        band_range_from=band_range_from,
    )
    Path(path).write_text(svg, encoding="utf-8")
