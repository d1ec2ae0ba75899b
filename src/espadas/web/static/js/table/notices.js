// Notices of your turn: the sound, browser notifications (Web Push where the
// browser has it) and the notice mode of this table (e-mail and push).
import { call } from "../api.js";
import { t } from "../i18n.js";
import { announce, showError } from "../page.js";
import { enablePush } from "../push.js";
import { $, tableId, view } from "./view.js";

export function setUpNotices() {
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
}

export async function showMode() {
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
