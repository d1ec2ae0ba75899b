// The bid box: your bid chosen from the legal ones, then Apostar / Bid. Nothing
// is chosen for you (a placeholder first), except at a table with hints, where
// it starts at the hint's bid for your hand; a choice made is kept while other
// views come (a chat message, someone back online).
import { call } from "../api.js";
import { bidName, lang, t } from "../i18n.js";
import { announce, showError } from "../page.js";
import { button, send } from "./commands.js";
import { tableId } from "./view.js";

let asked = null; // the version whose hint was asked for the bid box

async function startAtHint(v) {
  if (asked === v.version) return;
  asked = v.version;
  const answer = await call("GET", `/api/tables/${tableId}/hint?lang=${lang}`);
  if (!answer.ok || answer.data.action.type !== "bid") return;
  const wanted = JSON.stringify(answer.data.action.value);
  const current = document.getElementById("bid");
  if (current && current.value === "" && [...current.options].some((o) => o.value === wanted)) current.value = wanted;
}

export function bidBox(v, bids, kept) {
  const wrap = document.createElement("div");
  wrap.className = "bid-row";
  const label = document.createElement("label");
  label.htmlFor = "bid";
  label.textContent = t("action.your_bid");
  const select = document.createElement("select");
  select.id = "bid";
  const none = document.createElement("option");
  none.value = "";
  none.textContent = t("action.choose_bid");
  none.disabled = true;
  select.appendChild(none);
  for (const a of bids) {
    const option = document.createElement("option");
    option.value = JSON.stringify(a.value);
    option.textContent = bidName(a.value);
    select.appendChild(option);
  }
  select.value = [...select.options].some((o) => o.value === kept && kept) ? kept : "";
  const bid = () => {
    if (!select.value) {
      // nothing chosen yet: say so where the choice is made
      showError({ message: t("action.choose_bid_first") });
      announce(t("action.choose_bid_first"));
      select.focus();
      return;
    }
    send("bid", JSON.parse(select.value));
  };
  wrap.append(label, select, button(t("action.bid"), bid, "primary"));
  if (v.hints && !select.value) startAtHint(v);
  return wrap;
}
