// The leaderboard's table: players by rating (with its uncertainty), or pairs
// by their share of games won; each name links to its profile.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { decimal, percent, playerLink, presetName, ratingText } from "./format.js";

// the columns: a text key, and the class of its cells ("num": right-aligned numbers, "wide": not on phones)
function head(columns) {
  return `<thead><tr>${columns.map(([key, kind]) => `<th scope="col" class="${kind}">${escapeHtml(t(key))}</th>`).join("")}</tr></thead>`;
}

function won(row) {
  return escapeHtml(t("profile.share", { n: row.won, share: percent(row.won, row.games) }));
}

// on a phone the games and wins columns give way to a line under the name
function counts(row) {
  return `<td class="num wide">${row.games}</td><td class="num wide">${won(row)}</td>`;
}

function narrow(row) {
  return `<span class="narrow">${escapeHtml(t("board.counts", { games: row.games, won: row.won, share: percent(row.won, row.games) }))}</span>`;
}

function playerRows(rows) {
  return rows
    .map((r) => `<tr><td>${r.rank}</td><th scope="row">${playerLink(r)}${narrow(r)}</th>
<td class="num">${escapeHtml(ratingText(r.rating, r.uncertainty))}</td>${counts(r)}</tr>`)
    .join("");
}

function pairRows(rows) {
  const and = ` <span aria-hidden="true">+</span><span class="sr-only">${escapeHtml(t("board.and"))}</span> `;
  return rows.map((r) => `<tr><td>${r.rank}</td><th scope="row">${r.players.map(playerLink).join(and)}${narrow(r)}</th>${counts(r)}</tr>`).join("");
}

// the daily challenge's rating: days played and points above the field per board
function challengeRows(rows) {
  return rows
    .map((r) => `<tr><td>${r.rank}</td><th scope="row">${playerLink(r)}</th>
<td class="num">${escapeHtml(ratingText(r.rating, r.uncertainty))}</td><td class="num">${r.days}</td><td class="num">${escapeHtml(decimal(r.above_per_board, 1))}</td></tr>`)
    .join("");
}

export function caption(data) {
  if (data.kind === "challenge") return t("club.kind.challenge");
  return [t(`club.kind.${data.kind}`), presetName(data.preset), t(`leaderboard.period.${data.period}`)].join(" · ");
}

export function boardTable(data) {
  if (data.kind === "challenge") {
    const columns = [["board.rank", ""], ["board.player", ""], ["club.rating_head", "num"], ["board.challenge_days", "num"], ["board.challenge_above", "num wrap"]];
    return `<table class="club-table board"><caption>${escapeHtml(caption(data))}</caption>${head(columns)}<tbody>${challengeRows(data.rows)}</tbody></table>`;
  }
  const pairs = data.kind === "pairs";
  const rating = pairs ? [] : [["club.rating_head", "num"]];
  const name = pairs ? "board.pair" : "board.player";
  const columns = [["board.rank", ""], [name, ""], ...rating, ["club.games_head", "num wide"], ["club.won_head", "num wide"]];
  const body = pairs ? pairRows(data.rows) : playerRows(data.rows);
  return `<table class="club-table board"><caption>${escapeHtml(caption(data))}</caption>${head(columns)}<tbody>${body}</tbody></table>`;
}
