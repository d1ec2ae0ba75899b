// The lobby (/sala, /lobby): quick play, open tables, games to watch and blocks,
// kept up to date by the lobby's live socket (never by polling).
import { call, session, signIn } from "./api.js";
import { lang, t } from "./i18n.js";
import { announce, clearError, escapeHtml, setUp, showError } from "./page.js";

const RULE_SETS = ["estandar", "pagat", "cien", "sala", "sala-3", "sala-5", "sala-6", "mine"];
let me = null;
let state = { you: null, counts: {}, open: [], watch: [] };
let socket = null;
let ticking = null;
let wanted = null; // a rule set to join once signed in (?jugar=...)

function ruleName(key) {
  return t(`lobby.rules.${key}`);
}

function seatsText(item) {
  return item.seats
    .filter((s) => s)
    .map((s) => (s.robot ? t("lobby.robot_seat", { level: t(`robot.${s.robot}`) }) : `${s.name} (${s.rating})`))
    .join(", ");
}

function drawRuleSets() {
  const list = document.getElementById("rule-sets");
  list.innerHTML = RULE_SETS.map((key) => {
    const waiting = state.counts[key] || 0;
    const count = waiting ? ` <span class="count">${escapeHtml(t("lobby.waiting", { count: waiting }))}</span>` : "";
    return `<li><button type="button" class="primary" data-rules="${key}">${escapeHtml(t("lobby.play", { rules: ruleName(key) }))}${count}</button></li>`;
  }).join("");
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
    box.hidden = true;
    return;
  }
  box.hidden = false;
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

function drawOpen() {
  const list = document.getElementById("open-list");
  document.getElementById("no-open").hidden = state.open.length > 0;
  list.innerHTML = state.open
    .map((item) => `<li><span>${escapeHtml(ruleName(item.rules))} · ${escapeHtml(t("lobby.free", { count: item.free }))} · ${escapeHtml(t(`lobby.turns.${item.turns}`))}<br><span class="about">${escapeHtml(seatsText(item))}</span></span> <button type="button" data-join="${escapeHtml(item.id)}">${escapeHtml(t("lobby.sit"))}</button></li>`)
    .join("");
  for (const button of list.querySelectorAll("button")) {
    button.disabled = !me;
    button.addEventListener("click", () => joinOpen(button.dataset.join));
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
  drawWatch();
}

function onFrame(frame) {
  if (frame.type !== "lobby") return;
  const before = state.you;
  state = frame;
  if (state.you && state.you.table) {
    announce(t("lobby.seated"));
    window.location.href = `/mesa/${encodeURIComponent(state.you.table)}`;
    return;
  }
  if (before && !state.you) announce(t("lobby.left"));
  draw();
}

function connect() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/api/lobby/live?lang=${lang}`);
  socket.addEventListener("message", (event) => onFrame(JSON.parse(event.data)));
  socket.addEventListener("close", () => window.setTimeout(connect, 1000));
}

async function quick(rules) {
  clearError();
  const body = { rules, robot: document.getElementById("lobby-robot").value };
  const wait = document.getElementById("lobby-wait").value;
  if (wait) body.wait = Number(wait);
  const answer = await call("POST", "/api/lobby/quick", body);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  state.you = answer.data.you;
  drawQueue();
  announce(document.getElementById("queue-status").textContent);
  document.getElementById("queue-cancel").focus();
}

async function joinOpen(tableId) {
  const answer = await call("POST", `/api/lobby/open/${encodeURIComponent(tableId)}/join`);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  window.location.href = `/mesa/${encodeURIComponent(tableId)}`;
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
  document.getElementById("queue-cancel").addEventListener("click", async () => {
    const answer = await call("DELETE", "/api/lobby/quick");
    if (!answer.ok) showError(answer.data);
    state.you = null;
    drawQueue();
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
