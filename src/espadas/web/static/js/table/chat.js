// The chat panel: short messages and quick phrases at the table, mounted into
// <section id="chat-slot">. Every text is set with textContent, never as HTML.
// The panel is a region "Charla" / "Chat" beside the table on wide screens and
// a drawer opened from a button on phones, so it never covers the felt.
// New messages are read aloud by the page's live region while the panel is
// closed only if the person asked for it (a checkbox); while it is open the
// list is a log that screen readers follow. Muting someone is for yourself
// only and stays in this browser (localStorage).
import { call, csrfToken, session } from "../api.js";
import { personName, t } from "../i18n.js";
import { announce, clearError, showError } from "../page.js";
import { actLive } from "./live.js";
import { $, receive, tableId } from "./view.js";

const PHRASES = ["well_played", "sorry", "thanks_partner", "one_moment"];
const MUTED_KEY = "espadas.chat.muted";
const ANNOUNCE_KEY = "espadas.chat.announce";
const OPEN_KEY = "espadas.chat.open";
const KEPT = 100; // messages the panel keeps (each view carries the latest 20)
const wide = window.matchMedia("(min-width: 900px)");

let lastSeq = null; // the newest message shown (null: nothing received yet)
let unread = 0;
let latest = null; // the newest view's chat
let myName = null; // the signed-in person's name (to know their own messages)
const people = new Map(); // author -> name, of those who have written here

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function muted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch (error) {
    return new Set();
  }
}

function setMuted(author, on) {
  const list = muted();
  if (on) list.add(author);
  else list.delete(author);
  localStorage.setItem(MUTED_KEY, JSON.stringify([...list]));
}

export function isOpen() {
  return !$("chat").hidden;
}

function setOpen(open, focus = true) {
  const panel = $("chat");
  panel.hidden = !open;
  const toggle = $("chat-toggle");
  toggle.setAttribute("aria-expanded", String(open));
  toggle.hidden = open && wide.matches; // beside the table the panel's own close button is enough
  if (wide.matches) localStorage.setItem(OPEN_KEY, open ? "1" : "0");
  if (open) {
    unread = 0;
    showUnread();
    const list = $("chat-messages");
    list.scrollTop = list.scrollHeight;
    if (focus) $("chat-text").focus();
  } else if (focus) {
    $("chat-toggle").focus();
  }
}

function showUnread() {
  const badge = $("chat-unread");
  badge.textContent = unread ? t("chat.unread", { n: unread }) : "";
  badge.hidden = !unread;
}

export function mountChat() {
  const slot = $("chat-slot");
  if (!slot || $("chat")) return;
  session().then((me) => {
    myName = me ? me.name : null;
  });
  slot.classList.add("chat-slot");
  const toggle = el("button", { type: "button", id: "chat-toggle", class: "chat-toggle", "aria-controls": "chat", "aria-expanded": "false" });
  toggle.append(el("span", {}, t("chat.open")), el("span", { id: "chat-unread", class: "chat-unread", hidden: "" }));
  const panel = el("section", { id: "chat", class: "chat", "aria-labelledby": "chat-title" });
  const head = el("div", { class: "chat-head" });
  head.append(el("h2", { id: "chat-title" }, t("chat.title")));
  const close = el("button", { type: "button", id: "chat-close", class: "chat-close", "aria-label": t("chat.close") }, "×");
  head.append(close);
  const log = el("div", { id: "chat-messages", class: "chat-messages", role: "log", "aria-label": t("chat.messages"), tabindex: "0" });
  log.append(el("p", { id: "chat-none", class: "chat-none" }, t("chat.none")), el("ol", { id: "chat-list" }));
  const form = el("form", { id: "chat-form", class: "chat-form" });
  form.append(
    el("label", { for: "chat-text" }, t("chat.message")),
    el("input", { id: "chat-text", name: "text", maxlength: "200", autocomplete: "off", "aria-describedby": "chat-note" }),
    el("button", { type: "submit", class: "primary" }, t("chat.send")),
  );
  const phrases = el("div", { class: "chat-phrases", role: "group", "aria-label": t("chat.phrases") });
  for (const phrase of PHRASES) {
    const b = el("button", { type: "button", "data-phrase": phrase }, t(`chat.phrase.${phrase}`));
    b.addEventListener("click", () => send({ phrase }));
    phrases.append(b);
  }
  const note = el("p", { id: "chat-note", class: "chat-note" });
  const announceRow = el("div", { class: "option" });
  announceRow.append(el("input", { type: "checkbox", id: "chat-announce" }), el("label", { for: "chat-announce" }, t("chat.announce")));
  const switchRow = el("div", { class: "option", id: "chat-switch-row", hidden: "" });
  switchRow.append(el("input", { type: "checkbox", id: "chat-spectators" }), el("label", { for: "chat-spectators" }, t("chat.spectators_switch")));
  const mutes = el("details", { id: "chat-people", class: "chat-people", hidden: "" });
  mutes.append(el("summary", {}, t("chat.people")), el("ul", { id: "chat-people-list" }));
  panel.append(head, log, form, phrases, note, announceRow, switchRow, mutes);
  slot.append(toggle, panel);

  toggle.addEventListener("click", () => setOpen(!isOpen()));
  close.addEventListener("click", () => setOpen(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !wide.matches) {
      event.stopPropagation();
      setOpen(false);
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value;
    if (text.trim()) send({ text });
  });
  const announceBox = $("chat-announce");
  announceBox.checked = localStorage.getItem(ANNOUNCE_KEY) === "on";
  announceBox.addEventListener("change", () => localStorage.setItem(ANNOUNCE_KEY, announceBox.checked ? "on" : "off"));
  $("chat-spectators").addEventListener("change", async (event) => {
    const on = event.target.checked;
    const ok = await post({ type: "chat_spectators", value: on ? "on" : "off" });
    if (!ok) event.target.checked = !on;
  });
  wide.addEventListener("change", () => setOpen(wide.matches && localStorage.getItem(OPEN_KEY) !== "0", false));
  setOpen(wide.matches && localStorage.getItem(OPEN_KEY) !== "0", false);
}

async function post(body) {
  // over the live socket, as every action; by HTTP only while it reconnects
  const live = await actLive(body);
  if (live !== null) {
    if (live.type === "refused") {
      showError(live);
      $("chat-note").textContent = live.message || "";
      return false;
    }
    clearError();
    return true;
  }
  const answer = await call("POST", `/api/tables/${tableId}/actions`, body);
  if (!answer.ok) {
    showError(answer.data);
    $("chat-note").textContent = answer.data.message || "";
    return false;
  }
  clearError();
  receive(answer.data);
  return true;
}

async function send(content) {
  if (await post({ type: "say", ...content })) {
    if (content.text !== undefined) $("chat-text").value = "";
    $("chat-note").textContent = "";
  }
}

function messageText(m) {
  return m.phrase ? t(`chat.phrase.${m.phrase}`) : m.text;
}

function mine(v, m) {
  return v.you !== null ? m.seat === v.you : m.seat === null && m.name === myName;
}

function item(m) {
  const li = el("li", { class: m.spectator ? "chat-item spectator" : "chat-item", "data-seq": String(m.seq), "data-author": m.author });
  const who = el("span", { class: "chat-name" }, personName(m.name));
  li.append(who);
  if (m.spectator) li.append(" ", el("span", { class: "chat-tag" }, `(${t("chat.spectator")})`));
  li.append(": ", el("span", { class: m.phrase ? "chat-text phrase" : "chat-text" }, messageText(m)));
  const when = new Date(m.at);
  if (!Number.isNaN(when.getTime())) {
    const shown = when.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    li.append(" ", el("time", { datetime: m.at, class: "chat-time" }, shown));
  }
  return li;
}

function addPerson(author, name) {
  // one "mute" checkbox per person who has written (yourself excepted), added
  // once: the list is not rebuilt with each view, so focus stays where it is
  if (people.has(author)) return;
  people.set(author, name);
  const id = `chat-mute-${author}`;
  const row = el("li", { class: "option" });
  const box = el("input", { type: "checkbox", id });
  box.checked = muted().has(author);
  box.addEventListener("change", () => {
    setMuted(author, box.checked);
    applyMutes();
  });
  row.append(box, el("label", { for: id }, t("chat.mute", { name })));
  $("chat-people-list").append(row);
  $("chat-people").hidden = false;
}

function applyMutes() {
  const off = muted();
  for (const li of $("chat-list").children) li.hidden = off.has(li.dataset.author);
}

export function renderChat(v) {
  if (!$("chat") || !v.chat) return;
  const chat = v.chat;
  latest = chat;
  const list = $("chat-list");
  const off = muted();
  const fresh = chat.messages.filter((m) => lastSeq === null || m.seq > lastSeq);
  for (const m of fresh) {
    const li = item(m);
    li.hidden = off.has(m.author);
    list.append(li);
    if (!mine(v, m)) addPerson(m.author, m.name);
  }
  while (list.children.length > KEPT) list.firstElementChild.remove();
  $("chat-none").hidden = chat.messages.length > 0;
  if (lastSeq !== null) {
    const heard = fresh.filter((m) => !off.has(m.author) && !mine(v, m));
    if (!isOpen() && heard.length) {
      unread += heard.length;
      showUnread();
      if (localStorage.getItem(ANNOUNCE_KEY) === "on") {
        announce(heard.map((m) => t(m.spectator ? "chat.said_spectator" : "chat.said", { name: m.name, text: messageText(m) })).join(". "));
      }
    }
    if (fresh.length && isOpen()) {
      const box = $("chat-messages");
      box.scrollTop = box.scrollHeight;
    }
  }
  if (chat.messages.length) lastSeq = chat.messages[chat.messages.length - 1].seq;
  else if (lastSeq === null) lastSeq = 0;
  renderAbility(v, chat);
}

function renderAbility(v, chat) {
  const signedIn = v.you !== null || csrfToken() !== "";
  const closed = v.you === null && !chat.spectators;
  const can = signedIn && !closed;
  for (const control of $("chat").querySelectorAll("#chat-form input, #chat-form button, .chat-phrases button")) {
    control.disabled = !can;
  }
  const note = $("chat-note");
  if (!signedIn) note.textContent = t("chat.sign_in");
  else if (closed) note.textContent = t("chat.spectators_off");
  else if (note.textContent === t("chat.sign_in") || note.textContent === t("chat.spectators_off")) note.textContent = "";
  $("chat-switch-row").hidden = !v.creator;
  $("chat-spectators").checked = chat.spectators;
}

export function chatState() {
  return latest;
}
