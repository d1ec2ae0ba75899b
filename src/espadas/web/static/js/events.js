// The events page (/torneos): the list of events and the form to organise one.
import { call, session } from "./api.js";
import { plural, t } from "./i18n.js";
import { announce, escapeHtml, setUp, showError } from "./page.js";

function summary(e) {
  return t("events.summary", {
    mode: t(`events.mode.${e.mode}`),
    boards: plural("events.boards_n", e.boards),
    rounds: plural("events.rounds_n", e.rounds),
    preset: t(`preset.${e.preset}`),
    status: t(`events.status.${e.status}`),
  });
}

async function showList() {
  const answer = await call("GET", "/api/events");
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  const list = document.getElementById("event-list");
  const events = answer.data.events;
  document.getElementById("no-events").hidden = events.length > 0;
  list.innerHTML = events
    .map((e) => `<li><a href="/torneo/${encodeURIComponent(e.id)}">${escapeHtml(e.name)}</a> <span class="about">${escapeHtml(summary(e))} · ${escapeHtml(t("events.organiser", { name: e.organiser }))}</span></li>`)
    .join("");
}

function numberOf(id) {
  const text = document.getElementById(id).value.trim();
  return text === "" ? null : Number(text);
}

function body() {
  const players = Number(document.getElementById("ev-players").value);
  const invited = document.getElementById("ev-invited").value.split(",").map((s) => s.trim()).filter(Boolean);
  const starts = document.getElementById("ev-starts").value;
  const data = {
    name: document.getElementById("ev-name").value.trim(),
    preset: document.getElementById("ev-preset").value,
    options: players === 4 ? {} : { players },
    renege: document.querySelector("input[name=ev-renege]:checked").value,
    boards: numberOf("ev-boards") || 8,
    rounds: numberOf("ev-rounds") || 1,
    robot: document.getElementById("ev-robot").value,
    absent: document.querySelector("input[name=ev-absent]:checked").value,
  };
  if (starts) data.starts_at = new Date(starts).toISOString();
  const days = numberOf("ev-days");
  if (days) data.days = days;
  if (invited.length) data.invited = invited;
  return data;
}

async function main() {
  await setUp();
  const me = await session();
  document.getElementById("sign-in").hidden = Boolean(me);
  const form = document.getElementById("create-event");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = body();
    if (!data.name) {
      showError({ message: t("events.empty_name") });
      document.getElementById("ev-name").focus();
      return;
    }
    const answer = await call("POST", "/api/events", data);
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    announce(t("events.created"));
    // the link with its token (when the event has one): the organiser may join too
    window.location.href = `/torneo/${answer.data.id}${new URL(answer.data.link).search}`;
  });
  form.hidden = !me; // shown once it answers
  await showList();
}

main();
