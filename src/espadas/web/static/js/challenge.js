// The daily challenge: today's boards and robots, your one attempt (start, go to
// your table, leave), the day's standings (each board against the others and
// the robots' par), why the deal is fair (folded: the commitment and how it is
// checked) and the days before, each a link.
import { call, session } from "./api.js";
import { plural, t } from "./i18n.js";
import { announce, confirmDialog, escapeHtml, setUp, showError } from "./page.js";
import { factsText } from "./challenge/facts.js";
import { renderStandings } from "./challenge/standings.js";

const REFRESH_MS = 15000;

function hour(iso) {
  return iso.slice(11, 16);
}

function renderChallenge(data, me) {
  document.getElementById("today-title").textContent = t("challenge.day", {
    day: data.day,
    opens: hour(data.opens_at),
    closes: hour(data.closes_at),
  });
  document.getElementById("challenge-facts").textContent = factsText(data);
  document.getElementById("commitment").textContent = data.commitment;
  const start = document.getElementById("start");
  const table = document.getElementById("my-table");
  const leave = document.getElementById("leave");
  const state = document.getElementById("attempt-state");
  document.getElementById("sign-in").hidden = Boolean(me);
  start.hidden = !me || Boolean(data.you);
  table.hidden = !data.you;
  leave.hidden = !data.you || data.you.finished || data.you.left_board !== null;
  state.textContent = "";
  if (data.you) {
    table.href = `/mesa/${data.you.table}`;
    if (data.you.left_board !== null) state.textContent = t("challenge.left", { board: data.you.left_board });
    else if (data.you.finished) state.textContent = t("challenge.done");
  }
}

// The days before today, each a link to its page (standings, and its boards
// once closed).
async function showPastDays() {
  const answer = await call("GET", "/api/challenges?limit=14");
  const days = answer.ok ? answer.data.days : [];
  document.getElementById("past-none").hidden = days.length > 0;
  document.getElementById("past-days").innerHTML = days
    .map((d) => `<li><a href="/reto/${escapeHtml(d.day)}">${escapeHtml(d.day)}</a> · ${escapeHtml(plural("challenge.players_n", d.players))}</li>`)
    .join("");
}

async function refresh(me) {
  const today = await call("GET", "/api/challenge");
  if (!today.ok) {
    showError(today.data);
    return null;
  }
  renderChallenge(today.data, me);
  const board = await call("GET", `/api/challenge/${today.data.day}/leaderboard`);
  if (board.ok) renderStandings(board.data);
  return today.data;
}

async function main() {
  await setUp();
  const me = await session();
  let today = await refresh(me);
  showPastDays();
  document.getElementById("start").addEventListener("click", async () => {
    const answer = await call("POST", "/api/challenge/attempt");
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    window.location.href = `/mesa/${answer.data.table}`;
  });
  document.getElementById("leave").addEventListener("click", async () => {
    if (!(await confirmDialog(t("challenge.confirm_leave")))) return;
    const answer = await call("POST", "/api/challenge/leave");
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    announce(t("challenge.left", { board: answer.data.left_board }));
    today = await refresh(me);
    document.getElementById("my-table").focus();
  });
  window.setInterval(async () => {
    today = (await refresh(me)) || today;
  }, REFRESH_MS);
}

main();
