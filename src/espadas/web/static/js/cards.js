// Our own SVG cards. The deck design (classic, four-colour, large index) is a
// class on <body>: only CSS changes between designs.
import { cardName } from "./i18n.js";

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function rankText(code) {
  const rank = code.slice(0, -1);
  return rank === "T" ? "10" : rank;
}

export function cardSvg(code) {
  const suit = code.slice(-1);
  const rank = rankText(code);
  return `<svg class="card-face suit-${suit}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect class="card-bg" x="1" y="1" width="58" height="82" rx="6"/>
<text class="index" x="6" y="20">${rank}</text>
<text class="index-suit" x="6" y="36">${SYMBOL[suit]}</text>
<text class="pip" x="34" y="62" text-anchor="middle">${SYMBOL[suit]}</text>
</svg>`;
}

export function backSvg() {
  return `<svg class="card-back" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
<rect x="1" y="1" width="58" height="82" rx="6"/><rect class="inner" x="7" y="7" width="46" height="70" rx="3"/>
</svg>`;
}

export function cardElement(code, tag = "span") {
  const element = document.createElement(tag);
  element.className = "card";
  element.dataset.card = code;
  element.innerHTML = cardSvg(code);
  if (tag === "span") {
    element.setAttribute("role", "img");
  }
  element.setAttribute("aria-label", cardName(code));
  return element;
}

export const DECKS = ["classic", "four", "large"];

export function applyDeck(deck) {
  const chosen = DECKS.includes(deck) ? deck : "classic";
  for (const name of DECKS) document.body.classList.toggle(`deck-${name}`, name === chosen);
  localStorage.setItem("espadas.deck", chosen);
}

export function savedDeck() {
  return localStorage.getItem("espadas.deck") || "classic";
}
