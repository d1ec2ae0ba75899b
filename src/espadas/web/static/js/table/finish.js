// The end of the game: the rematch buttons, the winner and reason, the reviewed
// accusation, the chart of the score, the links to the record and the replay, and
// the analysis of the game (started here, shown on the replay page).
import { analysisControls } from "../analysis/progress.js";
import { cardName, seatLabel, sideName, t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { shortSide } from "./board.js";
import { button, rematch } from "./commands.js";
import { eventOf, renderRoundOver, roundOver } from "./event.js";
import { $, reasonText, sideOrder } from "./view.js";

// A daily challenge's table (``reto-YYYYMMDD-…``): its day, else null.
export function challengeDay(v) {
  const found = /^reto-(\d{4})(\d{2})(\d{2})-/.exec(v.id);
  return found ? `${found[1]}-${found[2]}-${found[3]}` : null;
}

export function renderFinished(v, box) {
  const g = v.game;
  if (!g || !g.result) return;
  const day = challengeDay(v);
  if (day) {
    // the challenge is done: no rematch, the way to the day's standings
    const a = document.createElement("a");
    a.href = `/reto/${day}`;
    a.textContent = t("challenge.to_standings");
    a.className = "button primary challenge-standings";
    box.appendChild(a);
    return;
  }
  if (eventOf(v)) {
    // an event's table: no rematch; the way back to the event and on to the next round
    renderRoundOver(v, box);
    return;
  }
  if (v.rematch) {
    const a = document.createElement("a");
    a.href = `/mesa/${v.rematch}`;
    a.textContent = t("action.to_rematch");
    a.className = "button primary";
    box.appendChild(a);
  } else if (v.creator) {
    box.appendChild(button(t("action.rematch_keep"), () => rematch(null), "primary"));
    if (v.options.partnerships) {
      for (const seat of [1, 3]) {
        box.appendChild(button(t("action.rematch_with", { name: seatLabel(v, seat) }), () => rematch(seat)));
      }
    }
  }
}

function chartSvg(v) {
  // yours first, in the first colour (as in the score bar)
  const order = sideOrder(v);
  const sides = order.map((i) => v.game.sides[i]);
  const points = order.map((i) => [0, ...v.sheet.map((row) => row.totals[i])]);
  const all = points.flat();
  const min = Math.min(0, ...all);
  const goal = challengeDay(v) || eventOf(v) ? null : v.options.target; // no target in reach there
  const max = Math.max(goal ?? 0, ...all);
  const width = 320;
  const height = 166 + sides.length * 14; // the legend: one side a row, under the lines
  const steps = Math.max(1, v.sheet.length);
  const x = (i) => 30 + (i * (width - 40)) / steps;
  const y = (value) => 10 + ((max - value) * 150) / (max - min || 1);
  const lines = points
    .map((series, i) => {
      const path = series.map((value, k) => `${x(k).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
      return `<polyline class="line line-${i}" points="${path}" fill="none"/>`;
    })
    .join("");
  const legend = sides
    // short names (Nosotros, Ellos), so that a line fits the chart's width; the profiles below name everyone
    .map((side, i) => `<text class="legend line-${i}" x="34" y="${176 + i * 14}">${escapeHtml(shortSide(v, side))}: ${points[i][points[i].length - 1]}</text>`)
    .join("");
  const zero = `<line class="axis" x1="30" x2="${width - 10}" y1="${y(0)}" y2="${y(0)}"/>`;
  const target = goal === null ? "" : `<line class="target" x1="30" x2="${width - 10}" y1="${y(goal)}" y2="${y(goal)}"/>`;
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title">
<title id="chart-title">${escapeHtml(t("result.chart"))}</title>${zero}${target}${lines}${legend}</svg>`;
}

let analysisBox = null; // kept across renders: its progress goes on

function analysisPart(v) {
  if (!analysisBox || analysisBox.dataset.table !== v.id) {
    analysisBox = document.createElement("div");
    analysisBox.dataset.table = v.id;
    analysisBox.className = "result-analysis";
    const link = document.createElement("a");
    link.href = `/mesa/${v.id}/repeticion#analysis`;
    link.textContent = t("analysis.see");
    link.hidden = true;
    analysisBox.appendChild(analysisControls(v.id, () => (link.hidden = false)));
    analysisBox.appendChild(link);
  }
  return analysisBox;
}

export function renderResult(v) {
  const g = v.game;
  const box = $("result");
  if (!g || !g.result) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const result = g.result;
  // an event's round played out has no winner at the table: the event ranks it
  let html = roundOver(v)
    ? `<h2 id="result-title">${escapeHtml(t("event_table.over_title"))}</h2>
<p>${escapeHtml(t("event_table.over_about"))}</p>`
    : `<h2 id="result-title">${escapeHtml(t("result.title"))}</h2>
<p>${escapeHtml(t("result.winner", { side: sideName(v, result.winner), reason: reasonText(result.reason) }))}</p>`;
  const day = challengeDay(v);
  if (day) {
    html += `<p class="challenge-done">${escapeHtml(t("challenge.table_done"))}
 <a href="/reto/${day}">${escapeHtml(t("challenge.to_standings"))}</a></p>`;
  }
  if (v.review) {
    const r = v.review;
    html += `<h3>${escapeHtml(t("review.title"))}</h3><p>${escapeHtml(t(r.true ? "review.true" : "review.false", { by: seatLabel(v, r.by), against: seatLabel(v, r.against) }))}</p><ol class="review">`;
    for (const trick of r.tricks) {
      const cards = trick.cards.map((c) => (trick.reneges.includes(c) ? `<strong>${escapeHtml(cardName(c))} (${escapeHtml(t("review.renege"))})</strong>` : escapeHtml(cardName(c))));
      html += `<li>${cards.join(", ")}</li>`;
    }
    html += "</ol>";
  }
  if (v.sheet.length) html += chartSvg(v);
  // each seat's profile (the site redirects to the person or robot who sat there)
  const profiles = v.seats
    .map((seat, i) => (seat ? `<a href="/mesa/${escapeHtml(v.id)}/asiento/${i}">${escapeHtml(seatLabel(v, i))}</a>` : ""))
    .filter(Boolean);
  if (profiles.length) html += `<p class="profiles">${escapeHtml(t("result.profiles"))} ${profiles.join(", ")}</p>`;
  html += `<p><a href="/api/tables/${escapeHtml(v.id)}/record" download>${escapeHtml(t("result.download"))}</a>
 · <a href="/mesa/${escapeHtml(v.id)}/repeticion">${escapeHtml(t("result.replay"))}</a></p>`;
  box.innerHTML = html;
  box.appendChild(analysisPart(v));
}
