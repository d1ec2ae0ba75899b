// The analysis on the replay page: the chosen seat's decisions at the step shown
// (mark, points lost, the better card or bid), its summary, its marked decisions
// (each a button to its step) and the chart of its expected score.
import { bidName, cardName, t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { analysisControls, points } from "../analysis/progress.js";
import { chartHtml, chartTable, expectedScores } from "./chart.js";

let analysis = null;
let seat = 0;
let ctx = null; // { tableId, data, name, go, you }
let shownStep = null;

const $ = (id) => document.getElementById(id);

// 0 for the bids (and the look before them), else the trick of a play.
export function trickOf(d, players) {
  return d.action < players ? 0 : Math.floor((d.action - players) / players) + 1;
}

function actionName(action) {
  if (action === "look") return t("analysis.look");
  if (typeof action === "number" || action === "blind_nil") return bidName(action);
  return cardName(action);
}

function takenText(d) {
  if (d.taken === "look") return t("analysis.looked");
  if (typeof d.taken === "number" || d.taken === "blind_nil") return t("analysis.bid", { bid: bidName(d.taken) });
  return t("analysis.played", { card: cardName(d.taken) });
}

function markName(mark) {
  return t(`ui.analysis.mark.${mark}`);
}

// The points lost and, when the analysis gives it, their standard error: "12,4 ± 3,1".
function lossText(d) {
  const error = d.loss_error === undefined || d.loss_error === null ? "" : ` ± ${points(d.loss_error)}`;
  return `${points(d.loss)}${error}`;
}

function betterText(d) {
  const params = { action: actionName(d.best), loss: lossText(d) };
  if (d.nil_chance === undefined || d.nil_chance === null) return t("analysis.better", params);
  return t("analysis.better_nil", { ...params, chance: Math.round(100 * d.nil_chance) });
}

export function decisionText(d) {
  const taken = takenText(d);
  if (d.loss === null) return `${taken}: ${markName(d.mark || "blunder")}`;
  if (d.mark) return `${taken} — ${betterText(d)}: ${markName(d.mark)}`;
  return `${taken}: ${t("analysis.good")}`;
}

function mine() {
  return analysis ? analysis.decisions.filter((d) => d.seat === seat) : [];
}

function item(d, withPlace) {
  const li = document.createElement("li");
  if (d.mark) li.className = `mark mark-${d.mark}`;
  const text = decisionText(d);
  if (!withPlace) {
    li.textContent = text;
    return li;
  }
  const players = ctx.data.players.length;
  const trick = trickOf(d, players);
  const place = trick ? t("analysis.at_trick", { hand: d.hand + 1, trick }) : t("analysis.at_bid", { hand: d.hand + 1 });
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = `${place}: ${text}`;
  const index = ctx.data.steps.findIndex((s) => s.hand_number === d.hand + 1 && s.trick_number === trick);
  button.addEventListener("click", () => ctx.go(index, true));
  li.appendChild(button);
  return li;
}

function renderSeat() {
  const decisions = mine();
  const s = analysis.summary[String(seat)];
  const marks = s ? s.marks : { inaccuracy: 0, mistake: 0, blunder: 0 };
  $("analysis-summary").textContent = t("analysis.summary", {
    decisions: s ? s.decisions : 0,
    average: points(s && s.average_loss !== null ? s.average_loss : 0),
    ...marks,
  });
  const marked = $("analysis-marked");
  marked.innerHTML = "";
  const list = decisions.filter((d) => d.mark);
  for (const d of list) marked.appendChild(item(d, true));
  if (!list.length) marked.innerHTML = `<li>${escapeHtml(t("analysis.nothing"))}</li>`;
  const series = expectedScores(ctx.data, decisions, seat);
  $("analysis-chart").innerHTML = chartHtml(series, ctx.name(seat)) + (series.length ? chartTable(series, decisions) : "");
  if (shownStep) showStep(shownStep);
}

function shown(state) {
  analysis = state.analysis;
  $("analysis-shown").hidden = false;
  const select = $("analysis-seat");
  select.innerHTML = ctx.data.players.map((_, i) => `<option value="${i}">${escapeHtml(ctx.name(i))}</option>`).join("");
  select.value = String(seat);
  renderSeat();
}

export function initAnalysis(context) {
  ctx = context;
  seat = context.you ?? 0;
  $("analysis-start").appendChild(analysisControls(context.tableId, shown));
  $("analysis-seat").addEventListener("change", (event) => {
    seat = Number(event.target.value);
    renderSeat();
  });
}

// Shows the chosen seat's decisions of `step`; answers them in words (for the live region).
export function showStep(step) {
  shownStep = step;
  const box = $("analysis-step");
  if (!analysis) {
    box.hidden = true;
    return "";
  }
  const here = mine().filter((d) => d.hand + 1 === step.hand_number && trickOf(d, step.players) === step.trick_number);
  box.hidden = false;
  box.innerHTML = "";
  const head = document.createElement("li");
  head.className = "analysis-who";
  head.textContent = t("analysis.for_seat", { seat: ctx.name(seat) });
  box.appendChild(head);
  for (const d of here) box.appendChild(item(d, false));
  if (!here.length) {
    const li = document.createElement("li");
    li.textContent = t("analysis.step_none");
    box.appendChild(li);
  }
  return here.map(decisionText).join(". ");
}
