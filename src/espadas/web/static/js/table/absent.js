// What a turn past the limit allows, in the actions row: closing the game
// (claim_at) or, at a table whose absent option is "robot", putting a robot in
// the absent person's seat (replace_at). Before the time, a line says when, but
// only where it matters: once the person to act has kept the table waiting a
// while, or has dropped; in a game that flows, nothing.
import { lang, seatLabel, t } from "../i18n.js";
import { confirmDialog } from "../page.js";
import { button, send } from "./commands.js";
import { receive, view } from "./view.js";

const WAITING_MS = 2 * 60 * 1000; // a turn this long is a wait worth a word
let timer = 0;

// Whether the turn of the seat to act has lasted long enough to say when the
// limit comes; else the page is drawn again once it has.
function waited(v) {
  const seat = v.game ? v.game.to_act : null;
  if ((v.away || []).some((a) => a.seat === seat)) return true;
  const since = Date.parse(v.updated_at || "");
  if (Number.isNaN(since)) return true;
  const left = since + WAITING_MS - Date.now();
  if (left <= 0) return true;
  window.clearTimeout(timer);
  timer = window.setTimeout(() => view && receive(view), left + 50);
  return false;
}

function later(v, box, key, when) {
  if (!waited(v)) return;
  const p = document.createElement("p");
  p.className = "limit-note";
  p.textContent = t(key, { when: when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }) });
  box.appendChild(p);
}

export function renderAbsent(v, box) {
  if (v.claim_at) {
    const when = new Date(v.claim_at);
    if (when <= new Date()) box.appendChild(button(t("action.claim"), () => send("claim"), "primary"));
    else later(v, box, "action.claim_from", when);
  }
  if (v.replace_at && v.game && v.game.to_act !== null) {
    const when = new Date(v.replace_at);
    const name = seatLabel(v, v.game.to_act);
    if (when <= new Date()) {
      const put = button(t("action.replace"), async () => {
        if (await confirmDialog(t("confirm.replace", { name }))) send("replace");
      }, "primary");
      put.id = "replace";
      box.appendChild(put);
    } else {
      later(v, box, "action.replace_from", when);
    }
  }
}
