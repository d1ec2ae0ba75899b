// A profile's game history, newest first, a page at a time ("More games" asks
// for the page before the last one shown, with the API's `next` cursor).
import { call } from "../api.js";
import { t } from "../i18n.js";
import { announce, escapeHtml, showError } from "../page.js";
import { dateText, playerLink, presetName } from "./format.js";

const PAGE = 20;

function resultText(game) {
  if (game.partners.length) return t(game.won ? "game.won" : "game.lost");
  return t("game.place", { place: game.place, players: game.players });
}

function people(label, list) {
  if (!list.length) return "";
  return `<p class="game-people">${escapeHtml(t(label))} ${list.map(playerLink).join(", ")}</p>`;
}

function gameItem(game) {
  const rated = game.rated ? "" : ` · ${escapeHtml(t("game.unrated"))}`;
  const outcome = game.won ? "won" : "lost";
  return `<li class="game" tabindex="-1">
<p class="game-head"><strong class="result ${outcome}">${escapeHtml(resultText(game))}</strong>
· ${escapeHtml(t("game.score", { n: game.score }))}</p>
<p class="game-rules">${escapeHtml(dateText(game.finished_at, true))} · ${escapeHtml(presetName(game.preset))}
· ${escapeHtml(t("game.players", { n: game.players }))}${rated}</p>
${people("game.with", game.partners)}${people("game.against", game.opponents)}
<p class="game-links"><a href="${escapeHtml(game.replay)}">${escapeHtml(t("game.replay"))}</a>
<a href="${escapeHtml(game.record)}" download>${escapeHtml(t("game.record"))}</a></p></li>`;
}

export class GameHistory {
  constructor(subject) {
    this.subject = subject;
    this.next = null;
    this.list = document.getElementById("games");
    this.more = document.getElementById("more-games");
    this.more.addEventListener("click", () => this.load(true));
  }

  async load(again = false) {
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (again && this.next) query.set("before", this.next);
    this.more.disabled = true;
    const answer = await call("GET", `/api/club/players/${encodeURIComponent(this.subject)}/games?${query}`);
    this.more.disabled = false;
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    const { games, next } = answer.data;
    const before = this.list.children.length;
    this.list.insertAdjacentHTML("beforeend", games.map(gameItem).join(""));
    this.next = next;
    this.more.hidden = !next;
    document.getElementById("games-none").hidden = this.list.children.length > 0;
    if (again && games.length) {
      // the reader goes on from the first game just shown
      this.list.children[before].focus();
      announce(t("profile.more_loaded", { n: games.length }));
    }
  }
}
