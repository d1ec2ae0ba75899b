// The account page (/cuenta): your name (unique in the club), the e-mail you
// sign in with (and get turn notices at), passkeys, the devices signed in, your
// resume links (devices.js), your data and deleting your account. Signed out, it asks for a sign-in link or a passkey.
import { call, session } from "./api.js";
import { showDevices } from "./devices.js";
import { t } from "./i18n.js";
import { addPasskey, listPasskeys, passkeysWork, signInWithPasskey } from "./passkeys.js";
import { announce, confirmDialog, escapeHtml, setUp, showError } from "./page.js";

const $ = (id) => document.getElementById(id);

function when(stamp) {
  const lang = document.documentElement.lang;
  return new Date(stamp).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
}

function deviceName(d) {
  if (d.browser && d.system) return t("resume.device", { browser: d.browser, system: d.system });
  return d.browser || d.system || t("resume.unknown_device");
}

async function listDevices() {
  const answer = await call("GET", "/api/account/devices");
  if (!answer.ok) return;
  const list = $("device-list");
  list.innerHTML = answer.data.devices
    .map((d) => {
      const label = deviceName(d) + (d.current ? ` (${t("account.devices.this")})` : "");
      return `<li><span class="device">${escapeHtml(label)}</span>
<span class="about">${escapeHtml(t(`account.how.${d.how}`))} · ${escapeHtml(t("account.devices.seen", { when: when(d.seen_at) }))}</span>
<button type="button" data-device="${escapeHtml(d.id)}" aria-label="${escapeHtml(t("account.devices.out_label", { device: label }))}">${escapeHtml(t("account.devices.out"))}</button></li>`;
    })
    .join("");
  for (const button of list.querySelectorAll("button[data-device]")) {
    button.onclick = async () => {
      const out = await call("DELETE", `/api/account/devices/${encodeURIComponent(button.dataset.device)}`);
      if (!out.ok) return showError(out.data);
      $("devices-state").textContent = t("account.devices.done");
      if (answer.data.devices.find((d) => d.id === button.dataset.device && d.current)) window.location.reload();
      else await listDevices();
    };
  }
}

async function showAccount(me) {
  const answer = await call("GET", "/api/account");
  if (!answer.ok) return showError(answer.data);
  const account = answer.data;
  $("new-name").value = account.name;
  $("my-email").value = account.email || "";
  const emailState = account.email
    ? t(account.confirmed ? "account.email.confirmed" : "account.email.waiting", { email: account.email })
    : t("account.email.none");
  $("email-state").textContent = account.mail ? emailState : t("account.email.no_mail");
  $("rename").onsubmit = async (event) => {
    event.preventDefault();
    const renamed = await call("PUT", "/api/account/name", { name: $("new-name").value });
    if (!renamed.ok) {
      $("rename-state").textContent = renamed.data.message;
      return showError(renamed.data);
    }
    $("new-name").value = renamed.data.name;
    $("rename-state").textContent = t("account.name.done", { name: renamed.data.name });
  };
  $("account-email").onsubmit = async (event) => {
    event.preventDefault();
    const email = $("my-email").value.trim() || null;
    // this address is for signing in (the confirmation mail says so), and for notices
    const saved = await call("PUT", "/api/contact", { email, lang: document.documentElement.lang, purpose: "signin" });
    if (!saved.ok) return showError(saved.data);
    $("email-state").textContent = email ? t("account.email.sent", { email }) : t("account.email.none");
  };
  $("devices-others").onclick = async () => {
    if (!(await confirmDialog(t("account.devices.others_confirm")))) return;
    const out = await call("DELETE", "/api/account/devices");
    if (!out.ok) return showError(out.data);
    $("devices-state").textContent = t("account.devices.others_done", { n: out.data.signed_out });
    await listDevices();
  };
  $("delete-account").onclick = async () => {
    if (!(await confirmDialog(t("account.delete.confirm", { name: me.name })))) return;
    const gone = await call("DELETE", "/api/account", { confirm: true });
    if (!gone.ok) {
      $("delete-state").textContent = gone.data.message;
      return showError(gone.data);
    }
    announce(t("account.delete.done"));
    window.location.replace("/");
  };
  $("passkeys").hidden = !passkeysWork();
  $("passkey-add").onclick = async () => {
    const added = await addPasskey();
    $("passkey-state").textContent = added.ok ? t("account.passkey.added") : added.data.message;
    if (!added.ok) showError(added.data);
    await listPasskeys($("passkey-list"));
  };
  await Promise.all([listDevices(), listPasskeys($("passkey-list")), showDevices()]);
  $("account-in").hidden = false; // shown once every control works
}

function showSignedOut() {
  $("ask-link").onsubmit = async (event) => {
    event.preventDefault();
    const asked = await call("POST", "/api/signin/email", { email: $("ask-email").value.trim(), lang: document.documentElement.lang });
    if (!asked.ok) return showError(asked.data);
    $("ask-state").textContent = asked.data.message;
  };
  $("passkey-in").hidden = !passkeysWork();
  $("passkey-signin").onclick = async () => {
    const signed = await signInWithPasskey();
    if (!signed.ok) {
      $("pk-in-state").textContent = signed.data.message;
      return showError(signed.data);
    }
    window.location.reload();
  };
  $("account-out").hidden = false;
}

// Just signed in with a link from a mail (enter.js): said once, at the top.
function sayJustSignedIn(me) {
  const name = sessionStorage.getItem("espadas.signed_in");
  if (!name) return;
  sessionStorage.removeItem("espadas.signed_in");
  const note = $("signed-in-note");
  note.textContent = t("account.signed_in", { name: me.name });
  note.hidden = false;
  announce(note.textContent);
}

async function main() {
  await setUp();
  const me = await session();
  if (me) {
    await showAccount(me);
    sayJustSignedIn(me);
  } else showSignedOut();
}

main();
