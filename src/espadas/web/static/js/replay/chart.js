// The expected score over the game for one seat's side, after each of its
// decisions: the score before the hand (the side's total minus the best other
// side's) plus what the search expects the side to make of the hand with the
// action taken. An inline SVG, and the same figures in a table.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { points } from "../analysis/progress.js";

function sideOf(seat, sides, players) {
  return sides.length === players ? seat : seat % sides.length;
}

function margin(totals, side) {
  const others = totals.filter((_, i) => i !== side);
  return totals[side] - (others.length ? Math.max(...others) : 0);
}

// The charted points of `seat`: {hand, value, mark, loss} after each decision with a value.
export function expectedScores(data, decisions, seat) {
  const players = data.players.length;
  const sides = data.steps[0].sides;
  const side = sideOf(seat, sides, players);
  const out = [];
  for (const d of decisions) {
    const taken = d.candidates.find((c) => c.action === d.taken);
    if (!taken || taken.points === null) continue;
    const before = d.hand === 0 ? sides.map(() => 0) : data.sheet[d.hand - 1].totals;
    out.push({ hand: d.hand, value: margin(before, side) + taken.points, mark: d.mark, loss: d.loss });
  }
  return out;
}

export function chartHtml(series, seatName) {
  if (!series.length) return "";
  const width = 320;
  const height = 170;
  const values = series.map((p) => p.value);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const x = (i) => 34 + (i * (width - 44)) / Math.max(1, series.length - 1);
  const y = (v) => 10 + ((max - v) * 140) / (max - min || 1);
  const path = series.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  const dots = series
    .map((p, i) => (p.mark ? `<circle class="dot mark-${p.mark}" cx="${x(i).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="4"/>` : ""))
    .join("");
  const hands = series
    .map((p, i) => (i > 0 && p.hand !== series[i - 1].hand ? `<line class="hand-line" x1="${x(i - 0.5).toFixed(1)}" x2="${x(i - 0.5).toFixed(1)}" y1="10" y2="150"/>` : ""))
    .join("");
  const title = t("analysis.chart", { seat: seatName });
  return `<svg class="chart expected" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="expected-title" aria-describedby="expected-about">
<title id="expected-title">${escapeHtml(title)}</title>
<line class="axis" x1="34" x2="${width - 10}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"/>${hands}
<polyline class="line line-0" points="${path}" fill="none"/>${dots}
<text class="legend" x="0" y="${(y(max) + 4).toFixed(1)}">${Math.round(max)}</text>
<text class="legend" x="0" y="${(y(min) + 4).toFixed(1)}">${Math.round(min)}</text>
<text class="legend" x="34" y="166">${escapeHtml(t("analysis.chart_axis"))}</text>
</svg><p id="expected-about" class="chart-about">${escapeHtml(t("analysis.chart_about"))}</p>`;
}

// The chart in figures: per hand, the expected score at its first and last
// decision, the points lost and the marks.
export function chartTable(series, decisions) {
  const rows = [];
  for (const hand of [...new Set(series.map((p) => p.hand))]) {
    const mine = series.filter((p) => p.hand === hand);
    const lost = decisions.filter((d) => d.hand === hand).reduce((sum, d) => sum + (d.loss || 0), 0);
    const marks = ["inaccuracy", "mistake", "blunder"]
      .map((m) => [m, mine.filter((p) => p.mark === m).length])
      .filter(([, n]) => n)
      .map(([m, n]) => `${n} × ${t(`ui.analysis.mark.${m}`)}`)
      .join(", ");
    rows.push(`<tr><th scope="row">${hand + 1}</th><td>${points(mine[0].value)}</td><td>${points(mine[mine.length - 1].value)}</td><td>${points(lost)}</td><td>${escapeHtml(marks || "—")}</td></tr>`);
  }
  return `<details class="chart-figures"><summary>${escapeHtml(t("analysis.chart_table"))}</summary>
<table class="sheet"><thead><tr><th scope="col">${escapeHtml(t("analysis.col_hand"))}</th><th scope="col">${escapeHtml(t("analysis.col_start"))}</th><th scope="col">${escapeHtml(t("analysis.col_end"))}</th><th scope="col">${escapeHtml(t("analysis.col_lost"))}</th><th scope="col">${escapeHtml(t("analysis.col_marks"))}</th></tr></thead>
<tbody>${rows.join("")}</tbody></table></details>`;
}
