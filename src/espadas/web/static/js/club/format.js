// How the club's pages say things: a rating with its uncertainty, a share as a
// percentage, a date, a player's name (robots by level) and a link to a profile.
import { lang, t } from "../i18n.js";
import { escapeHtml } from "../page.js";

export function ratingText(rating, uncertainty) {
  return t("club.rating", { rating, uncertainty });
}

// "62 %" of made over tried, or a dash when nothing was tried
export function percent(part, whole) {
  if (!whole) return "—";
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(part / whole);
}

export function decimal(value, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

export function dateText(iso, withTime = false) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  const options = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  return new Intl.DateTimeFormat(lang, options).format(when);
}

// robots are named by level, in the page's language; a former player says so
export function playerName(player) {
  if (player.robot) return t("club.robot", { level: t(`robot.${player.robot}`) });
  if (player.former) return t("club.former");
  const id = String(player.id || "");
  if (id.startsWith("robot-")) return t("club.robot", { level: t(`robot.${id.slice(6)}`) });
  return player.name;
}

export function profileHref(id) {
  return `/jugador/${encodeURIComponent(id)}`;
}

export function playerLink(player) {
  return `<a href="${escapeHtml(profileHref(player.id))}">${escapeHtml(playerName(player))}</a>`;
}

// a preset the catalog does not name (a table's own rules) is shown as it is
export function presetName(preset) {
  if (!preset) return t("leaderboard.any_preset");
  const key = `preset.${preset}`;
  const text = t(key);
  return text === key ? preset : text;
}
