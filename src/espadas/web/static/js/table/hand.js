// Your hand at the bottom: sorted by suit, the cards overlapping in one row or,
// when the width is short, in two; the cards you may play stand raised and
// bright, the others lowered and dimmed (not by colour alone). On a table where
// renege is allowed, a card that does not follow suit asks first.
import { backSvg, cardElement } from "../cards.js";
import { cardName, t } from "../i18n.js";
import { announce, confirmDialog, escapeHtml } from "../page.js";
import { send } from "./commands.js";
import { $, game, legalOf } from "./view.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_GAP = 8;
const MIN_STEP = 28; // the visible part of an overlapped card, in px (24 at the least)

async function play(card) {
  const g = game();
  if (!legalOf("play").some((a) => a.value === card)) {
    announce(t("hand.not_now", { card: cardName(card) }));
    return;
  }
  const proper = g.proper_plays || [];
  if (proper.length && !proper.includes(card) && g.trick && g.trick.cards.length) {
    const led = g.trick.cards[0].slice(-1);
    const text = t("confirm.renege", { suit: t(`suit.plural.${led}`).toLowerCase(), symbol: SYMBOL[led], card: cardName(card) });
    if (!(await confirmDialog(text))) return;
  }
  send("play", card);
}

function rowsOf(groups, rows, fits) {
  // two rows: split between suits where that keeps both rows short enough,
  // else in the middle of a suit
  if (rows === 1) return [groups];
  const total = groups.flat().length;
  let best = null;
  for (let i = 1; i < groups.length; i++) {
    const first = groups.slice(0, i);
    const second = groups.slice(i);
    const longest = Math.max(first.flat().length, second.flat().length);
    if (fits(first) && fits(second) && (best === null || longest < best.longest)) best = { rows: [first, second], longest };
  }
  if (best) return best.rows;
  const half = Math.ceil(total / 2);
  const first = [];
  const second = [];
  let n = 0;
  for (const group of groups) {
    const take = group.slice(0, Math.max(0, half - n));
    const rest = group.slice(take.length);
    if (take.length) first.push(take);
    if (rest.length) second.push(rest);
    n += take.length;
  }
  return [first, second];
}

function stepFor(width, cardWidth, row) {
  const n = row.flat().length;
  if (n <= 1) return cardWidth;
  const step = (width - cardWidth - (row.length - 1) * SUIT_GAP) / (n - 1);
  return Math.min(cardWidth + 4, step);
}

export function layOut() {
  const box = $("hand-cards");
  if (!box || !box.dataset.cards) return;
  const cards = box.dataset.cards.split(",");
  const groups = ["S", "H", "D", "C"].map((s) => cards.filter((c) => c.endsWith(s))).filter((g) => g.length);
  const cardWidth = parseFloat(getComputedStyle(box).getPropertyValue("--card-w")) || 52;
  const width = box.clientWidth - 4;
  let rows = rowsOf(groups, 1);
  const fits = (row) => stepFor(width, cardWidth, row) >= MIN_STEP + 6;
  if (stepFor(width, cardWidth, rows[0]) < MIN_STEP) rows = rowsOf(groups, 2, fits);
  const step = Math.floor(Math.min(...rows.map((r) => stepFor(width, cardWidth, r))));
  box.style.setProperty("--step", `${step}px`);
  box.classList.toggle("two-rows", rows.length > 1);
  const buttons = new Map([...box.querySelectorAll(".hand-card")].map((b) => [b.dataset.card, b]));
  const made = rows.map((row) => {
    const line = document.createElement("div");
    line.className = "hand-row";
    for (const group of row) {
      const element = document.createElement("div");
      element.className = "suit-group";
      element.setAttribute("role", "group");
      element.setAttribute("aria-label", t(`suit.plural.${group[0].slice(-1)}`));
      for (const card of group) element.appendChild(buttons.get(card));
      line.appendChild(element);
    }
    return line;
  });
  box.replaceChildren(...made);
}

let dealtHand = null; // the hand number whose cards were dealt on screen
let drawn = ""; // what the hand on screen was drawn from (see renderHand)

export function renderHand(v) {
  const g = v.game;
  const box = $("hand-cards");
  const section = $("hand");
  // another player's card or bid leaves your hand as it was: it is drawn again
  // only when something it shows changes (the cards, which may be played, the
  // language), so a phone does not rebuild and lay out every card at every play
  const key = JSON.stringify([
    document.documentElement.lang, v.you, g && g.hand_number, g && g.hand,
    legalOf("play").map((a) => a.value), g && g.proper_plays,
  ]);
  if (key === drawn) return;
  drawn = key;
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.card || "" : null;
  section.hidden = v.you === null || !g || !g.hand_number;
  box.innerHTML = "";
  box.dataset.cards = "";
  if (!g || !g.hand_number) dealtHand = 0; // the first deal will be seen
  if (section.hidden) return;
  if (g.hand === null) {
    box.innerHTML = `<div class="face-down">${backSvg()}<p>${escapeHtml(t("hand.face_down"))}</p></div>`;
    return;
  }
  const legal = new Set(legalOf("play").map((a) => a.value));
  const proper = g.proper_plays && g.proper_plays.length ? new Set(g.proper_plays) : legal;
  const sorted = ["S", "H", "D", "C"].flatMap((s) => g.hand.filter((c) => c.endsWith(s)));
  for (const card of sorted) {
    const button = cardElement(card, "button");
    button.type = "button";
    button.classList.add("hand-card");
    const can = legal.has(card);
    button.setAttribute("aria-disabled", can ? "false" : "true");
    button.classList.toggle("playable", can && proper.has(card));
    button.tabIndex = -1;
    button.addEventListener("click", () => play(card));
    box.appendChild(button);
  }
  box.dataset.cards = sorted.join(",");
  // a new hand is dealt: the cards come in one after another (a short animation)
  box.classList.toggle("deal", dealtHand !== null && dealtHand !== g.hand_number);
  if (dealtHand !== g.hand_number) {
    [...box.children].forEach((b, i) => b.style.setProperty("--i", i));
    dealtHand = g.hand_number;
  }
  const first = box.querySelector(".hand-card.playable") || box.querySelector(".hand-card");
  if (first) first.tabIndex = 0;
  layOut();
  // keyboard players keep their place in the hand when a new view comes
  if (focused !== null) {
    const again = box.querySelector(`[data-card="${focused}"]`) || first;
    if (again) {
      for (const b of box.querySelectorAll(".hand-card")) b.tabIndex = -1;
      again.tabIndex = 0;
      again.focus({ preventScroll: true });
    }
  }
}

window.addEventListener("resize", () => {
  window.clearTimeout(layOut.timer);
  layOut.timer = window.setTimeout(layOut, 100);
});
