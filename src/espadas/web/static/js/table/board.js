// The board: status line, the seats around the felt, the score bar, the score
// sheet, the rules in words and the invitation link.
import { bidName, personName, robotLabel, robotName, seatLabel, seatMark, seatPlace, sideName, t } from "../i18n.js";
import { escapeHtml } from "../page.js";
import { eventOf, roundOver } from "./event.js";
import { challengeDay } from "./finish.js";
import { $, reasonText, seatsOrder, sideOfSeat, sideOrder } from "./view.js";

const baseTitle = document.title;

export function renderStatus(v) {
  const g = v.game;
  let text;
  if (v.status === "waiting") {
    const empty = v.seats.filter((s) => s === null).length;
    text = empty ? t("status.waiting_seats", { n: empty }) : t("status.waiting_start");
  } else if (roundOver(v)) {
    text = t("event_table.over_status");
  } else if (g.result) {
    text = t("ui.game_over", { side: sideName(v, g.result.winner), reason: reasonText(g.result.reason) });
  } else if (g.phase === "hand_end") {
    text = t("status.hand_end");
  } else if (g.to_act === v.you && v.you !== null) {
    text = t(g.phase === "bidding" ? "ui.turn_bid" : "ui.turn_play");
  } else if (g.to_act !== null) {
    text = t(g.phase === "bidding" ? "status.their_bid" : "status.their_play", { name: seatLabel(v, g.to_act) });
  } else {
    text = "";
  }
  $("status").textContent = text;
  const info = [];
  if (g && g.hand_number) {
    info.push(t("status.hand", { n: g.hand_number }));
    info.push(t("status.dealer", { name: seatLabel(v, g.dealer) }));
    if (g.phase === "playing") info.push(t("status.trick", { n: g.tricks.length + 1 }));
  }
  if (v.you === null) info.push(t("status.spectator"));
  $("status-info").textContent = info.join(" · ");
  const yourTurn = g && g.to_act === v.you && v.you !== null && !g.result;
  document.title = yourTurn ? `${t("mail.push.turn")} · ${baseTitle}` : baseTitle;
}

// Where seat i (counting from yours, in play order) sits around the felt: you
// at the bottom, then clockwise (left, top, right for four players).
export function seatSpot(v, seat) {
  const start = v.you === null ? 0 : v.you;
  const i = (seat - start + v.players) % v.players;
  const angle = ((90 + (i * 360) / v.players) * Math.PI) / 180;
  return { x: Math.cos(angle), y: Math.sin(angle) };
}

function seatLine(v, g, seat) {
  const bid = bidName(g.bids[seat]);
  const nil = g.bids[seat] === 0 || g.bids[seat] === "blind_nil" ? " nil" : "";
  const facts = `${t("seat.sr_facts", { bid, n: g.tricks_taken[seat] })}, ${t("seat.cards", { n: g.cards_left[seat] })}`;
  return `<span class="bid-tricks${nil}" aria-hidden="true">${escapeHtml(bid)} / ${g.tricks_taken[seat]}</span><span class="sr-only">${escapeHtml(facts)}</span>`;
}

export function renderSeats(v) {
  const g = v.game;
  const live = g && g.hand_number;
  const items = seatsOrder(v).map((seat) => {
    const info = v.seats[seat];
    // each box shows the seat's compass letter (the records' N, E, S, W), the name
    // (a robot's is its seat's) and a robot's level as a badge; screen readers
    // hear it all in words
    const name = info ? (info.robot ? robotName(seat) : personName(info.name)) : t("seat.empty");
    // the level's badge leads the seat's second line; a phone shows only "robot" there
    const full = info && info.robot ? t("seat.robot_badge", { level: t(`robot.${info.robot}`) }) : "";
    const level = full ? `<span class="level" aria-hidden="true"><span class="level-full">${escapeHtml(full)}</span><span class="level-short">${escapeHtml(t("seat.robot_badge_short"))}</span></span>` : "";
    const label = info && info.robot ? robotLabel(v.players, seat, info.robot, true) : t("seat.person", { name, seat: seatPlace(v.players, seat) });
    const head = `<span class="seat-head" aria-hidden="true"><span class="compass">${escapeHtml(seatMark(v.players, seat))}</span><span class="seat-name">${escapeHtml(name)}</span></span>`;
    const marks = [];
    if (seat === v.you) marks.push(t("ui.you"));
    const dealer = live && g.dealer === seat;
    if (dealer) marks.push(t("seat.dealer"));
    const turn = g && g.to_act === seat && !g.result;
    if (turn) marks.push(t("seat.turn"));
    const spot = seatSpot(v, seat);
    // seats near an edge lean on it, so that their box stays on the felt
    const ax = spot.x < -0.5 ? 0 : spot.x > 0.5 ? 1 : 0.5;
    const ay = spot.y < -0.5 ? 0 : 0.5;
    const across = ax === 0.5 ? `left:${(50 + 41 * spot.x).toFixed(1)}%` : ax === 0 ? "left:1%" : "right:1%";
    const down = ay === 0 ? "top:1%" : `top:${(50 + 39 * spot.y).toFixed(1)}%`;
    const where = `${across};${down};--ax:${ax === 0.5 ? 0.5 : 0};--ay:${ay}`;
    const cls = `seat${turn ? " turn" : ""}${seat === v.you ? " mine" : ""}`;
    const dealerMark = dealer ? `<span class="dealer-mark" aria-hidden="true">${escapeHtml(t("seat.dealer_short"))}</span>` : "";
    const turnMark = turn ? `<span class="turn-mark" aria-hidden="true">${escapeHtml(t("seat.turn_mark"))}</span>` : "";
    const said = `<span class="sr-only">${escapeHtml([label, ...marks].join(", "))}</span>`;
    return `<li class="${cls}" data-seat="${seat}" data-where="${where}">${head}${said}
<span class="seat-line">${level}${dealerMark}${live ? seatLine(v, g, seat) : ""}${turnMark}</span></li>`;
  });
  $("seats").innerHTML = items.join("");
  // the page's Content-Security-Policy refuses style attributes in markup; the
  // CSSOM is allowed, so each seat's place is set here
  for (const li of $("seats").querySelectorAll("li[data-where]")) li.style.cssText = li.dataset.where;
  // five or six seats share the felt: yours is narrower, so the lower side seats keep their room
  $("seats").classList.toggle("many", v.players >= 5);
}

// A side's name short enough for the score bar
export function shortSide(v, side) {
  if (v.players === 4 && v.options.partnerships && (side === "ns" || side === "ew")) {
    if (v.you === null) {
      const letters = t("seat.letters").split(",");
      return side === "ns" ? `${letters[0]}–${letters[2]}` : `${letters[1]}–${letters[3]}`;
    }
    return t((v.you % 2 === 0 ? "ns" : "ew") === side ? "side.us_short" : "side.them_short");
  }
  const seat = Number(side);
  const info = v.seats[seat];
  if (info && info.robot) return robotName(seat);
  return sideName(v, side);
}

function sideFigures(v, g, side) {
  const seats = [...Array(v.players).keys()].filter((s) => sideOfSeat(v, s) === side);
  const contract = seats.reduce((sum, s) => sum + (typeof g.bids[s] === "number" ? g.bids[s] : 0), 0);
  const tricks = seats.reduce((sum, s) => sum + g.tricks_taken[s], 0);
  return { contract, tricks };
}

export function renderScores(v) {
  const g = v.game;
  const sides = g ? g.sides : [];
  const order = sideOrder(v); // yours first, in the first colour
  const rows = order.map((i) => {
    const side = sides[i];
    const { contract, tricks } = sideFigures(v, g, side);
    return `<tr><th scope="row" title="${escapeHtml(sideName(v, side))}">${escapeHtml(shortSide(v, side))}</th><td>${g.scores[i]}</td><td>${g.bags[i]}</td>
<td>${g.hand_number ? contract : "—"}</td><td>${g.hand_number ? tricks : "—"}</td></tr>`;
  });
  $("scores-body").innerHTML = rows.join("");
  const bar = $("score-sides");
  if (sides.length > 2) {
    // three to six sides: a small table, one row a side
    const rows = order.map((i, k) => {
      const side = sides[i];
      const f = sideFigures(v, g, side);
      const hand = g.hand_number ? `${f.tricks}/${f.contract}` : "—";
      return `<tr class="side-${k}"><th scope="row" title="${escapeHtml(sideName(v, side))}">${escapeHtml(shortSide(v, side))}</th><td>${g.scores[i]}</td><td>${g.bags[i]}</td><td>${hand}</td></tr>`;
    });
    const head = ["score.row_points", "score.row_bags", "score.row_tricks"].map((k) => `<th scope="col">${escapeHtml(t(k))}</th>`);
    bar.innerHTML = `<table class="bar-table"><thead><tr><td></td>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
  } else {
    const items = order.map((i, k) => {
      const side = sides[i];
      const { contract, tricks } = sideFigures(v, g, side);
      const hand = g.hand_number ? ` <span class="bar-hand">${escapeHtml(t("score.bar_hand", { tricks, contract }))}</span>` : "";
      return `<li class="bar-side side-${k}"><span class="bar-name" title="${escapeHtml(sideName(v, side))}">${escapeHtml(shortSide(v, side))}</span>
<span class="bar-points">${escapeHtml(t("score.bar_side", { points: g.scores[i], bags: g.bags[i] }))}</span>${hand}</li>`;
    });
    bar.innerHTML = `<ul>${items.join("")}</ul>`;
  }
  $("scorebar").hidden = !g;
  $("scorebar").classList.toggle("many", sides.length > 2);
}

export function renderSheet(v) {
  const g = v.game;
  const order = g ? sideOrder(v) : [];
  const head = order.map((i) => `<th scope="col" title="${escapeHtml(sideName(v, g.sides[i]))}">${escapeHtml(shortSide(v, g.sides[i]))}</th>`).join("");
  $("sheet-head").innerHTML = `<th scope="col">${escapeHtml(t("sheet.hand"))}</th>${head}`;
  $("sheet-body").innerHTML = v.sheet
    .map((row) => {
      const cells = order.map((i) => `<td>${row.points[i] > 0 ? "+" : ""}${row.points[i]} (${row.totals[i]}; ${t("sheet.bags", { n: row.bags[i] })})</td>`);
      return `<tr><th scope="row">${row.hand}</th>${cells.join("")}</tr>`;
    })
    .join("");
}

export function renderRules(v) {
  const o = v.options;
  // a daily challenge's table plays its boards: its target is never in reach
  const goal = challengeDay(v) ? t("rules.challenge") : eventOf(v) ? t("rules.event") : t("rules.target", { n: o.target });
  const items = [t("rules.preset", { name: t(`preset.${v.rules.preset}`) }), goal];
  items.push(o.mercy === null ? t("rules.no_mercy") : t("rules.mercy", { n: o.mercy }));
  items.push(t(o.partnerships ? "rules.partnerships" : "rules.individual", { n: o.players }));
  items.push(t(`rules.renege.${o.renege}`));
  for (const name of ["blind_nil", "bags_reset", "no_hell", "suicide", "quicksand", "bonuses"]) {
    if (o[name]) items.push(t(`option.${name}.about`));
  }
  if (o.first_lead !== "any") items.push(t("option.first_lead.about"));
  if (o.spades_in_first_trick !== "allowed") items.push(t("option.spades_in_first_trick.forbidden"));
  if (v.hints) items.push(t("rules.hints"));
  if (v.rated) items.push(t("rules.rated"));
  if (v.absent === "robot") items.push(t("rules.absent_robot"));
  $("rules-list").innerHTML = items.map((i) => `<li>${escapeHtml(i)}</li>`).join("");
}

export function renderInvite(v) {
  const link = `${window.location.origin}/mesa/${v.id}`;
  $("invite-link").value = link;
  $("invite").hidden = v.status !== "waiting";
}
