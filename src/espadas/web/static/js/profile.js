// A player's profile (/jugador/SUBJECT, a person's id or robot-LEVEL): ratings
// with their history charts, statistics, favourite partners and the games.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { escapeHtml, setUp } from "./page.js";
import { decimal, playerName, ratingText } from "./club/format.js";
import { GameHistory } from "./club/games.js";
import { offerListing } from "./club/listed.js";
import { renderPartners, renderRatings, renderStats } from "./club/stats.js";

const subject = decodeURIComponent(window.location.pathname.split("/")[2] || "");

// the daily challenge's own rating: "Reto diario", shown once a day of theirs is rated
function renderChallenge(r, robot) {
  const box = document.getElementById("challenge-box");
  box.hidden = Boolean(robot);
  const badge = r && r.provisional ? ` <span class="badge">${escapeHtml(t("club.provisional"))}</span>` : "";
  document.getElementById("challenge-rating").innerHTML = r
    ? `<p class="rating-now"><strong class="rating-value">${escapeHtml(ratingText(r.rating, r.uncertainty))}</strong>${badge}
<span class="rating-games">${escapeHtml(t("profile.challenge_days", { n: r.days }))}</span></p>
<p>${escapeHtml(t("profile.challenge_above", { points: decimal(r.above_per_board, 1) }))}</p>
<p><a href="/reto">${escapeHtml(t("profile.challenge_link"))}</a></p>`
    : `<p>${escapeHtml(t("profile.challenge_none"))} <a href="/reto">${escapeHtml(t("profile.challenge_link"))}</a></p>`;
}

function note(player) {
  if (player.robot) return t("profile.robot_note", { level: t(`robot.${player.robot}`) });
  if (player.former) return t("profile.former_note");
  return "";
}

async function main() {
  await setUp();
  const state = document.getElementById("profile-state");
  const answer = await call("GET", `/api/club/players/${encodeURIComponent(subject)}`);
  if (!answer.ok) {
    state.textContent = answer.status === 404 ? t("profile.unknown") : (answer.data && answer.data.message) || t("error.generic");
    return;
  }
  const player = answer.data;
  const name = playerName(player);
  document.getElementById("player-name").textContent = name;
  document.title = t("profile.page_title_name", { name });
  const said = note(player);
  const noteBox = document.getElementById("player-note");
  noteBox.textContent = said;
  noteBox.hidden = !said;
  renderRatings(player.ratings);
  renderChallenge(player.challenge, player.robot);
  renderStats(player.stats, player.completion);
  renderPartners(player.partners);
  const history = new GameHistory(player.id);
  await history.load();
  await offerListing(player.id);
  state.textContent = "";
  state.hidden = true;
  document.getElementById("profile").hidden = false;
}

main();
