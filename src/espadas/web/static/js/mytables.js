// "Tus mesas" on the start page: each of your tables with whom you play with
// and against, the score (your side first), whether it is your turn, how it
// ended, and whether it is an event's or a daily challenge's table.
import { call } from "./api.js";
import { lang, personName, robotName, t } from "./i18n.js";
import { escapeHtml } from "./page.js";

const SHOWN = 5; // the tables listed at once; the others under "Más mesas"

function names(list) {
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(list);
}

function seatName(row, seat) {
  const name = row.players[seat];
  if (name === null) return t("mine.free");
  return name.startsWith("robot:") ? robotName(seat) : personName(name);
}

function mySide(row) {
  if (row.you === null) return null;
  return row.sides.length === 2 && row.players.length === 4 ? (row.you % 2 === 0 ? "ns" : "ew") : String(row.you);
}

// "Con Chip contra Bit y Duna" (pairs), "Contra Luis, Bit y Duna" (alone);
// before the start, the seats still empty
function whom(row) {
  const others = row.players.map((_, seat) => seat).filter((seat) => seat !== row.you);
  const empty = row.players.filter((name) => name === null).length;
  if (row.status === "waiting" && empty) return t(empty === 1 ? "mine.open_seat" : "mine.open_seats", { n: empty });
  if (row.you === null) return names(row.players.map((_, seat) => seatName(row, seat)));
  const pairs = mySide(row) === "ns" || mySide(row) === "ew";
  if (!pairs) return t("mine.against", { them: names(others.map((s) => seatName(row, s))) });
  const partner = (row.you + 2) % 4;
  const them = others.filter((s) => s !== partner).map((s) => seatName(row, s));
  return t("mine.with_against", { partner: seatName(row, partner), them: names(them) });
}

function score(row) {
  if (!row.scores) return "";
  const mine = mySide(row);
  const order = row.sides.map((_, i) => i);
  if (mine !== null) order.sort((a, b) => (row.sides[b] === mine) - (row.sides[a] === mine));
  const label = (side) => {
    if (side === "ns" || side === "ew") return t(side === mine ? "side.us_short" : "side.them_short");
    return side === mine ? t("mine.you") : seatName(row, Number(side));
  };
  return order.map((i) => `${label(row.sides[i])} ${row.scores[i]}`).join(" · ");
}

function state(row) {
  if (row.status === "waiting") return t("mine.waiting");
  if (row.status === "playing") return row.your_turn ? t("mine.turn") : t("mine.playing", { n: row.hand });
  if (row.kind === "event") return t("mine.round_over");
  if (row.kind === "challenge") return t("mine.challenge_over");
  const mine = mySide(row);
  if (mine === null || row.winner === null) return t("mine.over");
  const alone = mine !== "ns" && mine !== "ew";
  if (row.winner === mine) return t(alone ? "mine.won_alone" : "mine.won");
  return t(alone ? "mine.lost_alone" : "mine.lost");
}

function line(row) {
  const when = new Date(row.updated_at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
  const kind = row.kind === "table" ? "" : `<span class="my-kind">${escapeHtml(t(`mine.kind.${row.kind}`))}</span> `;
  const turn = row.your_turn ? " my-turn" : "";
  const points = score(row);
  return `<li class="my-table${turn}"><a href="/mesa/${escapeHtml(row.id)}">${kind}${escapeHtml(whom(row))}</a>
<span class="my-state">${escapeHtml(state(row))}</span>${points ? ` <span class="my-score">${escapeHtml(points)}</span>` : ""}
<span class="when">${escapeHtml(when)}</span></li>`;
}

export async function listTables() {
  const answer = await call("GET", "/api/tables");
  const list = document.getElementById("my-tables");
  // a newcomer has no tables yet: the list shows once there is one, the form first
  document.getElementById("mine").hidden = !answer.ok || answer.data.tables.length === 0;
  if (!answer.ok || answer.data.tables.length === 0) return;
  // your turn first, then the newest; past the first few, folded away
  const rows = [...answer.data.tables].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  list.innerHTML = rows.slice(0, SHOWN).map(line).join("");
  const more = document.getElementById("more-tables");
  more.hidden = rows.length <= SHOWN;
  document.getElementById("more-tables-title").textContent = t("mine.more", { n: rows.length - SHOWN });
  document.getElementById("my-tables-more").innerHTML = rows.slice(SHOWN).map(line).join("");
}
