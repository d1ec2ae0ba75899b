// What a turn past the limit allows, in the actions row: closing the game
// (claim_at) or, at a table whose absent option is "robot", putting a robot in
// the absent person's seat (replace_at). Before the time, a line says when.
import { lang, seatLabel, t } from "../i18n.js";
import { confirmDialog } from "../page.js";
import { button, send } from "./commands.js";

function later(box, key, when) {
  const p = document.createElement("p");
  p.textContent = t(key, { when: when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }) });
  box.appendChild(p);
}

export function renderAbsent(v, box) {
  if (v.claim_at) {
    const when = new Date(v.claim_at);
    if (when <= new Date()) box.appendChild(button(t("action.claim"), () => send("claim"), "primary"));
    else later(box, "action.claim_from", when);
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
      later(box, "action.replace_from", when);
    }
  }
}
