// Replay of a finished game: every hand visible, trick by trick; each deal's
// commitment shown as checked by the server.
import { call } from "./api.js";
import { cardElement } from "./cards.js";
import { bidName, cardName, personName, seatPlace, t } from "./i18n.js";
import { announce, escapeHtml, setUp, showError } from "./page.js";
import { initAnalysis, showStep } from "./replay/analysis.js";
import { bindSteps } from "./replay/steps.js";

const tableId = document.body.dataset.table;
let data = null;
let index = 0;

function pbnCards(pbn) {
  const suits = ["S", "H", "D", "C"];
  return pbn.split(".").flatMap((ranks, i) => [...ranks].map((r) => `${r}${suits[i]}`));
}

function name(seat) {
  const player = data.players[seat];
  return player.startsWith("robot:")
    ? t("seat.robot", { level: t(`robot.${player.slice(6)}`), seat: seatPlace(data.players.length, seat) })
    : personName(player);
}

function render() {
  const step = data.steps[index];
  const title = step.trick_number
    ? t("replay.step", { hand: step.hand_number, trick: step.trick_number })
    : t("replay.step_bids", { hand: step.hand_number });
  document.getElementById("replay-step").textContent = title;
  const judged = showStep(step);
  const board = document.getElementById("replay-board");
  board.innerHTML = "";
  for (let seat = 0; seat < step.players; seat++) {
    const section = document.createElement("section");
    section.className = "replay-seat";
    section.setAttribute("aria-label", name(seat));
    section.innerHTML = `<h3><a href="/mesa/${escapeHtml(tableId)}/asiento/${seat}">${escapeHtml(name(seat))}</a>${step.dealer === seat ? ` · ${escapeHtml(t("seat.dealer"))}` : ""}</h3>
<p>${escapeHtml(t("seat.bid", { bid: bidName(step.bids[seat]) }))} · ${escapeHtml(t("seat.tricks", { n: step.tricks_taken[seat] }))}</p>`;
    const hand = document.createElement("div");
    hand.className = "hand small";
    for (const card of pbnCards(step.hands[seat])) hand.appendChild(cardElement(card));
    section.appendChild(hand);
    board.appendChild(section);
  }
  if (step.trick) {
    const trick = document.createElement("section");
    trick.className = "replay-trick";
    trick.innerHTML = `<h3>${escapeHtml(t("replay.trick"))}</h3>`;
    const cards = document.createElement("div");
    cards.className = "trick";
    step.trick.cards.forEach((card, i) => {
      const figure = document.createElement("figure");
      figure.className = "played";
      figure.appendChild(cardElement(card));
      const caption = document.createElement("figcaption");
      caption.textContent = name((step.trick.leader + i) % step.players);
      figure.appendChild(caption);
      cards.appendChild(figure);
    });
    trick.appendChild(cards);
    const p = document.createElement("p");
    p.textContent = t("trick.won_by", { name: name(step.trick.winner) });
    trick.appendChild(p);
    board.appendChild(trick);
    announce([`${title}. ${step.trick.cards.map(cardName).join(", ")}. ${p.textContent}`, judged].filter(Boolean).join(". "));
  } else {
    announce([title, judged].filter(Boolean).join(". "));
  }
  const scores = document.createElement("p");
  scores.textContent = step.sides.map((side, i) => t("say.score", { side: side.toUpperCase(), points: step.scores[i], bags: step.bags[i] })).join(" · ");
  board.appendChild(scores);
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("first").disabled = index === 0;
  document.getElementById("next").disabled = index === data.steps.length - 1;
  document.getElementById("last").disabled = index === data.steps.length - 1;
}

function go(to) {
  index = Math.max(0, Math.min(data.steps.length - 1, to));
  render();
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
  document.getElementById("replay-result").textContent = result ? t("replay.result", { side: result.winner.toUpperCase(), reason: t(`reason.${result.reason}`) }) : "";
  document.getElementById("checks").innerHTML = data.checks
    .map((c) => `<li>${escapeHtml(t(`replay.check.${c.status}`, { n: c.hand }))}</li>`)
    .join("");
  bindSteps(go, () => index, () => data.steps.length - 1);
  const view = await call("GET", `/api/tables/${tableId}`);
  initAnalysis({ tableId, data, name, go, you: view.ok ? view.data.you : null });
  render();
}

main();
