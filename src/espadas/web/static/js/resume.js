// A resume link opened on a device signed in as someone else: continue as the
// link's person only when asked to (POST /api/resume with confirm, CSRF header).
import { call } from "./api.js";
import { setUp, showError } from "./page.js";

async function main() {
  await setUp();
  const button = document.getElementById("resume-continue");
  button.addEventListener("click", async () => {
    const token = decodeURIComponent(window.location.pathname.split("/").pop());
    button.disabled = true;
    const answer = await call("POST", "/api/resume", { token, confirm: true });
    if (!answer.ok) {
      button.disabled = false;
      showError(answer.data);
      return;
    }
    window.location.replace("/");
  });
}

main();
