// On your own profile: whether the leaderboards show you (PUT /api/club/me);
// the profile itself stays open to anyone with its link.
import { call } from "../api.js";
import { t } from "../i18n.js";
import { showError } from "../page.js";

export async function offerListing(subject) {
  const answer = await call("GET", "/api/club/me");
  if (!answer.ok || answer.data.id !== subject) return;
  const box = document.getElementById("listed");
  const state = document.getElementById("listed-state");
  box.checked = !answer.data.hidden;
  document.getElementById("me").hidden = false;
  box.addEventListener("change", async () => {
    const saved = await call("PUT", "/api/club/me", { hidden: !box.checked });
    if (!saved.ok) {
      box.checked = !box.checked;
      showError(saved.data);
      return;
    }
    state.textContent = t(saved.data.hidden ? "profile.listed_off" : "profile.listed_on");
  });
}
