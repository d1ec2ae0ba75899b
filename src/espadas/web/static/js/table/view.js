// The table being shown: its id, the latest view the server sent, and what the
// other modules of the page read from it. Views received (from an answer or the
// live socket) go to the one handler the page registers with onReceive.
import { t } from "../i18n.js";

export const tableId = document.body.dataset.table;
export let view = null;
let handler = () => {};

export function setView(next) {
  view = next;
}

export function onReceive(next) {
  handler = next;
}

export function receive(next) {
  handler(next);
}

export const $ = (id) => document.getElementById(id);

export function game() {
  return view ? view.game : null;
}

export function mySide(v) {
  if (v.you === null) return null;
  return v.options.partnerships ? (v.you % 2 === 0 ? "ns" : "ew") : String(v.you);
}

export function sideOfSeat(v, seat) {
  return v.options.partnerships ? (seat % 2 === 0 ? "ns" : "ew") : String(seat);
}

// The order the page lists the sides in (indices into game.sides): yours first,
// then the others in play order from you, so that "Nosotros" is always first
// and always drawn in the first side's colour.
export function sideOrder(v) {
  const sides = v.game ? v.game.sides : [];
  const mine = mySide(v);
  if (mine === null || !sides.includes(mine)) return sides.map((_, i) => i);
  if (v.options.partnerships) return [sides.indexOf(mine), ...sides.map((_, i) => i).filter((i) => sides[i] !== mine)];
  return seatsOrder(v).map((seat) => sides.indexOf(String(seat))).filter((i) => i >= 0);
}

export function seatsOrder(v) {
  const start = v.you === null ? 0 : v.you;
  return Array.from({ length: v.players }, (_, i) => (start + i) % v.players);
}

export function played(g) {
  const cards = [];
  for (const trick of [...g.tricks, ...(g.trick ? [g.trick] : [])]) {
    trick.cards.forEach((card, i) => cards.push({ card, seat: (trick.leader + i) % g.looked.length }));
  }
  return cards;
}

export function legalOf(type) {
  const g = game();
  return g ? g.legal.filter((a) => a.type === type) : [];
}

export function reasonText(reason) {
  return t(`reason.${reason}`);
}
