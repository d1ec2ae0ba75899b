// The actions row: look, bid, accuse, claim or replace (absent.js) and abandon (NEXT HAND is in the
// hand's summary); before the start the creator's setup, after the end the rematch.
import { seatLabel, t } from "../i18n.js";
import { confirmDialog } from "../page.js";
import { renderAbsent } from "./absent.js";
import { bidBox } from "./bidbox.js";
import { button, send } from "./commands.js";
import { renderFinished } from "./finish.js";
import { renderSetup } from "./setup.js";
import { openSummary, summaryRow } from "./summary.js";
import { $, legalOf } from "./view.js";

export function renderActions(v) {
  const g = v.game;
  const box = $("actions");
  const kept = $("bid") ? $("bid").value : ""; // a bid chosen stays chosen
  box.innerHTML = "";
  // what is not needed to act on your turn goes under the play area
  const more = $("more-actions");
  more.innerHTML = "";
  const creator = v.creator;
  if (v.status === "waiting") {
    if (creator) renderSetup(v, box);
    return;
  }
  if (v.you === null) {
    renderAbsent(v, box); // the creator, even unseated, may put a robot in
    renderFinished(v, box);
    return;
  }
  const bids = legalOf("bid");
  if (legalOf("look").length) {
    box.appendChild(button(t("action.look"), () => send("look"), "primary"));
  }
  if (bids.length) box.appendChild(bidBox(v, bids, kept));
  const summary = summaryRow(v);
  if (summary) {
    // NEXT HAND, the end and the accusations are in the hand's summary
    box.appendChild(button(t("table.summary_open"), openSummary, "primary"));
  } else if (legalOf("confirm_end").length) {
    box.appendChild(button(t("action.confirm_end"), () => send("confirm_end"), "primary"));
  }
  const accusations = legalOf("accuse");
  if (accusations.length && !g.result && !summary) {
    for (const a of accusations) {
      more.appendChild(
        button(t("action.accuse", { name: seatLabel(v, a.value) }), async () => {
          if (await confirmDialog(t("confirm.accuse", { name: seatLabel(v, a.value) }))) send("accuse", a.value);
        }),
      );
    }
  }
  renderAbsent(v, box);
  if (!g.result) {
    more.appendChild(
      button(t("action.abandon"), async () => {
        if (await confirmDialog(t("confirm.abandon"))) send("abandon");
      }, "danger"),
    );
  }
  renderFinished(v, box);
}
