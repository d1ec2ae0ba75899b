// Replay of a finished game: every hand visible, trick by trick; each deal's
// commitment shown as checked by the server.
import { call } from "./api.js";
import { cardName, personName, robotLabel, robotName, seatMark, sideLetters, t } from "./i18n.js";
import { announce, escapeHtml, setUp, showError } from "./page.js";
import { drawFelt } from "./replay/felt.js";
import { initAnalysis, showStep } from "./replay/analysis.js";
import { bindSteps } from "./replay/steps.js";

const tableId = document.body.dataset.table;
let data = null;
let index = 0;
let you = 0; // the seat at the bottom of the felt: the page's person's, else the first

function name(seat) {
  const player = data.players[seat];
  return player.startsWith("robot:") ? robotLabel(data.players.length, seat, player.slice(6)) : personName(player);
}

// The name on the seat's box, beside its letter: a robot's name alone.
function seatTitle(seat) {
  const player = data.players[seat];
  return player.startsWith("robot:") ? robotName(seat) : personName(player);
}

// A robot's level (its badge beside the name), else null.
function level(seat) {
  const player = data.players[seat];
  return player.startsWith("robot:") ? t(`robot.${player.slice(6)}`) : null;
}

// The seat's mark on the felt, as the table shows it (N, E, S, O at four).
function mark(seat) {
  return seatMark(data.players.length, seat);
}

function render() {
  const step = data.steps[index];
  const title = step.trick_number
    ? t("replay.step", { hand: step.hand_number, trick: step.trick_number })
    : t("replay.step_bids", { hand: step.hand_number });
  document.getElementById("replay-step").textContent = title;
  const judged = showStep(step);
  drawFelt(document.getElementById("replay-board"), step, { you, name, title: seatTitle, level, mark, tableId });
  if (step.trick) {
    const won = t("trick.won_by", { name: name(step.trick.winner) });
    announce([`${title}. ${step.trick.cards.map(cardName).join(", ")}. ${won}`, judged].filter(Boolean).join(". "));
  } else {
    announce([title, judged].filter(Boolean).join(". "));
  }
  document.getElementById("replay-scores").textContent = step.sides
    .map((side, i) => t("say.score", { side: sideLetters(data.players.length, side, name), points: step.scores[i], bags: step.bags[i] }))
    .join(" · ");
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("next").disabled = index === data.steps.length - 1;
  document.getElementById("last").disabled = index === data.steps.length - 1;
}

// Shows step `to`; `reveal` (a marked decision chosen below) brings the felt,
// its controls and the decision beside it into view.
function go(to, reveal = false) {
  index = Math.max(0, Math.min(data.steps.length - 1, to));
  render();
  if (reveal) document.getElementById("replay-view").scrollIntoView({ block: "start" });
}

async function main() {
  await setUp();
  const answer = await call("GET", `/api/tables/${tableId}/replay`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  data = answer.data;
  const result = data.result;
  document.getElementById("replay-result").textContent = result ? t("replay.result", { side: sideLetters(data.players.length, result.winner, name), reason: t(`reason.${result.reason}`) }) : "";
  document.getElementById("checks").innerHTML = data.checks
    .map((c) => `<li>${escapeHtml(t(`replay.check.${c.status}`, { n: c.hand }))}</li>`)
    .join("");
  bindSteps(go, () => index, () => data.steps.length - 1);
  const view = await call("GET", `/api/tables/${tableId}`);
  you = view.ok && view.data.you !== null ? view.data.you : 0;
  initAnalysis({ tableId, data, name, go, you: view.ok ? view.data.you : null });
  render();
}

main();
