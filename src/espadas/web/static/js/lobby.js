// The lobby (/sala, /lobby): quick play, open tables, games to watch and blocks,
// kept up to date by the lobby's live socket (never by polling).
import { call, session, signIn } from "./api.js";
import { lang, t } from "./i18n.js";
import { announce, clearError, escapeHtml, setUp, showError } from "./page.js";

const RULE_SETS = ["estandar", "pagat", "cien", "sala", "sala-3", "sala-5", "sala-6", "mine"];
let me = null;
let state = { you: null, seek: null, counts: {}, open: [], seeks: [], watch: [] };
let socket = null;
let ticking = null;
let wanted = null; // a rule set to join once signed in (?jugar=...)
let posted = null; // the table of the seek this page posted (its page goes there once accepted)
// The boxes whose button takes the focus once they show (by the box's id): asked
// for by the person's press, and again when a frame sent before the press hides
// the box a moment, taking the focus with it.
const focusWhenShown = new Set();

function ruleName(key) {
  return t(`lobby.rules.${key}`);
}

function seatsText(item) {
  return item.seats
    .filter((s) => s)
    .map((s) => (s.robot ? t("lobby.robot_seat", { level: t(`robot.${s.robot}`) }) : `${s.name} (${s.rating})`))
    .join(", ");
}

// Sets a list's items again, keeping the keyboard focus on the same button
// (the one with the same data-KEY): a frame may come between focusing a button
// and pressing it.
function fill(list, html, key) {
  const focused = document.activeElement;
  const value = list.contains(focused) ? focused.dataset[key] : undefined;
  list.innerHTML = html;
  const target = value === undefined ? null : list.querySelector(`[data-${key}="${CSS.escape(value)}"]`);
  if (target) target.focus();
}

function drawRuleSets() {
  const list = document.getElementById("rule-sets");
  fill(list, RULE_SETS.map((key) => {
    const waiting = state.counts[key] || 0;
    const count = waiting ? ` <span class="count">${escapeHtml(t("lobby.waiting", { count: waiting }))}</span>` : "";
    return `<li><button type="button" class="primary" data-rules="${key}">${escapeHtml(t("lobby.play", { rules: ruleName(key) }))}${count}</button></li>`;
  }).join(""), "rules");
  for (const button of list.querySelectorAll("button")) {
    button.disabled = !me;
    button.addEventListener("click", () => quick(button.dataset.rules));
  }
}

function drawQueue() {
  const box = document.getElementById("queue");
  const you = state.you;
  window.clearInterval(ticking);
  if (!you || you.table) {
    showBox(box, false, "queue-cancel");
    return;
  }
  showBox(box, true, "queue-cancel");
  const shown = you.rules.startsWith("mine-") ? ruleName("mine") : ruleName(you.rules);
  document.getElementById("queue-status").textContent = t("lobby.searching", { rules: shown });
  const robotsAt = Date.parse(you.since) + you.wait * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((robotsAt - Date.now()) / 1000));
    document.getElementById("queue-countdown").textContent = t("lobby.countdown", { seconds: left });
  };
  tick();
  ticking = window.setInterval(tick, 1000);
}

// Shows or hides `box`; its button `buttonId` takes the focus when the box shows and
// focusWhenShown asks for it.
function showBox(box, shown, buttonId) {
  if (!shown && box.contains(document.activeElement)) focusWhenShown.add(box.id);
  box.hidden = !shown;
  if (shown && focusWhenShown.delete(box.id)) document.getElementById(buttonId).focus();
}

function drawOpen() {
  const list = document.getElementById("open-list");
  document.getElementById("no-open").hidden = state.open.length > 0;
  fill(list, state.open
    .map((item) => `<li><span>${escapeHtml(ruleName(item.rules))} · ${escapeHtml(freeText(item.free))} · ${escapeHtml(t(`lobby.turns.${item.turns}`))}<br><span class="about">${escapeHtml(seatsText(item))}</span></span> <button type="button" data-join="${escapeHtml(item.id)}">${escapeHtml(t("lobby.sit"))}</button></li>`)
    .join(""), "join");
  for (const button of list.querySelectorAll("button")) {
    button.disabled = !me;
    button.addEventListener("click", () => joinOpen(button.dataset.join));
  }
}

function rangeText(low, high) {
  if (low <= 0 && high >= 4000) return t("lobby.seek_any_rating");
  if (low <= 0) return t("lobby.seek_up_to", { high });
  if (high >= 4000) return t("lobby.seek_from", { low });
  return t("lobby.seek_range", { low, high });
}

function freeText(count) {
  return t(count === 1 ? "lobby.free_one" : "lobby.free", { count });
}

function seekText(item) {
  const parts = [ruleName(item.rules), t(`lobby.turns.${item.turns}`), t(item.rated ? "lobby.rated" : "lobby.unrated")];
  parts.push(rangeText(item.min_rating, item.max_rating));
  parts.push(freeText(item.free));
  return parts.join(" · ");
}

function drawSeeks() {
  const mine = state.seek;
  const others = (state.seeks || []).filter((item) => !mine || item.table !== mine.table);
  document.getElementById("no-seeks").hidden = others.length > 0;
  const list = document.getElementById("seek-list");
  fill(list, others
    .map((item) => `<li><span>${escapeHtml(t("lobby.seek_by", { name: item.by || "?" }))}: ${escapeHtml(seekText(item))}<br><span class="about">${escapeHtml(seatsText(item))}</span></span> <button type="button" data-accept="${escapeHtml(item.table)}">${escapeHtml(t("lobby.seek_accept"))}</button></li>`)
    .join(""), "accept");
  for (const button of list.querySelectorAll("button")) {
    button.disabled = !me;
    button.addEventListener("click", () => acceptSeek(button.dataset.accept));
  }
  const box = document.getElementById("my-seek");
  showBox(box, Boolean(mine && !mine.accepted), "seek-withdraw");
  document.getElementById("seek-new").hidden = !me || Boolean(mine && !mine.accepted);
  if (mine && !mine.accepted) {
    const listed = (state.seeks || []).find((item) => item.table === mine.table);
    document.getElementById("my-seek-status").textContent = t("lobby.seek_waiting", { about: listed ? seekText(listed) : ruleName(mine.rules) });
  }
}

function drawWatch() {
  const filter = document.getElementById("watch-filter").value;
  const games = state.watch.filter((g) => !filter || g.rules === filter);
  document.getElementById("no-watch").hidden = games.length > 0;
  document.getElementById("watch-list").innerHTML = games
    .map((g) => `<li><a href="/mesa/${encodeURIComponent(g.id)}">${escapeHtml(t("lobby.watch_game", { rules: ruleName(g.rules), rating: g.rating }))}</a><br><span class="about">${escapeHtml(seatsText(g))}</span></li>`)
    .join("");
}

function draw() {
  drawRuleSets();
  drawQueue();
  drawOpen();
  drawSeeks();
  drawWatch();
}

// Navigates to a table once: a second frame naming the same table while the first
// navigation is under way would abort it.
let leaving = false;
function goTo(tableId) {
  if (leaving) return;
  leaving = true;
  window.location.href = `/mesa/${encodeURIComponent(tableId)}`;
}

// The server has seated this person at a table: said, then gone to.
function seated(tableId) {
  announce(t("lobby.seated"));
  goTo(tableId);
}

function onFrame(frame) {
  if (frame.type !== "lobby" || leaving) return;
  const before = state.you;
  state = frame;
  if (state.you && state.you.table) {
    seated(state.you.table);
    return;
  }
  if (state.seek && state.seek.accepted && state.seek.table === posted) {
    announce(t("lobby.seek_accepted"));
    goTo(state.seek.table);
    return;
  }
  if (before && !state.you) announce(t("lobby.left"));
  draw();
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/api/lobby/live?lang=${lang}`);
  socket.addEventListener("message", (event) => onFrame(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (!leaving) window.setTimeout(connect, 1000);
  });
}

async function quick(rules) {
  clearError();
  const body = {
    rules,
    robot: document.getElementById("lobby-robot").value,
    min_completion: Number(document.getElementById("lobby-completion").value),
  };
  const wait = document.getElementById("lobby-wait").value;
  if (wait) body.wait = Number(wait);
  const answer = await call("POST", "/api/lobby/quick", body);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  state.you = answer.data.you;
  if (state.you && state.you.table) {
    seated(state.you.table);
    return;
  }
  focusWhenShown.add("queue");
  drawQueue();
  announce(document.getElementById("queue-status").textContent);
}

async function joinOpen(tableId) {
  const answer = await call("POST", `/api/lobby/open/${encodeURIComponent(tableId)}/join`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  goTo(tableId);
}

async function acceptSeek(tableId) {
  clearError();
  const answer = await call("POST", `/api/lobby/seeks/${encodeURIComponent(tableId)}/accept`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  goTo(tableId);
}

async function postSeek(event) {
  event.preventDefault();
  clearError();
  const body = {
    rules: document.getElementById("seek-rules").value,
    turns: document.getElementById("seek-turns").value,
    rated: document.getElementById("seek-rated").checked,
  };
  for (const [key, id] of [["min_rating", "seek-min"], ["max_rating", "seek-max"]]) {
    const value = document.getElementById(id).value;
    if (value !== "") body[key] = Number(value);
  }
  const answer = await call("POST", "/api/lobby/seeks", body);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  state.seek = answer.data.seek;
  posted = state.seek.table;
  document.getElementById("seek-new").open = false;
  focusWhenShown.add("my-seek");
  drawSeeks();
  announce(document.getElementById("my-seek-status").textContent || t("lobby.seek_posted"));
}

async function drawMine() {
  const answer = await call("GET", "/api/tables");
  if (!answer.ok) return;
  const waiting = answer.data.tables.filter((table) => table.status === "waiting");
  const open = new Set(state.open.map((item) => item.id));
  document.getElementById("mine-waiting").hidden = waiting.length === 0;
  const list = document.getElementById("mine-list");
  list.innerHTML = waiting
    .map((table) => `<li><a href="/mesa/${encodeURIComponent(table.id)}">${escapeHtml(t("lobby.my_table", { id: table.id.slice(0, 6) }))}</a> <button type="button" data-open="${escapeHtml(table.id)}">${escapeHtml(t(open.has(table.id) ? "lobby.listed" : "lobby.list_open"))}</button></li>`)
    .join("");
  for (const button of list.querySelectorAll("button")) {
    button.addEventListener("click", async () => {
      const listed = await call("POST", "/api/lobby/open", { table: button.dataset.open });
      if (!listed.ok) showError(listed.data);
      else announce(t("lobby.listed"));
      button.textContent = t("lobby.listed");
    });
  }
}

async function drawBlocks() {
  const answer = await call("GET", "/api/blocks");
  if (!answer.ok) return;
  const list = document.getElementById("block-list");
  list.innerHTML = answer.data.blocks
    .map((b) => `<li>${escapeHtml(b.name || "?")} <button type="button" data-unblock="${escapeHtml(b.id)}">${escapeHtml(t("lobby.unblock"))}</button></li>`)
    .join("");
  for (const button of list.querySelectorAll("button")) {
    button.addEventListener("click", async () => {
      await call("DELETE", `/api/blocks/${encodeURIComponent(button.dataset.unblock)}`);
      await drawBlocks();
    });
  }
}

async function signedIn() {
  document.getElementById("lobby-signin").hidden = true;
  document.getElementById("blocks").hidden = false;
  draw();
  await Promise.all([drawMine(), drawBlocks()]);
  if (wanted) {
    const rules = wanted;
    wanted = null;
    await quick(rules);
  }
}

async function main() {
  await setUp();
  const asked = new URLSearchParams(window.location.search).get("jugar");
  wanted = RULE_SETS.includes(asked) ? asked : null;
  document.getElementById("watch-filter").innerHTML += RULE_SETS.filter((k) => k !== "mine")
    .map((k) => `<option value="${k}">${escapeHtml(ruleName(k))}</option>`)
    .join("");
  document.getElementById("watch-filter").addEventListener("change", drawWatch);
  document.getElementById("seek-rules").innerHTML = RULE_SETS.map((k) => `<option value="${k}">${escapeHtml(ruleName(k))}</option>`).join("");
  document.getElementById("seek-form").addEventListener("submit", postSeek);
  document.getElementById("seek-withdraw").addEventListener("click", async () => {
    const answer = await call("DELETE", "/api/lobby/seeks");
    if (!answer.ok) showError(answer.data);
    state.seek = null;
    posted = null;
    drawSeeks();
    focusWhenShown.delete("my-seek"); // withdrawn on purpose: no focus to give back
    announce(t("lobby.seek_withdrawn"));
  });
  document.getElementById("queue-cancel").addEventListener("click", async () => {
    const answer = await call("DELETE", "/api/lobby/quick");
    if (!answer.ok) showError(answer.data);
    state.you = null;
    drawQueue();
    focusWhenShown.delete("queue"); // left on purpose: no focus to give back
    announce(t("lobby.left"));
  });
  document.getElementById("block-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("block-name");
    const answer = await call("POST", "/api/blocks", { name: input.value.trim() });
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    input.value = "";
    announce(t("lobby.blocked"));
    await drawBlocks();
  });
  const form = document.getElementById("lobby-signin");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await signIn(document.getElementById("name").value.trim());
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    me = await session();
    socket.close(); // again, now with the cookie
    await signedIn();
  });
  me = await session();
  const first = await call("GET", "/api/lobby");
  if (first.ok) {
    state = first.data;
    if (state.seek && !state.seek.accepted) posted = state.seek.table;
    document.getElementById("wait-default").textContent = t("lobby.wait_default", { seconds: first.data.wait });
  }
  connect();
  if (me) await signedIn();
  else {
    form.hidden = false;
    draw();
    if (wanted) document.getElementById("name").focus();
  }
}

main();
