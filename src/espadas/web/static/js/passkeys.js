// Passkeys (WebAuthn): make one for the person signed in, sign in with one, list
// and remove them. The server's options and the browser's answers travel as
// JSON, their buffers in base64url.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { escapeHtml, showError } from "./page.js";

export function passkeysWork() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function toBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function toText(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function described(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toText(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toText(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
  } else {
    response.authenticatorData = toText(r.authenticatorData);
    response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
  }
  return { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response, clientExtensionResults: {} };
}

function refused(error) {
  return { ok: false, data: { error: "passkey_cancelled", message: t("account.passkey.cancelled", { detail: String(error.name || error) }) } };
}

export async function addPasskey() {
  const asked = await call("POST", "/api/passkeys/register/options");
  if (!asked.ok) return asked;
  const o = asked.data;
  const publicKey = {
    ...o,
    challenge: toBytes(o.challenge),
    user: { ...o.user, id: toBytes(o.user.id) },
    excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })),
  };
  let credential;
  try {
    credential = await navigator.credentials.create({ publicKey });
  } catch (error) {
    return refused(error);
  }
  return call("POST", "/api/passkeys", { credential: described(credential) });
}

export async function signInWithPasskey() {
  const asked = await call("POST", "/api/passkeys/signin/options");
  if (!asked.ok) return asked;
  const o = asked.data;
  const publicKey = { ...o, challenge: toBytes(o.challenge), allowCredentials: (o.allowCredentials || []).map((c) => ({ ...c, id: toBytes(c.id) })) };
  let credential;
  try {
    credential = await navigator.credentials.get({ publicKey });
  } catch (error) {
    return refused(error);
  }
  return call("POST", "/api/passkeys/signin", { credential: described(credential) });
}

export async function listPasskeys(list) {
  const answer = await call("GET", "/api/passkeys");
  if (!answer.ok) return;
  if (answer.data.passkeys.length === 0) {
    list.innerHTML = `<li>${escapeHtml(t("account.passkey.none"))}</li>`;
    return;
  }
  const lang = document.documentElement.lang;
  list.innerHTML = answer.data.passkeys
    .map((k, i) => {
      const label = k.label || t("account.passkey.unnamed", { n: i + 1 });
      const made = new Date(k.created_at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      return `<li><span class="device">${escapeHtml(label)}</span>
<span class="about">${escapeHtml(t("account.passkey.made", { when: made }))}</span>
<button type="button" data-passkey="${escapeHtml(k.id)}" aria-label="${escapeHtml(t("account.passkey.remove_label", { name: label }))}">${escapeHtml(t("account.passkey.remove"))}</button></li>`;
    })
    .join("");
  for (const button of list.querySelectorAll("button[data-passkey]")) {
    button.onclick = async () => {
      const gone = await call("DELETE", `/api/passkeys/${encodeURIComponent(button.dataset.passkey)}`);
      if (!gone.ok) showError(gone.data);
      await listPasskeys(list);
    };
  }
}
