// Keyboard shortcuts: arrows move between the cards of your hand; C, F, V or I,
// S and T read the table aloud; B goes to the bid; U shows the last trick on
// the felt; H asks for a hint (tables that allow them); ? lists the shortcuts.
import { bidName, cardName, seatLabel, sideName, t } from "../i18n.js";
import { announce } from "../page.js";
import { askHint } from "./hint.js";
import { toggleLast } from "./trick.js";
import { $, game, mySide, sideOfSeat, view } from "./view.js";

function infoText() {
  const v = view;
  const g = game();
  if (!g || !g.hand_number) return t("say.no_hand");
  if (v.you === null) return t("say.info_spectator", { n: g.tricks.length + (g.trick && g.trick.cards.length ? 1 : 0) });
  const side = mySide(v);
  const seats = [...Array(v.players).keys()].filter((s) => sideOfSeat(v, s) === side);
  const contract = seats.reduce((sum, s) => sum + (typeof g.bids[s] === "number" ? g.bids[s] : 0), 0);
  const tricks = seats.reduce((sum, s) => sum + g.tricks_taken[s], 0);
  return t("say.info", {
    n: Math.min(g.tricks.length + 1, 13),
    mine: g.tricks_taken[v.you],
    bid: bidName(g.bids[v.you]),
    side: tricks,
    contract,
  });
}

function tableCardsText() {
  const g = game();
  if (!g || !g.trick || !g.trick.cards.length) return t("trick.empty");
  return g.trick.cards
    .map((card, i) => t("say.card_of", { card: cardName(card), name: seatLabel(view, (g.trick.leader + i) % view.players) }))
    .join(", ");
}

function ledText() {
  const g = game();
  if (!g || !g.trick || !g.trick.cards.length) return t("say.no_lead");
  return t("say.led", { suit: t(`suit.plural.${g.trick.cards[0].slice(-1)}`) });
}

function scoresText() {
  const g = game();
  if (!g) return "";
  return g.sides.map((side, i) => t("say.score", { side: sideName(view, side), points: g.scores[i], bags: g.bags[i] })).join(". ");
}

function turnText() {
  const g = game();
  if (!g || g.to_act === null) return $("status").textContent;
  return g.to_act === view.you ? t("say.your_turn") : t("say.their_turn", { name: seatLabel(view, g.to_act) });
}

export function onKey(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  if (!view) return;
  const key = event.key;
  if (target && target.classList && target.classList.contains("hand-card") && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) {
    const cards = [...document.querySelectorAll(".hand-card")];
    let i = cards.indexOf(target);
    if (key === "ArrowLeft" || key === "ArrowUp") i = Math.max(0, i - 1);
    else if (key === "ArrowRight" || key === "ArrowDown") i = Math.min(cards.length - 1, i + 1);
    else if (key === "Home") i = 0;
    else i = cards.length - 1;
    for (const c of cards) c.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    event.preventDefault();
    return;
  }
  const lower = key.toLowerCase();
  const said = {
    c: tableCardsText,
    f: ledText,
    v: infoText,
    i: infoText,
    s: scoresText,
    t: turnText,
  }[lower];
  if (said) {
    announce(said());
    event.preventDefault();
  } else if (lower === "b") {
    const bid = $("bid");
    if (bid) bid.focus();
    else announce(t("say.no_bid"));
    event.preventDefault();
  } else if (lower === "u") {
    toggleLast();
    event.preventDefault();
  } else if (lower === "h" && view.hints) {
    askHint();
    event.preventDefault();
  } else if (key === "?") {
    $("shortcuts").showModal();
    event.preventDefault();
  }
}
