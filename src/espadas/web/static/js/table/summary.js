// The hand summary: when a hand ends, a dialog says per side the contract, the
// tricks, the points of the contract, Nil and blind nil, the bonuses, the bags
// and their penalty, and the new totals (the score sheet's own row), with NEXT
// HAND and, where renege is allowed, the accusations.
import { bidName, seatLabel, sideName, t } from "../i18n.js";
import { shortSide } from "./board.js";
import { confirmDialog, escapeHtml } from "../page.js";
import { button, send } from "./commands.js";
import { renderRoundOver, roundOver } from "./event.js";
import { $, legalOf, sideOrder } from "./view.js";

let closedFor = null; // the hand whose summary the person closed
let shownHand = null;

const signed = (n) => (n > 0 ? `+${n}` : String(n));

function rows(v, row) {
  const parts = row.parts || [];
  const order = sideOrder(v); // yours first
  const cell = (f) => (parts.length ? order.map((i) => f(parts[i], i)) : []);
  const each = (list, f) => order.map((i) => f(list[i]));
  const lines = [
    ["contract", t("summary.contract"), cell((p) => String(p.contract))],
    ["tricks", t("summary.tricks"), cell((p) => String(p.tricks))],
    ["contract-points", t("summary.contract_points"), cell((p) => signed(p.contract_points))],
  ];
  if (parts.some((p) => p.nils.length)) {
    lines.push(["nils", t("summary.nils"), cell((p) => p.nils.map((n) => t(n.made ? "summary.nil_made" : "summary.nil_lost", {
      name: seatLabel(v, n.seat), bid: bidName(n.blind ? "blind_nil" : 0), points: signed(n.points),
    })).join("; ") || "—")]);
  }
  if (v.options.bonuses) lines.push(["bonus", t("summary.bonus"), cell((p) => signed(p.bonus))]);
  lines.push(["new-bags", t("summary.bags"), cell((p) => String(p.new_bags))]);
  lines.push(["penalty", t("summary.penalty"), cell((p) => (p.penalty ? `−${p.penalty}` : "0"))]);
  lines.push(["points", t("summary.points"), each(row.points, signed)]);
  lines.push(["total", t("summary.total"), each(row.totals, String)]);
  lines.push(["bags", t("summary.bags_total"), each(row.bags, String)]);
  return lines;
}

function fill(v, row) {
  const g = v.game;
  $("summary-title").textContent = t("summary.title", { n: row.hand });
  $("summary-lead").textContent = t("summary.lead");
  const heads = sideOrder(v).map((i) => g.sides[i]);
  $("summary-head").innerHTML = `<td></td>${heads.map((s) => `<th scope="col" title="${escapeHtml(sideName(v, s))}">${escapeHtml(shortSide(v, s))}</th>`).join("")}`;
  $("summary-body").innerHTML = rows(v, row)
    .map(([key, label, cells]) => `<tr data-row="${key}"><th scope="row">${escapeHtml(label)}</th>${cells.map((c, i) => `<td data-side="${i}">${escapeHtml(c)}</td>`).join("")}</tr>`)
    .join("");
  $("summary-boston").textContent = row.boston ? t("summary.boston", { side: sideName(v, row.boston) }) : "";
  const box = $("summary-actions");
  box.innerHTML = "";
  if (legalOf("next_hand").length) box.appendChild(button(t("action.next_hand"), () => send("next_hand"), "primary"));
  // an event's round over with renege prevented: nothing to accuse, so nothing to confirm
  const quiet = roundOver(v) && v.options.renege !== "allowed";
  if (legalOf("confirm_end").length && !quiet) box.appendChild(button(t("action.confirm_end"), () => send("confirm_end"), "primary"));
  renderRoundOver(v, box); // an event's round played out: the way on
  box.appendChild(button(t("page.close"), () => {
    closedFor = row.hand;
    $("summary").close();
  }));
  const accuse = $("summary-accuse");
  accuse.innerHTML = "";
  for (const a of legalOf("accuse")) {
    const name = seatLabel(v, a.value);
    accuse.appendChild(button(t("action.accuse", { name }), async () => {
      if (await confirmDialog(t("confirm.accuse", { name }))) send("accuse", a.value);
    }));
  }
}

export function summaryRow(v) {
  const g = v.game;
  if (!g || g.phase !== "hand_end" || !g.hand_number) return null;
  return v.sheet.find((r) => r.hand === g.hand_number) || null;
}

export function renderSummary(v) {
  const dialog = $("summary");
  const row = summaryRow(v);
  if (!row) {
    if (dialog.open) dialog.close();
    return;
  }
  const wasOpen = dialog.open;
  shownHand = row.hand;
  fill(v, row);
  if (!wasOpen && closedFor !== row.hand) {
    dialog.showModal();
    const first = dialog.querySelector("#summary-actions .primary") || dialog.querySelector("button");
    if (first) first.focus({ preventScroll: true });
    dialog.scrollTop = 0; // the title first, even on a short screen
  }
}

export function openSummary() {
  closedFor = null;
  const dialog = $("summary");
  if (!dialog.open) dialog.showModal();
}

export function setUpSummary() {
  $("summary").addEventListener("cancel", () => {
    closedFor = shownHand;
  });
}
