// The felt of a replay, drawn like the table's: every seat around it (the
// page's person at the bottom, then clockwise), each hand in one row sorted by
// suit (the suits wrap to another row where the width is short), and the trick
// in the middle, each card on the side of the seat that played it. The felt
// is a 3 x 3 grid: a seat, or a card of the trick, takes the cell its direction
// from the centre points to, so nothing lies over anything, at every size and
// for three to six players.
import { cardElement } from "../cards.js";
import { bidName, cardName, t } from "../i18n.js";
import { escapeHtml } from "../page.js";

const SUITS = ["S", "H", "D", "C"];

export function pbnCards(pbn) {
  return pbn.split(".").flatMap((ranks, i) => [...ranks].map((r) => `${r}${SUITS[i]}`));
}

// The cell (row, column, each 1 to 3) of seat, counting from `you` in play order.
export function cellOf(players, you, seat) {
  const i = (seat - you + players) % players;
  const angle = ((90 + (i * 360) / players) * Math.PI) / 180;
  const x = Math.cos(angle);
  const y = Math.sin(angle);
  return { row: Math.round(y + 1e-9) + 2, col: Math.round(x + 1e-9) + 2 };
}

function place(element, cell) {
  // the page's Content-Security-Policy refuses style attributes; the CSSOM is allowed
  element.style.gridRow = String(cell.row);
  element.style.gridColumn = String(cell.col);
}

function handElement(pbn) {
  const hand = document.createElement("div");
  hand.className = "replay-hand";
  for (const suit of SUITS) {
    const cards = pbnCards(pbn).filter((c) => c.endsWith(suit));
    if (!cards.length) continue;
    const group = document.createElement("div");
    group.className = "suit-group";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", t(`suit.plural.${suit}`));
    for (const card of cards) group.appendChild(cardElement(card));
    hand.appendChild(group);
  }
  return hand;
}

// Draws `step` on `board`; `ctx` is { you, name(seat), title(seat), level(seat), mark(seat), tableId }.
export function drawFelt(board, step, ctx) {
  board.innerHTML = "";
  const players = step.players;
  const cells = [...Array(players).keys()].map((seat) => cellOf(players, ctx.you, seat));
  const order = [...Array(players).keys()].map((i) => (ctx.you + i) % players);
  for (const seat of order) {
    const cell = { ...cells[seat] };
    const section = document.createElement("section");
    section.className = `replay-seat${seat === ctx.you ? " mine" : ""}`;
    section.dataset.seat = String(seat);
    section.setAttribute("aria-label", ctx.name(seat));
    const dealer = step.dealer === seat ? ` <span class="dealer-mark" title="${escapeHtml(t("seat.dealer"))}">${escapeHtml(t("seat.dealer_short"))}</span><span class="sr-only">${escapeHtml(t("seat.dealer"))}</span>` : "";
    const level = ctx.level(seat);
    const badge = level ? ` <span class="level">${escapeHtml(t("seat.robot_badge", { level }))}</span>` : "";
    section.innerHTML = `<h3><span class="compass" aria-hidden="true">${escapeHtml(ctx.mark(seat))}</span> <a href="/mesa/${escapeHtml(ctx.tableId)}/asiento/${seat}" aria-label="${escapeHtml(ctx.name(seat))}">${escapeHtml(ctx.title(seat))}</a>${badge}${dealer}</h3>
<p class="seat-line">${escapeHtml(t("seat.bid", { bid: bidName(step.bids[seat]) }))} · ${escapeHtml(t("seat.tricks", { n: step.tricks_taken[seat] }))}</p>`;
    section.appendChild(handElement(step.hands[seat]));
    // a seat alone in its row (the top, the bottom) takes the whole row
    const alone = cell.col === 2 && !cells.some((c, s) => s !== seat && c.row === cell.row);
    place(section, cell);
    if (alone) section.style.gridColumn = "1 / -1";
    board.appendChild(section);
  }
  const trick = document.createElement("div");
  trick.className = "replay-trick";
  trick.setAttribute("role", "region");
  trick.setAttribute("aria-label", t("replay.trick"));
  place(trick, { row: 2, col: 2 });
  if (step.trick) {
    step.trick.cards.forEach((card, i) => {
      const seat = (step.trick.leader + i) % players;
      const element = cardElement(card);
      const won = step.trick.winner === seat;
      element.classList.add("played");
      element.setAttribute("aria-label", `${cardName(card)}, ${ctx.name(seat)}${won ? `, ${t("trick.wins")}` : ""}`);
      if (won) {
        element.classList.add("won");
        element.dataset.wins = t("trick.wins");
      }
      place(element, cells[seat]);
      trick.appendChild(element);
    });
  } else {
    const p = document.createElement("p");
    p.className = "empty";
    p.textContent = t("trick.empty");
    trick.appendChild(p);
  }
  board.appendChild(trick);
}
