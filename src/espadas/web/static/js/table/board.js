// The board: status line, seats, the trick and the last trick, your hand, the
// scores, the score sheet, the rules in words and the invitation link.
import { cardElement, backSvg } from "../cards.js";
import { bidName, cardName, seatLabel, sideName, t } from "../i18n.js";
import { announce, escapeHtml } from "../page.js";
import { send } from "./commands.js";
import { $, legalOf, reasonText, seatsOrder, sideOfSeat } from "./view.js";

const baseTitle = document.title;

export function renderStatus(v) {
  const g = v.game;
  let text;
  if (v.status === "waiting") {
    const empty = v.seats.filter((s) => s === null).length;
    text = empty ? t("status.waiting_seats", { n: empty }) : t("status.waiting_start");
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

export function renderSeats(v) {
  const g = v.game;
  const items = seatsOrder(v).map((seat) => {
    const info = v.seats[seat];
    const name = info ? escapeHtml(info.name === `robot:${info.robot}` ? seatLabel(v, seat) : info.name) : escapeHtml(t("seat.empty"));
    const marks = [];
    if (seat === v.you) marks.push(t("ui.you"));
    if (g && g.dealer === seat && g.hand_number) marks.push(t("seat.dealer"));
    if (g && g.to_act === seat) marks.push(t("seat.turn"));
    const facts = [];
    if (g && g.hand_number) {
      facts.push(t("seat.bid", { bid: bidName(g.bids[seat]) }));
      facts.push(t("seat.tricks", { n: g.tricks_taken[seat] }));
      facts.push(t("seat.cards", { n: g.cards_left[seat] }));
    }
    const turn = g && g.to_act === seat ? " turn" : "";
    return `<li class="seat${turn}" data-seat="${seat}"><span class="seat-name">${name}</span>
<span class="seat-marks">${escapeHtml(marks.join(" · "))}</span>
<span class="seat-facts">${escapeHtml(facts.join(" · "))}</span></li>`;
  });
  $("seats").innerHTML = items.join("");
}

export function renderTrick(v) {
  const g = v.game;
  const box = $("trick-cards");
  box.innerHTML = "";
  const trick = g && g.trick && g.trick.cards.length ? g.trick : null;
  if (!trick) {
    box.innerHTML = `<p class="empty">${escapeHtml(t("trick.empty"))}</p>`;
  } else {
    trick.cards.forEach((card, i) => {
      const seat = (trick.leader + i) % v.players;
      const figure = document.createElement("figure");
      figure.className = "played";
      figure.appendChild(cardElement(card));
      const caption = document.createElement("figcaption");
      caption.textContent = seatLabel(v, seat);
      figure.appendChild(caption);
      box.appendChild(figure);
    });
  }
  const last = g && g.tricks.length ? g.tricks[g.tricks.length - 1] : null;
  const lastBox = $("last-trick-cards");
  lastBox.innerHTML = "";
  if (last) {
    last.cards.forEach((card, i) => {
      const figure = document.createElement("figure");
      figure.className = "played";
      figure.appendChild(cardElement(card));
      const caption = document.createElement("figcaption");
      caption.textContent = seatLabel(v, (last.leader + i) % v.players);
      figure.appendChild(caption);
      lastBox.appendChild(figure);
    });
    const p = document.createElement("p");
    p.textContent = t("trick.won_by", { name: seatLabel(v, last.winner) });
    lastBox.appendChild(p);
  } else {
    lastBox.innerHTML = `<p>${escapeHtml(t("trick.none_yet"))}</p>`;
  }
}

export function renderHand(v) {
  const g = v.game;
  const box = $("hand-cards");
  const section = $("hand");
  section.hidden = v.you === null || !g || !g.hand_number;
  box.innerHTML = "";
  if (section.hidden) return;
  if (g.hand === null) {
    box.innerHTML = `<div class="face-down">${backSvg()}<p>${escapeHtml(t("hand.face_down"))}</p></div>`;
    return;
  }
  const playable = new Set(legalOf("play").map((a) => a.value));
  let first = true;
  for (const suit of ["S", "H", "D", "C"]) {
    const cards = g.hand.filter((c) => c.endsWith(suit));
    if (!cards.length) continue;
    const group = document.createElement("div");
    group.className = "suit-group";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", t(`suit.plural.${suit}`));
    for (const card of cards) {
      const button = cardElement(card, "button");
      button.type = "button";
      button.classList.add("hand-card");
      const can = playable.has(card);
      button.setAttribute("aria-disabled", can ? "false" : "true");
      button.classList.toggle("playable", can);
      button.tabIndex = first ? 0 : -1;
      first = false;
      button.addEventListener("click", () => {
        if (legalOf("play").some((a) => a.value === card)) send("play", card);
        else announce(t("hand.not_now", { card: cardName(card) }));
      });
      group.appendChild(button);
    }
    box.appendChild(group);
  }
  const firstPlayable = box.querySelector(".hand-card.playable");
  if (firstPlayable) {
    for (const b of box.querySelectorAll(".hand-card")) b.tabIndex = -1;
    firstPlayable.tabIndex = 0;
  }
}

export function renderScores(v) {
  const g = v.game;
  const rows = (g ? g.sides : []).map((side, i) => {
    const seats = [...Array(v.players).keys()].filter((s) => sideOfSeat(v, s) === side);
    const contract = seats.reduce((sum, s) => sum + (typeof g.bids[s] === "number" ? g.bids[s] : 0), 0);
    const tricks = seats.reduce((sum, s) => sum + g.tricks_taken[s], 0);
    return `<tr><th scope="row">${escapeHtml(sideName(v, side))}</th><td>${g.scores[i]}</td><td>${g.bags[i]}</td>
<td>${g.hand_number ? contract : "—"}</td><td>${g.hand_number ? tricks : "—"}</td></tr>`;
  });
  $("scores-body").innerHTML = rows.join("");
}

export function renderSheet(v) {
  const g = v.game;
  const head = (g ? g.sides : []).map((side) => `<th scope="col">${escapeHtml(sideName(v, side))}</th>`).join("");
  $("sheet-head").innerHTML = `<th scope="col">${escapeHtml(t("sheet.hand"))}</th>${head}`;
  $("sheet-body").innerHTML = v.sheet
    .map((row) => {
      const cells = row.points.map((p, i) => `<td>${p > 0 ? "+" : ""}${p} (${row.totals[i]}; ${t("sheet.bags", { n: row.bags[i] })})</td>`);
      return `<tr><th scope="row">${row.hand}</th>${cells.join("")}</tr>`;
    })
    .join("");
}

export function renderRules(v) {
  const o = v.options;
  const items = [t("rules.preset", { name: t(`preset.${v.rules.preset}`) }), t("rules.target", { n: o.target })];
  items.push(o.mercy === null ? t("rules.no_mercy") : t("rules.mercy", { n: o.mercy }));
  items.push(t(o.partnerships ? "rules.partnerships" : "rules.individual", { n: o.players }));
  items.push(t(`rules.renege.${o.renege}`));
  for (const name of ["blind_nil", "bags_reset", "no_hell", "suicide", "quicksand", "bonuses"]) {
    if (o[name]) items.push(t(`option.${name}.about`));
  }
  if (o.first_lead !== "any") items.push(t("option.first_lead.about"));
  if (o.spades_in_first_trick !== "allowed") items.push(t("option.spades_in_first_trick.forbidden"));
  $("rules-list").innerHTML = items.map((i) => `<li>${escapeHtml(i)}</li>`).join("");
}

export function renderInvite(v) {
  const link = `${window.location.origin}/mesa/${v.id}`;
  $("invite-link").value = link;
  $("invite").hidden = v.status !== "waiting";
}
