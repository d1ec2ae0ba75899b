// What every page shares: the language switch, the deck choice, the live
// region for announcements, the place where refusals are shown, and the
// service worker's registration (worker.js).
import { applyDeck, DECKS, savedDeck } from "./cards.js";
import { lang, loadCatalog, setLanguage, t } from "./i18n.js";
import "./worker.js";

export async function setUp() {
  await loadCatalog();
  applyDeck(savedDeck());
  const switcher = document.getElementById("lang-switch");
  if (switcher) {
    switcher.textContent = lang === "es" ? "English" : "Español";
    switcher.setAttribute("lang", lang === "es" ? "en" : "es");
    switcher.addEventListener("click", () => setLanguage(lang === "es" ? "en" : "es"));
  }
  const deck = document.getElementById("deck");
  if (deck) {
    // the header has little room (a phone, the table page): each option says its
    // design in a word or two, the full name is its title
    deck.innerHTML = DECKS.map((d) => `<option value="${d}" title="${escapeHtml(t(`deck.${d}`))}">${escapeHtml(t(`deck.${d}_short`))}</option>`).join("");
    deck.value = savedDeck();
    deck.addEventListener("change", () => applyDeck(deck.value));
  }
  for (const element of document.querySelectorAll("[data-t]")) {
    element.textContent = t(element.dataset.t);
  }
}

let lastSaid = "";

export function announce(text) {
  const region = document.getElementById("live");
  if (!region || !text) return;
  // the same text twice in a row must be read again: clear, then set
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text === lastSaid ? `${text} ` : text;
    lastSaid = region.textContent;
  }, 30);
}

export function showError(data) {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = data && data.message ? data.message : t("error.generic");
  box.hidden = false;
  window.clearTimeout(showError.timer);
  showError.timer = window.setTimeout(() => {
    box.hidden = true;
  }, 8000);
}

export function clearError() {
  const box = document.getElementById("error");
  if (box) box.hidden = true;
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function confirmDialog(message) {
  const dialog = document.getElementById("confirm");
  if (!dialog || typeof dialog.showModal !== "function") {
    return Promise.resolve(window.confirm(message));
  }
  dialog.querySelector("[data-role=message]").textContent = message;
  return new Promise((resolve) => {
    const done = (value) => {
      dialog.close();
      resolve(value);
    };
    dialog.querySelector("[data-role=yes]").onclick = () => done(true);
    dialog.querySelector("[data-role=no]").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
    dialog.querySelector("[data-role=no]").focus();
  });
}
