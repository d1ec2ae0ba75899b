// The table page: seats, your hand, the trick, bids, scores, and every action,
// by mouse, touch and keyboard; an ARIA live region says what happens.
import { call, session, signIn } from "./api.js";
import { enablePush } from "./push.js";
import { cardElement, backSvg } from "./cards.js";
import { bidName, cardName, lang, seatLabel, sideName, t } from "./i18n.js";
import { announce, clearError, confirmDialog, escapeHtml, setUp, showError } from "./page.js";

const tableId = document.body.dataset.table;
let view = null;
let socket = null;
let retry = 500;
const baseTitle = document.title;

// -- helpers ------------------------------------------------------------------
const $ = (id) => document.getElementById(id);

function game() {
  return view ? view.game : null;
}

function mySide(v) {
  if (v.you === null) return null;
  return v.options.partnerships ? (v.you % 2 === 0 ? "ns" : "ew") : String(v.you);
}

function sideOfSeat(v, seat) {
  return v.options.partnerships ? (seat % 2 === 0 ? "ns" : "ew") : String(seat);
}

function seatsOrder(v) {
  const start = v.you === null ? 0 : v.you;
  return Array.from({ length: v.players }, (_, i) => (start + i) % v.players);
}

function played(g) {
  const cards = [];
  for (const trick of [...g.tricks, ...(g.trick ? [g.trick] : [])]) {
    trick.cards.forEach((card, i) => cards.push({ card, seat: (trick.leader + i) % g.looked.length }));
  }
  return cards;
}

function legalOf(type) {
  const g = game();
  return g ? g.legal.filter((a) => a.type === type) : [];
}

function reasonText(reason) {
  return t(`reason.${reason}`);
}

// -- actions --------------------------------------------------------------------
async function send(type, value) {
  const body = value === undefined ? { type } : { type, value };
  const answer = await call("POST", `/api/tables/${tableId}/actions`, body);
  if (!answer.ok) {
    showError(answer.data);
    announce(answer.data.message || "");
    return false;
  }
  clearError();
  update(answer.data);
  return true;
}

async function post(path, body) {
  const answer = await call("POST", `/api/tables/${tableId}/${path}`, body);
  if (!answer.ok) {
    showError(answer.data);
    announce(answer.data.message || "");
    return null;
  }
  clearError();
  if (answer.data.version !== undefined) update(answer.data);
  return answer.data;
}

// -- rendering -----------------------------------------------------------------
function renderStatus(v) {
  const g = v.game;
  let text;
  if (v.status === "waiting") {
    const empty = v.seats.filter((s) => s === null).length;
    text = empty ? t("status.waiting_seats", { n: empty }) : t("status.waiting_start");
  } else if (g.result) {
    text = t("status.over", { side: sideName(v, g.result.winner), reason: reasonText(g.result.reason) });
  } else if (g.phase === "hand_end") {
    text = t("status.hand_end");
  } else if (g.to_act === v.you && v.you !== null) {
    text = t(g.phase === "bidding" ? "status.your_bid" : "status.your_play");
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
  document.title = yourTurn ? `${t("title.your_turn")} · ${baseTitle}` : baseTitle;
}

function renderSeats(v) {
  const g = v.game;
  const items = seatsOrder(v).map((seat) => {
    const info = v.seats[seat];
    const name = info ? escapeHtml(info.name === `robot:${info.robot}` ? seatLabel(v, seat) : info.name) : escapeHtml(t("seat.empty"));
    const marks = [];
    if (seat === v.you) marks.push(t("seat.you"));
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

function renderTrick(v) {
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

function renderHand(v) {
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

function button(label, handler, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", handler);
  return b;
}

function renderActions(v) {
  const g = v.game;
  const box = $("actions");
  box.innerHTML = "";
  const creator = v.creator;
  if (v.status === "waiting") {
    if (creator) renderSetup(v, box);
    return;
  }
  if (v.you === null) {
    renderFinished(v, box);
    return;
  }
  const bids = legalOf("bid");
  if (legalOf("look").length) {
    box.appendChild(button(t("action.look"), () => send("look"), "primary"));
  }
  if (bids.length) {
    const wrap = document.createElement("div");
    wrap.className = "bid-row";
    const label = document.createElement("label");
    label.htmlFor = "bid";
    label.textContent = t("action.your_bid");
    const select = document.createElement("select");
    select.id = "bid";
    for (const a of bids) {
      const option = document.createElement("option");
      option.value = JSON.stringify(a.value);
      option.textContent = bidName(a.value);
      select.appendChild(option);
    }
    const numeric = bids.filter((a) => typeof a.value === "number" && a.value > 0);
    if (numeric.length) select.value = JSON.stringify(numeric[Math.min(2, numeric.length - 1)].value);
    wrap.append(label, select, button(t("action.bid"), () => send("bid", JSON.parse(select.value)), "primary"));
    box.appendChild(wrap);
  }
  if (legalOf("next_hand").length) box.appendChild(button(t("action.next_hand"), () => send("next_hand"), "primary"));
  if (legalOf("confirm_end").length) box.appendChild(button(t("action.confirm_end"), () => send("confirm_end"), "primary"));
  const accusations = legalOf("accuse");
  if (accusations.length && !g.result) {
    for (const a of accusations) {
      box.appendChild(
        button(t("action.accuse", { name: seatLabel(v, a.value) }), async () => {
          if (await confirmDialog(t("confirm.accuse", { name: seatLabel(v, a.value) }))) send("accuse", a.value);
        }),
      );
    }
  }
  if (v.claim_at) {
    const when = new Date(v.claim_at);
    if (when <= new Date()) {
      box.appendChild(button(t("action.claim"), () => send("claim"), "primary"));
    } else {
      const p = document.createElement("p");
      p.textContent = t("action.claim_from", { when: when.toLocaleString(lang) });
      box.appendChild(p);
    }
  }
  if (!g.result) {
    box.appendChild(
      button(t("action.abandon"), async () => {
        if (await confirmDialog(t("confirm.abandon"))) send("abandon");
      }, "danger"),
    );
  }
  renderFinished(v, box);
}

function renderSetup(v, box) {
  const heading = document.createElement("h3");
  heading.textContent = t("setup.title");
  box.appendChild(heading);
  if (v.options.partnerships) {
    const wrap = document.createElement("div");
    const label = document.createElement("label");
    label.htmlFor = "partner";
    label.textContent = t("setup.partner");
    const select = document.createElement("select");
    select.id = "partner";
    for (const seat of [1, 2, 3]) {
      const option = document.createElement("option");
      option.value = String(seat);
      option.textContent = v.seats[seat] ? seatLabel(v, seat) : t("setup.seat_n", { n: seat });
      select.appendChild(option);
    }
    select.value = "2";
    wrap.append(label, select, button(t("setup.choose_partner"), () => post("partner", { seat: Number(select.value) })));
    box.appendChild(wrap);
  }
  if (v.seats.some((s) => s === null)) {
    const wrap = document.createElement("div");
    const label = document.createElement("label");
    label.htmlFor = "robot-level";
    label.textContent = t("setup.robots");
    const select = document.createElement("select");
    select.id = "robot-level";
    for (const level of window.espadasRobots || ["aleatorio", "normal", "experto"]) {
      const option = document.createElement("option");
      option.value = level;
      option.textContent = t(`robot.${level}`);
      select.appendChild(option);
    }
    select.value = "normal";
    wrap.append(label, select, button(t("setup.add_robots"), () => post("robots", { level: select.value })));
    box.appendChild(wrap);
  }
  v.seats.forEach((s, seat) => {
    if (s && s.robot) {
      box.appendChild(button(t("setup.free", { name: seatLabel(v, seat), n: seat }), () => post("free", { seat })));
    }
  });
  const start = button(t("setup.start"), () => post("start"), "primary");
  box.appendChild(start);
}

function renderFinished(v, box) {
  const g = v.game;
  if (!g || !g.result) return;
  if (v.rematch) {
    const a = document.createElement("a");
    a.href = `/mesa/${v.rematch}`;
    a.textContent = t("action.to_rematch");
    a.className = "button primary";
    box.appendChild(a);
  } else if (v.creator) {
    box.appendChild(button(t("action.rematch_keep"), () => rematch(null), "primary"));
    if (v.options.partnerships) {
      for (const seat of [1, 3]) {
        box.appendChild(button(t("action.rematch_with", { name: seatLabel(v, seat) }), () => rematch(seat)));
      }
    }
  }
}

async function rematch(partner) {
  const answer = await call("POST", `/api/tables/${tableId}/rematch`, partner === null ? {} : { partner });
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  window.location.href = `/mesa/${answer.data.id}`;
}

function renderScores(v) {
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

function renderSheet(v) {
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

function renderRules(v) {
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

function renderInvite(v) {
  const link = `${window.location.origin}/mesa/${v.id}`;
  $("invite-link").value = link;
  $("invite").hidden = v.status !== "waiting";
}

function chartSvg(v) {
  const sides = v.game.sides;
  const points = sides.map((_, i) => [0, ...v.sheet.map((row) => row.totals[i])]);
  const all = points.flat();
  const min = Math.min(0, ...all);
  const max = Math.max(v.options.target, ...all);
  const width = 320;
  const height = 180;
  const steps = Math.max(1, v.sheet.length);
  const x = (i) => 30 + (i * (width - 40)) / steps;
  const y = (value) => 10 + ((max - value) * (height - 30)) / (max - min || 1);
  const lines = points
    .map((series, i) => {
      const path = series.map((value, k) => `${x(k).toFixed(1)},${y(value).toFixed(1)}`).join(" ");
      return `<polyline class="line line-${i}" points="${path}" fill="none"/>`;
    })
    .join("");
  const legend = sides
    .map((side, i) => `<text class="legend line-${i}" x="${34 + i * 150}" y="${height - 4}">${escapeHtml(sideName(v, side))}: ${points[i][points[i].length - 1]}</text>`)
    .join("");
  const zero = `<line class="axis" x1="30" x2="${width - 10}" y1="${y(0)}" y2="${y(0)}"/>`;
  const target = `<line class="target" x1="30" x2="${width - 10}" y1="${y(v.options.target)}" y2="${y(v.options.target)}"/>`;
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title">
<title id="chart-title">${escapeHtml(t("result.chart"))}</title>${zero}${target}${lines}${legend}</svg>`;
}

function renderResult(v) {
  const g = v.game;
  const box = $("result");
  if (!g || !g.result) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const result = g.result;
  let html = `<h2 id="result-title">${escapeHtml(t("result.title"))}</h2>
<p>${escapeHtml(t("result.winner", { side: sideName(v, result.winner), reason: reasonText(result.reason) }))}</p>`;
  if (v.review) {
    const r = v.review;
    html += `<h3>${escapeHtml(t("review.title"))}</h3><p>${escapeHtml(t(r.true ? "review.true" : "review.false", { by: seatLabel(v, r.by), against: seatLabel(v, r.against) }))}</p><ol class="review">`;
    for (const trick of r.tricks) {
      const cards = trick.cards.map((c) => (trick.reneges.includes(c) ? `<strong>${escapeHtml(cardName(c))} (${escapeHtml(t("review.renege"))})</strong>` : escapeHtml(cardName(c))));
      html += `<li>${cards.join(", ")}</li>`;
    }
    html += "</ol>";
  }
  if (v.sheet.length) html += chartSvg(v);
  html += `<p><a href="/api/tables/${escapeHtml(v.id)}/record" download>${escapeHtml(t("result.download"))}</a>
 · <a href="/mesa/${escapeHtml(v.id)}/repeticion">${escapeHtml(t("result.replay"))}</a></p>`;
  box.innerHTML = html;
}

function render(v) {
  renderStatus(v);
  renderSeats(v);
  renderTrick(v);
  renderHand(v);
  renderActions(v);
  renderScores(v);
  renderSheet(v);
  renderRules(v);
  renderInvite(v);
  renderResult(v);
  $("faults").textContent = v.faults ? t("table.faults", { n: v.faults }) : "";
}

// -- announcements --------------------------------------------------------------
function changes(before, after) {
  const said = [];
  const a = after.game;
  const b = before ? before.game : null;
  if (!a) return said;
  if (!b || a.hand_number !== b.hand_number) {
    if (a.hand_number) said.push(t("say.new_hand", { n: a.hand_number, name: seatLabel(after, a.dealer) }));
  } else {
    a.bids.forEach((bid, seat) => {
      if (bid !== null && b.bids[seat] === null) said.push(t("say.bid", { name: seatLabel(after, seat), bid: bidName(bid) }));
    });
    const old = played(b);
    const now = played(a);
    for (const { card, seat } of now.slice(old.length)) {
      said.push(t("say.play", { name: seatLabel(after, seat), card: cardName(card) }));
    }
    if (a.tricks.length > b.tricks.length) {
      const last = a.tricks[a.tricks.length - 1];
      said.push(t("say.trick", { name: seatLabel(after, last.winner) }));
    }
  }
  if (a.hand_scores && (!b || !b.hand_scores || a.hand_number !== b.hand_number)) {
    const parts = a.sides.map((side, i) => `${sideName(after, side)} ${a.hand_scores[i] > 0 ? "+" : ""}${a.hand_scores[i]}`);
    said.push(t("say.hand_over", { scores: parts.join(", ") }));
  }
  if (a.result && (!b || !b.result)) {
    said.push(t("status.over", { side: sideName(after, a.result.winner), reason: reasonText(a.result.reason) }));
  }
  const mine = after.you !== null && a.to_act === after.you && !a.result;
  const wasMine = before && before.game && before.you !== null && before.game.to_act === before.you;
  if (mine && (!wasMine || a.phase !== b.phase)) said.push(t("say.your_turn"));
  return said;
}

function notifyTurn() {
  if (localStorage.getItem("espadas.sound") === "on") {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 660;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch (error) {
      // no sound available
    }
  }
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(t("title.your_turn"), { body: document.title, tag: `espadas-${tableId}` });
  }
}

function update(next) {
  if (view && next.version < view.version) return;
  const said = view && next.version === view.version ? [] : changes(view, next);
  const before = view;
  view = next;
  render(next);
  if (said.length) announce(said.join(". "));
  const g = next.game;
  const mine = g && next.you !== null && g.to_act === next.you && !g.result;
  const wasMine = before && before.game && before.you !== null && before.game.to_act === before.you;
  if (mine && !wasMine) notifyTurn();
}

// -- keyboard -------------------------------------------------------------------
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

function onKey(event) {
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
  } else if (key === "?") {
    $("shortcuts").showModal();
    event.preventDefault();
  }
}

// -- live updates ----------------------------------------------------------------
function connect() {
  // the server knows who we are when the socket opens: reopen it after signing in
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/api/tables/${tableId}/live`);
  socket.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "view") {
      // frames may be coalesced; each carries the whole view, so nothing is lost
      update(frame.view);
      retry = 500;
    }
  };
  socket.onclose = () => {
    window.setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "sync", version: view ? view.version : 0 }));
  }
});

// -- notices ------------------------------------------------------------------------
async function showMode() {
  if (!view || view.you === null) return;
  const answer = await call("GET", `/api/tables/${tableId}/notices`);
  if (!answer.ok) return;
  const select = $("notice-mode");
  select.value = answer.data.mode;
  $("mode-row").hidden = false;
  select.onchange = async () => {
    const done = await call("PUT", `/api/tables/${tableId}/notices`, { mode: select.value });
    if (!done.ok) showError(done.data);
    else announce(t(`notices.${select.value}`));
  };
}

// -- start ----------------------------------------------------------------------
async function join() {
  const answer = await call("POST", `/api/tables/${tableId}/join`);
  if (!answer.ok) {
    showError(answer.data);
    const read = await call("GET", `/api/tables/${tableId}`);
    if (read.ok) update(read.data);
    return;
  }
  update(answer.data);
  if (answer.data.you === null && answer.data.status === "waiting") announce(t("say.full"));
}

async function main() {
  await setUp();
  document.addEventListener("keydown", onKey);
  $("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("invite-link").value);
      announce(t("invite.copied"));
    } catch (error) {
      $("invite-link").select();
    }
  });
  $("close-shortcuts").addEventListener("click", () => $("shortcuts").close());
  const sound = $("sound");
  sound.checked = localStorage.getItem("espadas.sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("espadas.sound", sound.checked ? "on" : "off"));
  const notify = $("notify");
  if (!("Notification" in window)) notify.hidden = true;
  notify.addEventListener("click", async () => {
    // Web Push where the browser has it (notices even with the page closed),
    // else notifications while the page is open
    const state = await enablePush(call);
    if (state === "unsupported") {
      const permission = await Notification.requestPermission();
      announce(t(permission === "granted" ? "notify.on" : "notify.off"));
    } else {
      announce(t(state === "on" ? "notify.on" : "notify.off"));
    }
  });
  const presets = await call("GET", "/api/presets");
  if (presets.ok) window.espadasRobots = presets.data.robots;
  const me = await session();
  if (me) {
    await join();
    await showMode();
  } else {
    const read = await call("GET", `/api/tables/${tableId}`);
    if (!read.ok) {
      showError(read.data);
      return;
    }
    update(read.data);
    const form = $("signin");
    form.hidden = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = await signIn($("name").value);
      if (!answer.ok) {
        showError(answer.data);
        return;
      }
      form.hidden = true;
      await join();
      connect();
    });
  }
  connect();
}

main();
