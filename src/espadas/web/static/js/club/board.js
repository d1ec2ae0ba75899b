// The leaderboard's table: players by rating (with its uncertainty), or pairs
// by their share of games won; each name links to its profile.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { percent, playerLink, presetName, ratingText } from "./format.js";

function head(columns) {
  return `<thead><tr>${columns.map((c) => `<th scope="col">${escapeHtml(t(c))}</th>`).join("")}</tr></thead>`;
}

function won(row) {
  return escapeHtml(t("profile.share", { n: row.won, share: percent(row.won, row.games) }));
}

function playerRows(rows) {
  return rows
    .map((r) => `<tr><td>${r.rank}</td><th scope="row">${playerLink(r)}</th>
<td class="num">${escapeHtml(ratingText(r.rating, r.uncertainty))}</td><td class="num">${r.games}</td><td class="num">${won(r)}</td></tr>`)
    .join("");
}

function pairRows(rows) {
  return rows
    .map((r) => `<tr><td>${r.rank}</td><th scope="row">${r.players.map(playerLink).join(" <span aria-hidden=\"true\">+</span><span class=\"sr-only\">" + escapeHtml(t("board.and")) + "</span> ")}</th>
<td class="num">${r.games}</td><td class="num">${won(r)}</td></tr>`)
    .join("");
}

export function caption(data) {
  return [t(`club.kind.${data.kind}`), presetName(data.preset), t(`leaderboard.period.${data.period}`)].join(" · ");
}

export function boardTable(data) {
  const pairs = data.kind === "pairs";
  const columns = pairs
    ? ["board.rank", "board.pair", "club.games_head", "club.won_head"]
    : ["board.rank", "board.player", "club.rating_head", "club.games_head", "club.won_head"];
  const body = pairs ? pairRows(data.rows) : playerRows(data.rows);
  return `<table class="club-table board"><caption>${escapeHtml(caption(data))}</caption>${head(columns)}<tbody>${body}</tbody></table>`;
}
