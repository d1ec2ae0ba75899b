// An event's table (``torneo-EVENT-…``): its game ends with the round's last
// board. Then the page says the round is over and leads back to the event and,
// once the event opens it, to the person's table of the next round (asked of
// the event every few seconds until it is there or the event is over).
import { call } from "../api.js";
import { t } from "../i18n.js";
import { receive, view } from "./view.js";

const ASK_MS = 5000;
let known = null; // what the event said of this table: {table, round, next, finished}
let asking = false;

export function eventOf(v) {
  const found = /^torneo-([A-Za-z0-9]{12})-/.exec(v.id);
  return found ? found[1] : null;
}

// Whether the view is of an event table whose round is played out.
export function roundOver(v) {
  const g = v.game;
  return Boolean(eventOf(v) && g && g.result && g.result.reason === "boards");
}

async function ask(v) {
  const answer = await call("GET", `/api/events/${eventOf(v)}`);
  if (answer.ok) {
    const e = answer.data;
    const mine = e.tables.find((x) => x.table === v.id);
    const round = mine ? mine.round : null;
    const next = round === null ? null : e.tables.find((x) => x.round === round + 1 && x.table);
    const last = round !== null && round >= e.rounds;
    known = { table: v.id, round, last, next: next ? next.table : null, finished: e.status === "finished" };
    if (view) receive(view); // drawn again with what the event said
    if (next || known.finished || last || v.you === null) return;
  }
  window.setTimeout(() => ask(v), ASK_MS);
}

function link(href, text, cls) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.className = cls;
  return a;
}

// The words and links of a round played out, to put in `box` (the actions row,
// the hand's summary); the first call asks the event about the next round.
export function renderRoundOver(v, box) {
  if (!roundOver(v)) return;
  if (!asking) {
    asking = true;
    ask(v);
  }
  const here = known && known.table === v.id ? known : null;
  const note = document.createElement("p");
  note.className = "round-note";
  if (here && here.next) note.textContent = t("event_table.next_open", { n: here.round + 1 });
  else if (here && here.finished) note.textContent = t("event_table.event_over");
  else if (here && here.last) note.textContent = t("event_table.last_round");
  else if (here && here.round !== null) note.textContent = t("event_table.next_wait", { n: here.round + 1 });
  else note.textContent = t("event_table.over_about");
  box.appendChild(note);
  if (here && here.next) {
    box.appendChild(link(`/mesa/${encodeURIComponent(here.next)}`, t("event_table.to_next", { n: here.round + 1 }), "button primary"));
  }
  box.appendChild(link(`/torneo/${eventOf(v)}`, t("event_table.to_event"), here && here.next ? "button" : "button primary"));
}
