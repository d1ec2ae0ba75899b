// A sign-in link opened from a mail: its button signs this device in (once);
// a device signed in as someone else is asked first.
import { call } from "./api.js";
import { t } from "./i18n.js";
import { confirmDialog, setUp, showError } from "./page.js";

async function use(token, confirm) {
  const answer = await call("POST", "/api/signin/email/use", { token, confirm });
  if (answer.ok) {
    document.getElementById("enter-state").textContent = t("enter.done", { name: answer.data.name });
    // the account page says it once it opens: "Has entrado como Ana en este dispositivo"
    sessionStorage.setItem("espadas.signed_in", answer.data.name);
    window.location.replace("/cuenta");
    return;
  }
  if (answer.status === 409 && answer.data.error === "signin_would_switch" && (await confirmDialog(answer.data.message))) {
    await use(token, true);
    return;
  }
  showError(answer.data);
  document.getElementById("enter-state").textContent = answer.data.message || "";
  document.getElementById("enter-go").disabled = false;
}

async function main() {
  await setUp();
  const button = document.getElementById("enter-go");
  button.addEventListener("click", async () => {
    button.disabled = true;
    await use(decodeURIComponent(window.location.pathname.split("/").pop()), false);
  });
}

main();
