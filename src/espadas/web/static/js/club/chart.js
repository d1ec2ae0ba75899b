// A rating's history as an inline SVG chart (the rating as a line, its
// uncertainty as a band around it), with the same numbers as a table for those
// who do not see the chart: the chart says its first, last, lowest and highest
// values; the table, in a disclosure under it, lists the latest games.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { dateText, ratingText } from "./format.js";

const WIDTH = 320;
const HEIGHT = 150;
const LEFT = 40;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 22;
const TABLE_ROWS = 50;

function scale(history) {
  const lows = history.map((p) => p.rating - p.uncertainty);
  const highs = history.map((p) => p.rating + p.uncertainty);
  let min = Math.min(...lows);
  let max = Math.max(...highs);
  if (max - min < 50) {
    min -= 25;
    max += 25;
  }
  const steps = Math.max(1, history.length - 1);
  const x = history.length === 1 ? () => (LEFT + WIDTH - RIGHT) / 2 : (i) => LEFT + (i * (WIDTH - LEFT - RIGHT)) / steps;
  const y = (value) => TOP + ((max - value) * (HEIGHT - TOP - BOTTOM)) / (max - min);
  return { min, max, x, y };
}

function summary(history) {
  const ratings = history.map((p) => p.rating);
  const first = history[0];
  const last = history[history.length - 1];
  return t("chart.summary", {
    n: history.length,
    first: first.rating,
    last: ratingText(last.rating, last.uncertainty),
    low: Math.min(...ratings),
    high: Math.max(...ratings),
  });
}

function svg(history, id, title) {
  const { min, max, x, y } = scale(history);
  const fmt = (v) => v.toFixed(1);
  const line = history.map((p, i) => `${fmt(x(i))},${fmt(y(p.rating))}`).join(" ");
  const upper = history.map((p, i) => `${fmt(x(i))},${fmt(y(p.rating + p.uncertainty))}`);
  const lower = history.map((p, i) => `${fmt(x(i))},${fmt(y(p.rating - p.uncertainty))}`).reverse();
  // a single game: a dot with its uncertainty as a bar, there is no line to draw
  const one = history[0];
  const dot = history.length === 1
    ? `<line class="rating-bar" x1="${fmt(x(0))}" x2="${fmt(x(0))}" y1="${fmt(y(one.rating + one.uncertainty))}" y2="${fmt(y(one.rating - one.uncertainty))}"/><circle class="rating-dot" cx="${fmt(x(0))}" cy="${fmt(y(one.rating))}" r="3.5"/>`
    : "";
  const bottom = HEIGHT - BOTTOM;
  const labels = [
    `<text class="chart-label" x="${LEFT - 4}" y="${TOP + 4}" text-anchor="end">${Math.round(max)}</text>`,
    `<text class="chart-label" x="${LEFT - 4}" y="${bottom}" text-anchor="end">${Math.round(min)}</text>`,
    history.length === 1
      ? `<text class="chart-label" x="${fmt(x(0))}" y="${HEIGHT - 6}" text-anchor="middle">${escapeHtml(t("chart.nth", { n: 1 }))}</text>`
      : `<text class="chart-label" x="${LEFT}" y="${HEIGHT - 6}">${escapeHtml(t("chart.nth", { n: 1 }))}</text>`,
  ];
  if (history.length > 1) {
    labels.push(`<text class="chart-label" x="${WIDTH - RIGHT}" y="${HEIGHT - 6}" text-anchor="end">${escapeHtml(t("chart.nth", { n: history.length }))}</text>`);
  }
  return `<svg class="rating-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">${escapeHtml(title)}</title><desc id="${id}-desc">${escapeHtml(summary(history))}</desc>
<line class="axis" x1="${LEFT}" x2="${LEFT}" y1="${TOP}" y2="${bottom}"/><line class="axis" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${bottom}" y2="${bottom}"/>
<polygon class="rating-band" points="${[...upper, ...lower].join(" ")}"/>
<polyline class="rating-line" points="${line}"/>${dot}${labels.join("")}</svg>`;
}

function table(history, id, title) {
  const start = Math.max(0, history.length - TABLE_ROWS);
  const rows = history
    .slice(start)
    .map((p, i) => `<tr><td>${start + i + 1}</td><td>${escapeHtml(dateText(p.at))}</td><td>${escapeHtml(ratingText(p.rating, p.uncertainty))}</td>
<td><a href="/mesa/${escapeHtml(p.table)}/repeticion">${escapeHtml(t("chart.replay"))}</a></td></tr>`)
    .reverse()
    .join("");
  const caption = history.length > TABLE_ROWS ? t("chart.latest", { n: TABLE_ROWS }) : title;
  return `<details class="chart-data"><summary>${escapeHtml(t("chart.data"))}</summary>
<div class="table-scroll" tabindex="0" role="region" aria-labelledby="${id}-caption">
<table class="club-table"><caption id="${id}-caption">${escapeHtml(caption)}</caption>
<thead><tr><th scope="col">${escapeHtml(t("chart.game"))}</th><th scope="col">${escapeHtml(t("chart.date"))}</th>
<th scope="col">${escapeHtml(t("club.rating_head"))}</th><th scope="col">${escapeHtml(t("chart.table"))}</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}

// the chart and its table for one kind of rating; nothing while it has no history
export function historyChart(history, id, title) {
  if (!history || history.length === 0) return "";
  return `<figure class="rating-figure">${svg(history, id, title)}</figure>${table(history, id, title)}`;
}
