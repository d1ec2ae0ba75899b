// The trick on the felt: each card in front of the seat that played it; a
// complete trick stays about a second with its winner marked, then is gathered
// toward the winner. The last trick is one tap (or the U key) away.
import { cardElement } from "../cards.js";
import { cardName, seatLabel, t } from "../i18n.js";
import { seatSpot } from "./board.js";
import { layOut } from "./spots.js";
import { $ } from "./view.js";

const HOLD_MS = 1000;
const GATHER_MS = 250;
let seenTricks = null;
let held = null; // the trick just completed, while it stays on the felt
let timer = 0;
let showLast = false;
let current = null;
let drawn = new Set(); // the cards on the felt at the last drawing (only new ones land)
let onFelt = null; // the trick those cards are of

function still() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function place(v, trick, box) {
  trick.cards.forEach((card, i) => {
    const seat = (trick.leader + i) % v.players;
    const spot = seatSpot(v, seat);
    const element = cardElement(card);
    const won = trick.winner === seat;
    const who = seatLabel(v, seat);
    element.setAttribute("aria-label", `${cardName(card)}, ${who}${won ? `, ${t("trick.wins")}` : ""}`);
    element.classList.add("played");
    if (won) {
      element.classList.add("won");
      element.dataset.wins = t("trick.wins");
    }
    if (!drawn.has(card)) element.classList.add("new");
    element.style.setProperty("--x", `${(50 + 14 * spot.x).toFixed(1)}%`);
    element.style.setProperty("--y", `${(50 + 19 * spot.y).toFixed(1)}%`);
    box.appendChild(element);
  });
  fit(v, trick, box);
  if (trick.winner !== null && trick.winner !== undefined) {
    const spot = seatSpot(v, trick.winner);
    box.style.setProperty("--gx", `${(41 * spot.x).toFixed(1)}%`);
    box.style.setProperty("--gy", `${(39 * spot.y).toFixed(1)}%`);
    const p = document.createElement("p");
    p.className = "trick-note sr-only";
    p.textContent = t("trick.won_by", { name: seatLabel(v, trick.winner) });
    box.appendChild(p);
  }
}

// Moves the cards of the trick so that none covers a seat (see spots.js).
function fit(v, trick, box) {
  const cards = [...box.querySelectorAll(".card.played")];
  const played = trick.cards.map((card, i) => (trick.leader + i) % v.players);
  layOut(box, cards, played, [...Array(v.players).keys()].map((seat) => seatSpot(v, seat)));
}

function draw() {
  const v = current;
  const box = $("trick-cards");
  box.innerHTML = "";
  box.classList.remove("gather");
  const g = v && v.game;
  const last = g && g.tricks.length ? g.tricks[g.tricks.length - 1] : null;
  const button = $("last-trick");
  button.disabled = !last;
  button.hidden = !g || !g.hand_number;
  button.setAttribute("aria-pressed", showLast && last ? "true" : "false");
  box.classList.toggle("showing-last", Boolean(showLast && last));
  const live = g && g.trick && g.trick.cards.length ? g.trick : null;
  const shown = showLast && last ? last : held || live;
  if (!shown) {
    drawn = new Set();
    onFelt = null;
    const p = document.createElement("p");
    p.className = "empty";
    p.textContent = t("trick.empty");
    box.appendChild(p);
    return;
  }
  place(v, shown, box);
  onFelt = shown;
  drawn = new Set(shown.cards);
}

function release() {
  window.clearTimeout(timer);
  if (!held) return;
  if (still()) {
    held = null;
    draw();
    return;
  }
  $("trick-cards").classList.add("gather");
  timer = window.setTimeout(() => {
    held = null;
    draw();
  }, GATHER_MS);
}

export function renderTrick(v) {
  current = v;
  const g = v.game;
  const count = g ? g.tricks.length : 0;
  if (seenTricks !== null && g && count > seenTricks) {
    // a trick was just completed: keep it on the felt for a moment
    held = g.tricks[count - 1];
    window.clearTimeout(timer);
    timer = window.setTimeout(release, HOLD_MS);
  } else if (g && count < (seenTricks || 0)) {
    held = null; // a new hand
    showLast = false;
  }
  seenTricks = count;
  draw();
}

// Shows the last trick on the felt until asked again (also keeps a trick that
// was just completed for as long as the player wants).
export function toggleLast() {
  showLast = !showLast;
  if (showLast) {
    window.clearTimeout(timer);
    held = null;
  }
  draw();
}

export function setUpTrick() {
  $("last-trick").addEventListener("click", toggleLast);
  // the felt changes size (a turned phone, a hand of fewer cards): the cards are laid out again
  new ResizeObserver(() => {
    if (current && onFelt) fit(current, onFelt, $("trick-cards"));
  }).observe($("felt"));
}
