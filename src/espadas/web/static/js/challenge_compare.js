// The side-by-side replay of one board of a closed day (/reto/DAY/tablero/N
// ?jugador=ID): that player's play beside your own play of the same cards, trick
// by trick under one set of controls (side by side on a wide screen, one above
// the other on a phone), each with its score from 0-0, its whole game's replay
// and its analysis where one is done.
import { call } from "./api.js";
import { cardElement } from "./cards.js";
import { bidName, cardName, personName, robotLabel, t } from "./i18n.js";
import { announce, escapeHtml, setUp } from "./page.js";
import { bindSteps } from "./replay/steps.js";

const parts = window.location.pathname.split("/");
const day = decodeURIComponent(parts[2] || "");
const board = Number(parts[4] || 0);
const chosen = new URLSearchParams(window.location.search).get("jugador") || "";
let plays = [];
let index = 0;

function pbnCards(pbn) {
  const suits = ["S", "H", "D", "C"];
  return pbn.split(".").flatMap((ranks, i) => [...ranks].map((r) => `${r}${suits[i]}`));
}

function seatName(play, seat) {
  const player = play.players[seat];
  return player.startsWith("robot:") ? robotLabel(play.players.length, seat, player.slice(6), true) : personName(player);
}

function panel(play, mine, n) {
  const section = document.createElement("section");
  section.className = "compare-side";
  section.setAttribute("aria-labelledby", `side-${n}`);
  const title = mine ? t("challenge_compare.yours") : t("challenge_compare.theirs", { name: play.name });
  const points = play.points === null ? "" : t("challenge_compare.points", { points: play.points });
  const robot = play.robot ? ` · ${t("challenge_compare.robot")}` : "";
  const analysis = play.analysis ? ` · <a href="${escapeHtml(play.analysis)}">${escapeHtml(t("challenge_compare.analysis"))}</a>` : "";
  section.innerHTML = `<h2 id="side-${n}">${escapeHtml(title)}</h2>
<p class="compare-links">${escapeHtml(points + robot)} · <a href="${escapeHtml(play.replay)}">${escapeHtml(t("challenge_compare.whole_game"))}</a>${analysis}</p>
<div class="compare-board"></div>`;
  return section;
}

function renderSide(section, play) {
  const step = play.steps[Math.min(index, play.steps.length - 1)];
  const box = section.querySelector(".compare-board");
  box.innerHTML = "";
  for (let seat = 0; seat < step.players; seat++) {
    const part = document.createElement("div");
    part.className = "compare-seat";
    part.innerHTML = `<h3>${escapeHtml(seatName(play, seat))}${step.dealer === seat ? ` · ${escapeHtml(t("seat.dealer"))}` : ""}</h3>
<p>${escapeHtml(t("seat.bid", { bid: bidName(step.bids[seat]) }))} · ${escapeHtml(t("seat.tricks", { n: step.tricks_taken[seat] }))}</p>`;
    const hand = document.createElement("div");
    hand.className = "mini-hand";
    for (const card of pbnCards(step.hands[seat])) hand.appendChild(cardElement(card));
    part.appendChild(hand);
    box.appendChild(part);
  }
  const trick = document.createElement("p");
  trick.className = "compare-trick";
  trick.textContent = step.trick
    ? `${t("replay.trick")}: ${step.trick.cards.map(cardName).join(", ")}. ${t("trick.won_by", { name: seatName(play, step.trick.winner) })}`
    : t("challenge_compare.after_bids");
  box.appendChild(trick);
  return step;
}

function render() {
  const sections = document.querySelectorAll("#compare .compare-side");
  let step = null;
  plays.forEach((play, i) => (step = renderSide(sections[i], play) || step));
  const last = Math.max(...plays.map((p) => p.steps.length)) - 1;
  const title = step.trick_number
    ? t("challenge_compare.step", { board, trick: step.trick_number })
    : t("challenge_compare.step_bids", { board });
  document.getElementById("compare-step").textContent = title;
  announce(title);
  document.getElementById("first").disabled = index === 0;
  document.getElementById("prev").disabled = index === 0;
  document.getElementById("next").disabled = index === last;
  document.getElementById("last").disabled = index === last;
}

function go(to) {
  const last = Math.max(...plays.map((p) => p.steps.length)) - 1;
  index = Math.max(0, Math.min(last, to));
  render();
}

async function main() {
  await setUp();
  document.getElementById("back-day").href = `/reto/${encodeURIComponent(day)}`;
  document.getElementById("compare-title").textContent = t("challenge_compare.title_board", { board, day });
  const state = document.getElementById("compare-state");
  const theirs = await call("GET", `/api/challenge/${encodeURIComponent(day)}/boards/${board}/plays/${encodeURIComponent(chosen)}`);
  if (!theirs.ok) {
    state.textContent = (theirs.data && theirs.data.message) || t("error.generic");
    return;
  }
  plays = [theirs.data];
  const standings = await call("GET", `/api/challenge/${encodeURIComponent(day)}/leaderboard`);
  const you = standings.ok && standings.data.you !== null ? standings.data.standings[standings.data.you].player : null;
  let note = you === null ? t("challenge_compare.not_played") : "";
  if (you !== null && you !== chosen) {
    const mine = await call("GET", `/api/challenge/${encodeURIComponent(day)}/boards/${board}/plays/${encodeURIComponent(you)}`);
    if (mine.ok) plays.push(mine.data);
    else note = (mine.data && mine.data.message) || "";
  }
  const box = document.getElementById("compare");
  plays.forEach((play, i) => box.appendChild(panel(play, play.player === you, i)));
  box.classList.toggle("two", plays.length === 2);
  state.textContent = note;
  state.hidden = !note;
  document.getElementById("compare-shown").hidden = false;
  bindSteps(go, () => index, () => Infinity);
  render();
}

main();
