// The leaderboard (/clasificacion): players of partnership or individual games
// by rating, or pairs by games won, filtered by rules and period, or players by
// the daily challenge's own rating. The address
// says the filters (?kind=&preset=&period=), so a view can be shared or kept,
// and Back goes to the filters before.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { setUp, showError } from "./page.js";
import { boardTable } from "./club/board.js";

const FIELDS = ["kind", "preset", "period"];
const DEFAULTS = { kind: "partnership", preset: "", period: "all" };

function fromAddress() {
  const query = new URLSearchParams(window.location.search);
  for (const field of FIELDS) {
    const select = document.getElementById(field);
    const wanted = query.get(field) ?? DEFAULTS[field];
    const known = [...select.options].some((o) => o.value === wanted);
    select.value = known ? wanted : DEFAULTS[field];
  }
}

function chosen() {
  return Object.fromEntries(FIELDS.map((f) => [f, document.getElementById(f).value]));
}

function toAddress(filters) {
  // always in the same order (kind, preset, period), defaults left out
  const url = new URL(window.location.href);
  for (const field of FIELDS) url.searchParams.delete(field);
  for (const field of FIELDS) {
    if (filters[field] && filters[field] !== DEFAULTS[field]) url.searchParams.set(field, filters[field]);
  }
  if (url.href !== window.location.href) window.history.pushState(null, "", url);
}

let asked = 0;

async function show() {
  const filters = chosen();
  // the daily challenge's rating counts every closed day: no rules or period to choose
  for (const field of ["preset", "period"]) document.getElementById(field).disabled = filters.kind === "challenge";
  const query = new URLSearchParams({ kind: filters.kind, period: filters.period, limit: "50" });
  if (filters.preset) query.set("preset", filters.preset);
  const mine = ++asked;
  const board = document.getElementById("board");
  board.setAttribute("aria-busy", "true");
  const answer = await call("GET", `/api/club/leaderboard?${query}`);
  if (mine !== asked) return; // a later choice is on its way
  board.removeAttribute("aria-busy");
  const state = document.getElementById("board-state");
  if (!answer.ok) {
    showError(answer.data);
    state.textContent = "";
    return;
  }
  const data = answer.data;
  const pairs = data.kind === "pairs";
  board.innerHTML = data.rows.length ? boardTable(data) : "";
  const said = data.rows.length ? t(pairs ? "board.count_pairs" : "board.count_players", { n: data.rows.length }) : t("board.empty");
  state.textContent = said; // a live region: the count is read when it changes
}

async function main() {
  await setUp();
  fromAddress();
  const form = document.getElementById("filters");
  for (const field of FIELDS) {
    document.getElementById(field).addEventListener("change", () => {
      toAddress(chosen());
      show();
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    toAddress(chosen());
    show();
  });
  window.addEventListener("popstate", () => {
    fromAddress();
    show();
  });
  await show();
}

main();
