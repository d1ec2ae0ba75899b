// A seat whose person's connection dropped in a live game: a "disconnected"
// mark with the seconds left before the table's absent rule applies (the view's
// `away`: seat, since, until), counted down here every second. Screen readers
// hear the drop and the return from the page's live region (announcements.js);
// the mark itself is part of the seat's label.
import { seatLabel, t } from "../i18n.js";
import { $ } from "./view.js";

let ticking = null;

function left(until) {
  return Math.max(0, Math.ceil((new Date(until) - Date.now()) / 1000));
}

function clock(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function tick() {
  const marks = document.querySelectorAll("#seats .away-mark");
  for (const mark of marks) {
    const n = left(mark.dataset.until);
    mark.querySelector(".away-time").textContent = n > 0 ? clock(n) : "";
    mark.querySelector(".sr-only").textContent = t("seat.away_said", { name: mark.dataset.name, n });
  }
  if (!marks.length && ticking !== null) {
    window.clearInterval(ticking);
    ticking = null;
  }
}

export function renderAway(v) {
  for (const away of v.away || []) {
    const li = $("seats").querySelector(`li[data-seat="${away.seat}"]`);
    if (!li) continue;
    li.classList.add("away");
    const mark = document.createElement("span");
    mark.className = "away-mark";
    mark.dataset.until = away.until;
    mark.dataset.name = seatLabel(v, away.seat);
    mark.id = `away-${away.seat}`;
    // the word and the time, each kept whole (on a phone the time goes under the word)
    const shown = document.createElement("span");
    shown.setAttribute("aria-hidden", "true");
    const word = document.createElement("span");
    word.textContent = t("seat.away");
    const time = document.createElement("span");
    time.className = "away-time";
    shown.append(word, " ", time);
    const said = document.createElement("span");
    said.className = "sr-only";
    mark.append(shown, said);
    li.appendChild(mark);
  }
  tick();
  if ((v.away || []).length && ticking === null) ticking = window.setInterval(tick, 1000);
}

// What the live region says of drops and returns between two views
export function awayChanges(before, after) {
  const said = [];
  const was = new Set(((before && before.away) || []).map((a) => a.seat));
  const now = new Set((after.away || []).map((a) => a.seat));
  for (const away of after.away || []) {
    if (!was.has(away.seat)) said.push(t("say.away", { name: seatLabel(after, away.seat), n: left(away.until) }));
  }
  for (const seat of was) {
    const replaced = (after.replaced || []).includes(seat);
    if (!now.has(seat) && !replaced && !(after.game && after.game.result)) said.push(t("say.back", { name: seatLabel(after, seat) }));
  }
  return said;
}
