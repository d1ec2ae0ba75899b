// A day's standings of the daily challenge: each player's place, their share of
// the others beaten and their points over the others' average, and under it a
// row of each board's result in a short chip (the average and the robots'
// result said in words to screen readers and on hover), the robots' par last.
// The chips wrap across the table's width, so it fits a phone as a desktop.
// Once the day has closed (``compare``: its day) each chip links to the
// side-by-side replay of that board, and each name to the player's profile.
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

function chip(n, line, standing, compare) {
  if (!line) return "";
  const said = t("challenge.board_result", { n, result: lineText(line) });
  const robot = line.robot ? `<span class="chip-robot">${escapeHtml(t("challenge.chip_robot"))}</span>` : "";
  const face = `<span class="chip-n" aria-hidden="true">${n}</span><span aria-hidden="true">${escapeHtml(String(line.points))}${robot}</span>`;
  if (!compare) return `<li class="chip" title="${escapeHtml(said)}">${face}<span class="sr-only">${escapeHtml(said)}</span></li>`;
  const href = `/reto/${compare}/tablero/${n}?jugador=${encodeURIComponent(standing.player)}`;
  const label = `${t("challenge.compare_link", { name: standing.name, board: n })}: ${lineText(line)}`;
  return `<li class="chip"><a href="${escapeHtml(href)}" title="${escapeHtml(said)}" aria-label="${escapeHtml(label)}">${face}</a></li>`;
}

function plainChips(values, key) {
  return values.map((v, i) => {
    const said = t(key, { n: i + 1, points: v });
    return `<li class="chip" title="${escapeHtml(said)}"><span class="chip-n" aria-hidden="true">${i + 1}</span><span aria-hidden="true">${escapeHtml(String(v))}</span><span class="sr-only">${escapeHtml(said)}</span></li>`;
  }).join("");
}

export function renderStandings(data, compare = null) {
  const box = document.getElementById("standings");
  document.getElementById("board-empty").hidden = data.standings.length > 0;
  box.hidden = data.standings.length === 0;
  if (!data.standings.length) return;
  const boards = Array.from({ length: data.boards }, (_, i) => i + 1);
  const par = data.par
    ? `<tr class="par"><th scope="row" colspan="4">${escapeHtml(t("challenge.par"))}</th></tr>
<tr class="lines"><td colspan="4"><ul class="chips">${plainChips(data.par, "challenge.par_board")}</ul></td></tr>`
    : "";
  // your own row after the first ones shown, when you are further down
  const shown = data.mine && data.you >= data.standings.length ? [...data.standings, data.mine] : data.standings;
  const placeOf = (i) => (i < data.standings.length ? i : data.you);
  const rows = shown.map((s, k) => {
    const i = placeOf(k);
    const cells = new Map(s.lines.map((line) => [line.board, line]));
    const you = data.you === i ? ` (${escapeHtml(t("challenge.you"))})` : "";
    const name = compare ? `<a href="/jugador/${encodeURIComponent(s.player)}">${escapeHtml(s.name)}</a>` : escapeHtml(s.name);
    const chips = boards.map((n) => chip(n, cells.get(n), s, compare)).join("");
    const boardsOf = `<span class="sr-only">${escapeHtml(t("challenge.boards_of", { name: s.name }))}</span>`;
    return `<tr${data.you === i ? ' class="you"' : ""}><td>${s.rank}</td><th scope="row">${name}${you}</th><td>${fixed(s.matchpoints)}</td><td>${fixed(s.total)}</td></tr>
<tr class="lines"><td colspan="4">${boardsOf}<ul class="chips">${chips}</ul></td></tr>`;
  }).join("");
  const head = ["challenge.rank", "challenge.player", "challenge.matchpoints", "challenge.total"]
    .map((key) => `<th scope="col">${escapeHtml(t(key))}</th>`).join("");
  box.innerHTML = `<table><caption>${escapeHtml(t("challenge.table_caption"))}</caption>
<thead><tr>${head}</tr></thead>
<tbody>${rows}${par}</tbody></table>`;
}
