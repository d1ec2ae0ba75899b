// One event (/torneo/ID): join (a newcomer chooses a name here, as at a table's
// link, and is joined with it), entrants, a word before the start when the
// entrants make one table a round (nothing to compare), the tables of each round
// (the link to yours; the others once their round is over), the standings per
// round and overall, and at the end the boards file and the records.
import { call, session, signIn } from "./api.js";
import { lang, plural, seatPlace, t } from "./i18n.js";
import { announce, confirmDialog, escapeHtml, setUp, showError } from "./page.js";

const REFRESH_MS = 15000;
let startWarning = ""; // said again before the start, when the entrants make one table
const id = document.body.dataset.table;
const token = new URLSearchParams(window.location.search).get("t");

function fixed(value) {
  return String(Math.round(value * 10) / 10);
}

function player(name) {
  return name.startsWith("robot:") ? t("events.robot_seat", { level: t(`robot.${name.slice(6)}`) }) : name;
}

function entrantName(name) {
  return name.split(" & ").map(player).join(" & ");
}

// the organiser (or the other side) puts a robot in an absent entrant's seat
function replacing(x, name) {
  if (!x.replace_at || x.waiting === null) return "";
  const who = player(x.players[x.waiting]);
  if (!x.replace_open) {
    const when = new Date(x.replace_at).toLocaleString(lang);
    return ` <span class="about">${escapeHtml(t("events.replace_from", { name: who, when }))}</span>`;
  }
  const label = escapeHtml(t("events.replace_label", { name: who, n: x.number }));
  return ` <button type="button" class="replace" data-table="${escapeHtml(x.table)}" data-name="${escapeHtml(who)}" aria-label="${label}">${escapeHtml(t("action.replace"))}</button>`;
}

function renderEvent(e, me) {
  document.getElementById("event-name").textContent = e.name;
  document.title = `${e.name} · Espadas`;
  document.getElementById("event-facts").textContent = t("events.summary", {
    mode: t(`events.mode.${e.mode}`),
    boards: plural("events.boards_n", e.boards),
    rounds: plural("events.rounds_n", e.rounds),
    preset: t(`preset.${e.rules.preset}`),
    status: t(`events.status.${e.status}`),
  });
  document.getElementById("event-organiser").textContent = t("events.organiser", { name: e.organiser });
  document.getElementById("commitment").textContent = e.commitment;
  const open = e.status === "open";
  document.getElementById("signin").hidden = Boolean(me);
  document.getElementById("join").hidden = !me || !open || e.you.entrant || (!e.invited_only && !token);
  document.getElementById("leave").hidden = !open || !e.you.entrant;
  document.getElementById("start").hidden = !open || !e.you.organiser || e.entrants.length === 0;
  document.getElementById("event-state").textContent = e.you.entrant && open ? t("events.joined") : "";
  // one table a round: no board is played anywhere else, so nobody can be compared
  const lonely = open && e.entrants.length > 0 && e.tables_per_round < 2;
  const warning = document.getElementById("one-table");
  warning.hidden = !lonely;
  warning.textContent = lonely ? t("events.one_table", { need: e.two_tables_from }) : "";
  startWarning = lonely ? warning.textContent : "";
  document.getElementById("link-row").hidden = !e.link;
  document.getElementById("event-link").value = e.link || "";
  document.getElementById("entrants-title").textContent = t("events.entrants", { count: e.entrants.length });
  document.getElementById("no-entrants").hidden = e.entrants.length > 0;
  document.getElementById("entrants").innerHTML = e.entrants.map((n) => `<li>${escapeHtml(n)}</li>`).join("");
  const box = document.getElementById("tables-box");
  box.hidden = e.tables.length === 0;
  const rounds = [...new Set(e.tables.map((x) => x.round))];
  document.getElementById("tables").innerHTML = rounds.map((r) => {
    const items = e.tables.filter((x) => x.round === r).map((x) => {
      const line = t("events.table_line", {
        players: x.players.map((name, seat) => `${seatPlace(x.players.length, seat)}: ${player(name)}`).join(", "),
        played: x.boards_played,
        boards: e.boards / e.rounds,
      });
      const name = escapeHtml(t("events.table_n", { n: x.number }));
      const link = x.table
        ? `<a href="/mesa/${encodeURIComponent(x.table)}">${name}</a>`
        : `${name} <span class="about">${escapeHtml(t("events.hidden"))}</span>`;
      return `<li>${link}: ${escapeHtml(line)}${replacing(x, name)}</li>`;
    }).join("");
    return `<h3>${escapeHtml(t("events.round_n", { n: r }))}</h3><ul class="event-tables">${items}</ul>`;
  }).join("");
  const done = e.status === "finished";
  document.getElementById("downloads").hidden = !done;
  if (done) {
    document.getElementById("boards-file").href = `/api/events/${id}/boards`;
    document.getElementById("records-file").href = `/api/events/${id}/records`;
  }
}

function standingsTable(caption, rows) {
  const head = ["events.rank", "events.entrant", "events.matchpoints", "events.total", "events.played"]
    .map((k) => `<th scope="col">${escapeHtml(t(k))}</th>`).join("");
  const body = rows.map((s) => `<tr><td>${s.rank}</td><th scope="row">${escapeHtml(entrantName(s.entrant))}</th><td>${fixed(s.matchpoints)}</td><td>${fixed(s.total)}</td><td>${s.boards}</td></tr>`).join("");
  return `<div class="standings" tabindex="0" role="region" aria-label="${escapeHtml(caption)}"><table><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function boardsTable(rows, boards) {
  const caption = t("events.by_board");
  const numbers = Array.from({ length: boards }, (_, i) => i + 1);
  const head = numbers.map((n) => `<th scope="col">${escapeHtml(t("events.board_n", { n }))}</th>`).join("");
  const body = rows.map((s) => {
    const lines = new Map(s.lines.map((line) => [line.board, line]));
    const cells = numbers.map((n) => {
      const line = lines.get(n);
      if (!line) return "<td>–</td>";
      const text = line.field === null
        ? t("events.line_alone", { points: line.points })
        : t("events.line", { points: line.points, field: fixed(line.field) });
      return `<td>${escapeHtml(text)}</td>`;
    }).join("");
    return `<tr><th scope="row">${escapeHtml(entrantName(s.entrant))}</th>${cells}</tr>`;
  }).join("");
  return `<div class="standings" tabindex="0" role="region" aria-label="${escapeHtml(caption)}"><table><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">${escapeHtml(t("events.entrant"))}</th>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function renderStandings(s, boards) {
  const empty = s.overall.length === 0;
  document.getElementById("standings-empty").hidden = !empty;
  if (empty) {
    document.getElementById("standings").innerHTML = "";
    return;
  }
  const parts = [standingsTable(t("events.overall"), s.overall)];
  if (s.rounds.length > 1) {
    for (const r of s.rounds) {
      if (r.standings.length) parts.push(standingsTable(t("events.round_n", { n: r.round }), r.standings));
    }
  }
  parts.push(boardsTable(s.overall, boards));
  document.getElementById("standings").innerHTML = parts.join("");
}

async function refresh(me) {
  const answer = await call("GET", `/api/events/${id}`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  renderEvent(answer.data, me);
  const standings = await call("GET", `/api/events/${id}/standings`);
  if (standings.ok) renderStandings(standings.data, answer.data.boards);
}

async function post(path, body, said) {
  const answer = await call("POST", `/api/events/${id}/${path}`, body);
  if (!answer.ok) {
    showError(answer.data);
    return false;
  }
  if (said) announce(said);
  return true;
}

// The name form of a newcomer (as at a table's link): signed in, they are joined
// at once when the link (or the list) lets them, and the page is drawn again.
function setUpSignIn(state) {
  const form = document.getElementById("signin");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await signIn(document.getElementById("name").value);
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    state.me = answer.data;
    const read = await call("GET", `/api/events/${id}`);
    if (read.ok && read.data.status === "open" && (token || read.data.invited_only)) {
      await post("join", { token }, t("events.joined"));
    }
    await refresh(state.me);
    document.getElementById("event-name").focus();
  });
}

async function main() {
  await setUp();
  const state = { me: await session() };
  setUpSignIn(state);
  // the buttons answer from the moment they are shown
  document.getElementById("join").addEventListener("click", async () => {
    if (await post("join", { token }, t("events.joined"))) await refresh(state.me);
    document.getElementById("leave").focus();
  });
  document.getElementById("leave").addEventListener("click", async () => {
    if (await post("leave", {}, "")) await refresh(state.me);
    document.getElementById("event-name").focus();
  });
  document.getElementById("start").addEventListener("click", async () => {
    if (startWarning && !(await confirmDialog(`${startWarning} ${t("events.start_anyway")}`))) return;
    if (await post("start", {}, t("events.started"))) await refresh(state.me);
  });
  document.getElementById("tables").addEventListener("click", async (event) => {
    const put = event.target.closest("button.replace");
    if (!put) return;
    const name = put.dataset.name;
    if (!(await confirmDialog(t("confirm.replace", { name })))) return;
    const answer = await call("POST", `/api/tables/${encodeURIComponent(put.dataset.table)}/actions`, { type: "replace" });
    if (!answer.ok) showError(answer.data);
    else announce(t("say.replaced", { name }));
    await refresh(state.me);
  });
  await refresh(state.me);
  window.setInterval(() => refresh(state.me), REFRESH_MS);
}

main();
