// Texts from the catalog (served at /i18n/LANG.json from espadas.i18n); Spanish by default.

let catalog = {};
export let lang = document.documentElement.lang || "es";

export async function loadCatalog() {
  const response = await fetch(`/i18n/${lang}.json`);
  catalog = await response.json();
}

export function t(key, params = {}) {
  let text = catalog[key];
  if (text === undefined) {
    return key;
  }
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

export const SUITS = ["S", "H", "D", "C"];

export function cardName(code) {
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  return t("card.name", { rank: t(`rank.${rank}`), suit: t(`ui.suit.${suit}`) });
}

// A counted thing in words, singular or plural: `key`.one for one, else `key`; {n} filled.
export function plural(key, n, params = {}) {
  return t(n === 1 ? `${key}.one` : key, { n, ...params });
}

export function bidName(value) {
  if (value === null || value === undefined) return "—";
  if (value === "blind_nil") return t("ui.bid_blind");
  if (value === 0) return t("ui.bid_nil");
  return String(value);
}

export function seatPlace(players, seat) {
  return players === 4 ? t("seat.letters").split(",")[seat] : t("ui.seat", { seat: seat + 1 });
}

// A seat's mark on the felt: its compass letter at four (seat 0 is North, as in
// the records), else its number.
export function seatMark(players, seat) {
  return players === 4 ? t("seat.letters").split(",")[seat] : String(seat + 1);
}

// A robot's name at a table: one per seat (the catalog's list), so that robots
// are told apart; its level is said beside it.
export function robotName(seat) {
  const names = t("robot.names").split(",");
  return names[seat % names.length];
}

// A robot as texts name it: "Bit (E)"; `full` adds its level: "Bit (E), robot normal".
export function robotLabel(players, seat, level, full = false) {
  const label = t("seat.robot", { name: robotName(seat), seat: seatPlace(players, seat) });
  return full ? t("seat.robot_level", { label, level: t(`robot.${level}`) }) : label;
}

// A side in words short enough for a line: "N–S", "E–O" (4 players), else the seat's name.
export function sideLetters(players, side, nameOf) {
  if (players === 4 && (side === "ns" || side === "ew")) return t(`side.${side}_letters`);
  const seat = Number(side);
  return Number.isNaN(seat) ? side : nameOf(seat);
}

export const FORMER = "former:player";

// A person's name as a page shows it: a deleted account's seats say "former player".
export function personName(name) {
  return name === FORMER ? t("seat.former") : name;
}

export function seatLabel(view, seat) {
  const info = view.seats[seat];
  const name = info ? personName(info.name) : t("seat.empty");
  if (info && info.robot) return robotLabel(view.players, seat, info.robot);
  return name;
}

export function sideName(view, side) {
  if (view.players === 4 && view.rules.partnerships !== false && (side === "ns" || side === "ew")) {
    const mine = view.you === null ? null : (view.you % 2 === 0 ? "ns" : "ew");
    const names = side === "ns" ? [0, 2] : [1, 3];
    // robots by their names alone here ("Ellos (Bit + Duna)"): the letters are on the felt
    const people = names.map((s) => (view.seats[s] && view.seats[s].robot ? robotName(s) : seatLabel(view, s))).join(" + ");
    if (mine === side) return t("side.us", { people });
    if (mine !== null) return t("side.them", { people });
    return people;
  }
  const seat = Number(side);
  return Number.isNaN(seat) ? side : seatLabel(view, seat);
}

export function setLanguage(next) {
  document.cookie = `espadas_lang=${next}; path=/; max-age=31536000; samesite=lax`;
  const url = new URL(window.location.href);
  url.searchParams.delete("lang");
  window.location.href = url.toString();
}
