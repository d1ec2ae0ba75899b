// Home: choose your name, your tables (mytables.js, near the top), open a table
// (each option explained); the e-mail and the session on other devices are on
// the account page.
import { call, signIn } from "./api.js";
import { t } from "./i18n.js";
import { listTables } from "./mytables.js";
import { escapeHtml, setUp, showError } from "./page.js";
import { reloadWhenBack } from "./reconnect.js";

const BOOLEAN_OPTIONS = ["blind_nil", "bags_reset", "no_hell", "suicide", "quicksand", "bonuses"];
const CHOICE_OPTIONS = {
  first_dealer: ["creator", "random"],
  first_lead: ["any", "two_of_clubs"],
  spades_in_first_trick: ["allowed", "forbidden"],
};

let presets = {};
let targets = {};

function presetValues() {
  return presets[document.getElementById("preset").value];
}

function renderOptions() {
  const values = presetValues();
  const preset = document.getElementById("preset").value;
  document.getElementById("preset-about").textContent = t(`preset.${preset}.about`);
  const target = document.getElementById("target");
  const choices = targets[preset] || [values.target];
  target.innerHTML = choices.map((v) => `<option value="${v}">${t("home.points", { n: v })}</option>`).join("");
  target.disabled = choices.length === 1;
  for (const mode of ["allowed", "prevented"]) {
    const radio = document.getElementById(`renege-${mode}`);
    radio.checked = values.renege === mode;
  }
  const players = document.getElementById("players");
  players.value = String(values.players);
  document.getElementById("players-row").hidden = preset !== "sala";
  const box = document.getElementById("house-rules");
  let html = "";
  for (const name of BOOLEAN_OPTIONS) {
    const checked = values[name] ? " checked" : "";
    html += `<div class="option"><input type="checkbox" id="opt-${name}" name="${name}"${checked}>
<label for="opt-${name}">${escapeHtml(t(`option.${name}`))}</label>
<p class="about" id="about-${name}">${escapeHtml(t(`option.${name}.about`))}</p></div>`;
  }
  for (const [name, choices] of Object.entries(CHOICE_OPTIONS)) {
    const options = choices
      .map((c) => `<option value="${c}"${values[name] === c ? " selected" : ""}>${escapeHtml(t(`option.${name}.${c}`))}</option>`)
      .join("");
    html += `<div class="option"><label for="opt-${name}">${escapeHtml(t(`option.${name}`))}</label>
<select id="opt-${name}" name="${name}" aria-describedby="about-${name}">${options}</select>
<p class="about" id="about-${name}">${escapeHtml(t(`option.${name}.about`))}</p></div>`;
  }
  box.innerHTML = html;
  for (const name of BOOLEAN_OPTIONS) {
    document.getElementById(`opt-${name}`).setAttribute("aria-describedby", `about-${name}`);
  }
}

function chosenOptions() {
  const values = presetValues();
  const options = {};
  for (const name of BOOLEAN_OPTIONS) {
    const value = document.getElementById(`opt-${name}`).checked;
    if (value !== values[name]) options[name] = value;
  }
  for (const name of Object.keys(CHOICE_OPTIONS)) {
    const value = document.getElementById(`opt-${name}`).value;
    if (value !== values[name]) options[name] = value;
  }
  if (document.getElementById("preset").value === "sala") {
    const players = Number(document.getElementById("players").value);
    if (players !== values.players) {
      options.players = players;
      options.partnerships = players === 4;
    }
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  const renege = document.querySelector("input[name=renege]:checked");
  const body = {
    preset: document.getElementById("preset").value,
    target: Number(document.getElementById("target").value),
    options: chosenOptions(),
    hints: document.getElementById("hints").checked,
    rated: document.getElementById("rated").checked,
    absent: document.getElementById("absent-robot").checked ? "robot" : "claim",
  };
  if (renege) body.renege = renege.value;
  const answer = await call("POST", "/api/tables", body);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  window.location.href = `/mesa/${answer.data.id}`;
}

async function showSignedIn(me) {
  // the form shows once the presets are here: choosing one before would find no values
  const answer = await call("GET", "/api/presets");
  presets = answer.data.presets;
  targets = answer.data.targets;
  renderOptions();
  document.getElementById("signin").hidden = true;
  document.getElementById("signed").hidden = false;
  document.getElementById("hello").textContent = t("home.hello", { name: me.name });
  document.getElementById("own-profile").hidden = false;
  await listTables();
}

async function main() {
  await setUp();
  document.getElementById("preset").addEventListener("change", renderOptions);
  document.getElementById("create").addEventListener("submit", createTable);
  document.getElementById("signin").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await signIn(document.getElementById("name").value);
    if (!answer.ok) {
      showError(answer.data);
      return;
    }
    await showSignedIn(answer.data);
  });
  const answer = await call("GET", "/api/session");
  const me = answer.ok && answer.data.name ? answer.data : null;
  if (me) {
    await showSignedIn(me);
  } else if (answer.status === 0) {
    // no connection (the page came from the service worker's cache): no name to
    // ask for, the club is there again once the connection is
    document.getElementById("offline-note").hidden = false;
    reloadWhenBack();
  } else {
    document.getElementById("signin").hidden = false;
    document.getElementById("name").focus();
  }
}

main();
