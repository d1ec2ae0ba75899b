// The analysis of a finished game: start it (POST), follow its progress (GET every
// second) and hand over the result. The progress is said in an aria-live region.
import { call } from "../api.js";
import { lang, t } from "../i18n.js";

const POLL_MS = 1000;

export function progressText(state) {
  if (state.status === "queued") return state.waiting ? t("analysis.queued", { n: state.waiting }) : t("analysis.queued_next");
  if (state.status === "running") return t("analysis.running", { percent: state.percent, done: state.done, total: state.total });
  if (state.status === "done") return t("analysis.done");
  if (state.status === "failed") return t("analysis.failed");
  if (state.status === "refused") return state.message;
  return "";
}

// One decimal in the page's language: "12,4" / "12.4".
export function points(value) {
  return Number(value).toLocaleString(lang === "es" ? "es-ES" : "en-GB", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

export async function readAnalysis(tableId) {
  const answer = await call("GET", `/api/tables/${tableId}/analysis`);
  return answer.ok ? answer.data : null;
}

// Starts the analysis (or joins the one under way) and calls onState with each
// state until it is done, failed or refused; answers the last state.
export async function runAnalysis(tableId, onState) {
  let answer = await call("POST", `/api/tables/${tableId}/analysis`, {});
  for (;;) {
    if (!answer.ok) {
      const refused = { status: "refused", message: answer.data && answer.data.message };
      onState(refused);
      return refused;
    }
    const state = answer.data;
    onState(state);
    if (state.status !== "queued" && state.status !== "running") return state;
    await new Promise((resolve) => window.setTimeout(resolve, POLL_MS));
    answer = await call("GET", `/api/tables/${tableId}/analysis`);
  }
}

// The "Analizar" button, a progress bar and its status line, in one element;
// onDone(state) runs once the analysis is there (at once if it already was).
export function analysisControls(tableId, onDone) {
  const box = document.createElement("div");
  box.className = "analysis-controls";
  box.innerHTML = `<button type="button" class="primary analyse">${t("analysis.start")}</button>
<progress max="100" value="0" hidden></progress>
<p class="analysis-status" role="status" aria-live="polite"></p>`;
  const button = box.querySelector("button");
  const bar = box.querySelector("progress");
  const status = box.querySelector(".analysis-status");
  bar.setAttribute("aria-label", t("analysis.progress"));
  let said = null; // what the live region last said: a new state, or each tenth more
  const show = (state) => {
    const busy = state.status === "queued" || state.status === "running";
    bar.hidden = !busy;
    bar.value = state.percent || 0;
    button.disabled = busy;
    button.hidden = state.status === "done";
    const step = `${state.status}:${Math.floor((state.percent || 0) / 10)}`;
    if (step !== said) {
      said = step;
      status.textContent = progressText(state);
    }
    if (state.status === "done") onDone(state);
  };
  button.addEventListener("click", () => runAnalysis(tableId, show));
  readAnalysis(tableId).then((state) => {
    if (!state) return;
    if (state.status === "queued" || state.status === "running") runAnalysis(tableId, show);
    else if (state.status === "done") show(state);
  });
  return box;
}
