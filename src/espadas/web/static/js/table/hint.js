// Hints [pistas], at tables whose creator allowed them: the Pista / Hint button
// (or the H key) asks the server for the normal robot's move from your own view,
// marks that card or bid and says why, on the page and to the screen reader.
import { call } from "../api.js";
import { bidName, cardName, lang, t } from "../i18n.js";
import { announce, showError } from "../page.js";
import { $, tableId, view } from "./view.js";

let shownFor = null; // the version the hint on show was asked for

function due(v) {
  const g = v && v.game;
  return Boolean(v && v.hints && g && v.you !== null && g.to_act === v.you && !g.result && (g.phase === "bidding" || g.phase === "playing"));
}

export function renderHint(v) {
  $("hint-box").hidden = !due(v);
  if (shownFor !== null && shownFor !== v.version) {
    shownFor = null;
    $("hint-text").textContent = "";
  }
  mark();
}

function mark() {
  const hinted = shownFor === null ? null : $("hint-text").dataset.card || null;
  for (const button of document.querySelectorAll(".hand-card")) {
    button.classList.toggle("hinted", hinted !== null && button.dataset.card === hinted);
  }
}

function actionText(action) {
  if (action.type === "play") return cardName(action.value);
  if (action.type === "bid") return bidName(action.value);
  return t(`action.${action.type}`);
}

export async function askHint() {
  if (!due(view)) {
    announce(t("api.no_hint"));
    return;
  }
  const asked = view.version;
  const answer = await call("GET", `/api/tables/${tableId}/hint?lang=${lang}`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  if (view.version !== asked) return; // the table moved on meanwhile
  const { action, reason } = answer.data;
  const text = t("table.hint_says", { action: actionText(action), reason });
  const box = $("hint-text");
  box.textContent = text;
  box.dataset.card = action.type === "play" ? action.value : "";
  shownFor = asked;
  if (action.type === "bid" && $("bid")) $("bid").value = JSON.stringify(action.value);
  mark();
  announce(text);
}

export function setUpHint() {
  $("hint").addEventListener("click", askHint);
}
