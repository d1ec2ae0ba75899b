// A day's standings of the daily challenge: each player's result on each board
// against the field and par. Once the day has closed (``compare``: its day) each
// result links to the side-by-side replay of that board, and each name to the
// player's profile.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";

export function fixed(value) {
  return value === null || value === undefined ? t("challenge.no_field") : String(Math.round(value * 10) / 10);
}

function lineText(line) {
  const par = line.par === null ? t("challenge.par_pending") : String(line.par);
  const key = line.robot ? "challenge.line_robot" : "challenge.line";
  return t(key, { points: line.points, field: fixed(line.field), par });
}

function cell(line, standing, compare) {
  if (!line) return "–";
  const text = escapeHtml(lineText(line));
  if (!compare) return text;
  const href = `/reto/${compare}/tablero/${line.board}?jugador=${encodeURIComponent(standing.player)}`;
  const label = t("challenge.compare_link", { name: standing.name, board: line.board });
  return `<a href="${escapeHtml(href)}" aria-label="${escapeHtml(label)}">${text}</a>`;
}

export function renderStandings(data, compare = null) {
  const box = document.getElementById("standings");
  document.getElementById("board-empty").hidden = data.standings.length > 0;
  box.hidden = data.standings.length === 0;
  if (!data.standings.length) return;
  const boards = Array.from({ length: data.boards }, (_, i) => i + 1);
  const head = boards.map((n) => `<th scope="col">${escapeHtml(t("challenge.board_n", { n }))}</th>`).join("");
  const par = data.par
    ? `<tr class="par"><th scope="row" colspan="4">${escapeHtml(t("challenge.par"))}</th>${data.par.map((p) => `<td>${p}</td>`).join("")}</tr>`
    : "";
  // your own row after the first ones shown, when you are further down
  const shown = data.mine && data.you >= data.standings.length ? [...data.standings, data.mine] : data.standings;
  const placeOf = (i) => (i < data.standings.length ? i : data.you);
  const rows = shown.map((s, k) => {
    const i = placeOf(k);
    const cells = new Map(s.lines.map((line) => [line.board, line]));
    const you = data.you === i ? ` (${escapeHtml(t("challenge.you"))})` : "";
    const name = compare ? `<a href="/jugador/${encodeURIComponent(s.player)}">${escapeHtml(s.name)}</a>` : escapeHtml(s.name);
    const tds = boards.map((n) => `<td>${cell(cells.get(n), s, compare)}</td>`).join("");
    return `<tr${data.you === i ? ' class="you"' : ""}><td>${s.rank}</td><th scope="row">${name}${you}</th><td>${fixed(s.matchpoints)}</td><td>${fixed(s.total)}</td>${tds}</tr>`;
  }).join("");
  box.innerHTML = `<table><caption>${escapeHtml(t("challenge.table_caption"))}</caption>
<thead><tr><th scope="col">${escapeHtml(t("challenge.rank"))}</th><th scope="col">${escapeHtml(t("challenge.player"))}</th><th scope="col">${escapeHtml(t("challenge.matchpoints"))}</th><th scope="col">${escapeHtml(t("challenge.total"))}</th>${head}</tr></thead>
<tbody>${rows}${par}</tbody></table>`;
}
