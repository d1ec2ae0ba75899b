// A profile's numbers: the ratings of each kind with their charts, the
// statistics Spades players care about, and the favourite partners.
import { t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { historyChart } from "./chart.js";
import { decimal, percent, playerLink, ratingText } from "./format.js";

export const KINDS = ["partnership", "individual"];

function ratingBlock(kind, r) {
  const title = t(`club.kind.${kind}`);
  if (!r) {
    return `<section class="rating-kind" aria-labelledby="rating-${kind}"><h3 id="rating-${kind}">${escapeHtml(title)}</h3>
<p>${escapeHtml(t("profile.unrated"))}</p></section>`;
  }
  const provisional = r.provisional ? ` <span class="badge">${escapeHtml(t("club.provisional"))}</span>` : "";
  const about = r.provisional ? `<p class="about">${escapeHtml(t("profile.provisional_about"))}</p>` : "";
  return `<section class="rating-kind" aria-labelledby="rating-${kind}"><h3 id="rating-${kind}">${escapeHtml(title)}</h3>
<p class="rating-now"><strong class="rating-value">${escapeHtml(ratingText(r.rating, r.uncertainty))}</strong>${provisional}
<span class="rating-games">${escapeHtml(t("profile.rated_games", { n: r.games }))}</span></p>${about}
${historyChart(r.history, `chart-${kind}`, t("chart.title", { kind: title }))}</section>`;
}

export function renderRatings(ratings) {
  document.getElementById("ratings").innerHTML = KINDS.map((kind) => ratingBlock(kind, ratings[kind])).join("");
}

function madeText(made, tried) {
  if (!tried) return t("profile.none_tried");
  return t("profile.made_of", { made, tried, share: percent(made, tried) });
}

function statRows(s) {
  const perHand = (value) => (s.hands ? decimal(value / s.hands, 2) : "—");
  return [
    ["games", String(s.games)],
    ["won", s.games ? t("profile.share", { n: s.won, share: percent(s.won, s.games) }) : "0"],
    ["hands", String(s.hands)],
    ["contracts", madeText(s.contracts_made, s.contracts)],
    ["nil", madeText(s.nil_made, s.nil_bid)],
    ["blind_nil", madeText(s.blind_nil_made, s.blind_nil_bid)],
    ["bags", perHand(s.bags)],
    ["tricks_over", String(s.tricks_over)],
    ["tricks_under", String(s.tricks_under)],
    ["bostons", String(s.bostons)],
    ["reneges", t("profile.reneges_text", { accused: s.reneges_accused, proven: s.reneges_proven })],
    ["points", s.hands ? decimal(s.points / s.hands, 1) : "—"],
  ];
}

// a person's rated games finished and left (abandoned, claimed against, or given to a robot)
function completionText(c) {
  const games = c.finished + c.left;
  if (!games) return t("profile.completion_none");
  return t("profile.completion_text", { share: percent(c.finished, games), finished: c.finished, games, left: c.left });
}

export function renderStats(stats, completion) {
  const rows = statRows(stats);
  if (completion) rows.splice(2, 0, ["completion", completionText(completion)]);
  document.getElementById("stats").innerHTML = rows
    .map(([key, value]) => `<div class="stat"><dt>${escapeHtml(t(`stat.${key}`))}</dt><dd>${escapeHtml(value)}</dd></div>`)
    .join("");
}

export function renderPartners(partners) {
  const box = document.getElementById("partners");
  if (!partners.length) {
    box.innerHTML = `<p>${escapeHtml(t("profile.no_partners"))}</p>`;
    return;
  }
  const rows = partners
    .map((p) => `<tr><th scope="row">${playerLink(p)}</th><td>${p.games}</td><td>${escapeHtml(t("profile.share", { n: p.won, share: percent(p.won, p.games) }))}</td></tr>`)
    .join("");
  box.innerHTML = `<table class="club-table"><caption class="sr-only">${escapeHtml(t("profile.partners"))}</caption>
<thead><tr><th scope="col">${escapeHtml(t("profile.partner"))}</th><th scope="col">${escapeHtml(t("club.games_head"))}</th>
<th scope="col">${escapeHtml(t("club.won_head"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
}
