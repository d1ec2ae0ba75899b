// A day of the daily challenge (/reto/DAY): its standings, kept up to date while
// the day is open (asked again a moment after the page opens, then every few
// seconds: a result just finished shows without a reload); folded, why the deal
// is fair, and once the day has closed its boards file to download and check
// with `espadas verify`; then each result links to the side-by-side replay of
// that board.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { setUp } from "./page.js";
import { factsText } from "./challenge/facts.js";
import { renderStandings } from "./challenge/standings.js";

const day = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const FIRST_MS = 1500; // the standings are made again in the background: soon after the first read
const EVERY_MS = 10000;

// An open day's standings, asked again after `wait` and then every few seconds.
function follow(shown, wait) {
  window.setTimeout(async () => {
    const board = await call("GET", `/api/challenge/${shown}/leaderboard`);
    if (board.ok) renderStandings(board.data, null);
    follow(shown, EVERY_MS);
  }, wait);
}

async function main() {
  await setUp();
  const state = document.getElementById("day-state");
  const found = await call("GET", `/api/challenge/${encodeURIComponent(day)}`);
  if (!found.ok) {
    state.textContent = (found.data && found.data.message) || t("error.generic");
    return;
  }
  const data = found.data;
  document.getElementById("day-title").textContent = t("challenge_day.title_day", { day: data.day });
  document.title = t("challenge_day.title_day", { day: data.day });
  document.getElementById("challenge-facts").textContent = factsText(data);
  document.getElementById("commitment").textContent = data.commitment;
  const file = `espadas-boards-${data.day}.json`;
  document.getElementById("day-files").hidden = !data.closed;
  document.getElementById("day-open").hidden = data.closed;
  document.getElementById("compare-about").hidden = !data.closed;
  if (data.closed) {
    const link = document.getElementById("boards-file");
    link.href = `/api/challenge/${data.day}/boards`;
    link.setAttribute("download", file);
    document.getElementById("verify-command").textContent = `espadas verify ${file}`;
  }
  const board = await call("GET", `/api/challenge/${data.day}/leaderboard`);
  if (board.ok) renderStandings(board.data, data.closed ? data.day : null);
  if (!data.closed) follow(data.day, FIRST_MS);
  state.textContent = data.closed ? t("challenge_day.closed") : t("challenge_day.still_open");
  document.getElementById("day-deals").hidden = false;
  document.getElementById("day-board").hidden = false;
}

main();
