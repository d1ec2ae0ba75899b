// The table page: the felt with the seats around it and the trick, your hand,
// the score bar, bids, the hand's summary, and every action,
// by mouse, touch and keyboard; an ARIA live region says what happens.
// Each concern is a module under table/; this one renders a view and starts.
import { call, session, signIn } from "./api.js";
import { t } from "./i18n.js";
import { announce, setUp, showError } from "./page.js";
import { renderActions } from "./table/actions.js";
import { changes, notifyTurn } from "./table/announcements.js";
import { awayChanges, renderAway } from "./table/away.js";
import { mountChat, renderChat } from "./table/chat.js";
import { renderInvite, renderRules, renderScores, renderSeats, renderSheet, renderStatus } from "./table/board.js";
import { renderResult } from "./table/finish.js";
import { renderHand } from "./table/hand.js";
import { renderHint, setUpHint } from "./table/hint.js";
import { onKey } from "./table/keys.js";
import { connect } from "./table/live.js";
import { setUpNotices, showMode } from "./table/notices.js";
import { renderSummary, setUpSummary } from "./table/summary.js";
import { renderTrick, setUpTrick } from "./table/trick.js";
import { $, onReceive, setView, tableId, view } from "./table/view.js";

function render(v) {
  renderStatus(v);
  renderSeats(v);
  renderAway(v);
  renderTrick(v);
  renderHand(v);
  renderActions(v);
  renderHint(v);
  renderScores(v);
  renderSheet(v);
  renderRules(v);
  renderInvite(v);
  renderResult(v);
  renderChat(v);
  renderSummary(v);
  $("faults").textContent = v.faults ? t("table.faults", { n: v.faults }) : "";
}

function update(next) {
  if (view && next.version < view.version) return;
  const said = view && next.version === view.version ? [] : [...changes(view, next), ...awayChanges(view, next)];
  const before = view;
  setView(next);
  render(next);
  if (said.length) announce(said.join(". "));
  const g = next.game;
  const mine = g && next.you !== null && g.to_act === next.you && !g.result;
  const wasMine = before && before.game && before.you !== null && before.game.to_act === before.you;
  if (mine && !wasMine) notifyTurn();
}

async function join() {
  const answer = await call("POST", `/api/tables/${tableId}/join`);
  if (!answer.ok) {
    showError(answer.data);
    const read = await call("GET", `/api/tables/${tableId}`);
    if (read.ok) update(read.data);
    return;
  }
  update(answer.data);
  if (answer.data.you === null && answer.data.status === "waiting") announce(t("say.full"));
}

async function main() {
  await setUp();
  mountChat();
  document.addEventListener("keydown", onKey);
  $("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      announce(t("invite.copied"));
    } catch (error) {
      $("invite-link").select();
    }
  });
  $("close-shortcuts").addEventListener("click", () => $("shortcuts").close());
  $("open-sheet").addEventListener("click", () => $("sheet-dialog").showModal());
  $("close-sheet").addEventListener("click", () => $("sheet-dialog").close());
  setUpTrick();
  setUpHint();
  setUpSummary();
  setUpNotices();
  const presets = await call("GET", "/api/presets");
  if (presets.ok) window.espadasRobots = presets.data.robots;
  const me = await session();
  if (me) {
    await join();
    await showMode();
  } else {
    const read = await call("GET", `/api/tables/${tableId}`);
    if (!read.ok) {
      showError(read.data);
      return;
    }
    update(read.data);
    const form = $("signin");
    form.hidden = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = await signIn($("name").value);
      if (!answer.ok) {
        showError(answer.data);
        return;
      }
      form.hidden = true;
      await join();
      connect();
    });
  }
  connect();
}

onReceive(update);
main();
