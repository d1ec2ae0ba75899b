// The account page's "your session on other devices": make a resume link, revoke
// every earlier one and make a new one, and the list of the uses of your links
// (when, and the browser and system), the most recent first.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { announce, confirmDialog, escapeHtml, showError } from "./page.js";

const $ = (id) => document.getElementById(id);

function deviceName(use) {
  if (use.browser && use.system) return t("resume.device", { browser: use.browser, system: use.system });
  return use.browser || use.system || t("resume.unknown_device");
}

async function listUses() {
  const answer = await call("GET", "/api/resume-link");
  if (!answer.ok) return;
  $("resume-active").textContent = t("resume.active", { n: answer.data.active });
  const list = $("resume-uses");
  if (answer.data.uses.length === 0) {
    list.innerHTML = `<li>${escapeHtml(t("resume.no_uses"))}</li>`;
    return;
  }
  const lang = document.documentElement.lang;
  list.innerHTML = answer.data.uses
    .map((use) => {
      const when = new Date(use.at);
      const said = when.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      return `<li><span class="device">${escapeHtml(deviceName(use))}</span>
<time class="when" datetime="${escapeHtml(use.at)}">${escapeHtml(said)}</time></li>`;
    })
    .join("");
}

async function makeLink(replace) {
  const answer = await call("POST", "/api/resume-link", replace ? { replace: true } : undefined);
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  $("resume-link").value = answer.data.url;
  $("resume-made").hidden = false;
  const said = t(replace ? "resume.replaced" : "resume.made");
  $("resume-state").textContent = said;
  $("resume-link").focus();
  $("resume-link").select();
  await listUses();
}

export async function showDevices() {
  $("resume-make").onclick = () => makeLink(false);
  $("resume-replace").onclick = async () => {
    if (await confirmDialog(t("resume.replace_confirm"))) await makeLink(true);
  };
  $("resume-copy").onclick = async () => {
    try {
      await navigator.clipboard.writeText($("resume-link").value);
      announce(t("resume.copied"));
    } catch (error) {
      $("resume-link").select();
    }
  };
  await listUses();
}
