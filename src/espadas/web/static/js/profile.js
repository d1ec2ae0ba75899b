// A player's profile (/jugador/SUBJECT, a person's id or robot-LEVEL): ratings
// with their history charts, statistics, favourite partners and the games.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { setUp } from "./page.js";
import { playerName } from "./club/format.js";
import { GameHistory } from "./club/games.js";
import { offerListing } from "./club/listed.js";
import { renderPartners, renderRatings, renderStats } from "./club/stats.js";

const subject = decodeURIComponent(window.location.pathname.split("/")[2] || "");

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
  renderStats(player.stats);
  renderPartners(player.partners);
  const history = new GameHistory(player.id);
  await history.load();
  await offerListing(player.id);
  state.textContent = "";
  state.hidden = true;
  document.getElementById("profile").hidden = false;
}

main();
