// What the page sends to the server: actions, setup requests, the rematch. A
// refusal is shown and announced; an accepted one brings the new view.
// Actions go over the live socket (HTTP only while it reconnects).
import { call } from "../api.js";
import { announce, clearError, showError } from "../page.js";
import { actLive } from "./live.js";
import { receive, tableId } from "./view.js";

export async function send(type, value) {
  const body = value === undefined ? { type } : { type, value };
  // over the live socket; by HTTP only while the socket is (re)connecting
  const live = await actLive(body);
  if (live !== null) {
    if (live.type === "refused") {
      showError(live);
      announce(live.message || "");
      return false;
    }
    clearError();
    return true;
  }
  const answer = await call("POST", `/api/tables/${tableId}/actions`, body);
  if (!answer.ok) {
    showError(answer.data);
    announce(answer.data.message || "");
    return false;
  }
  clearError();
  receive(answer.data);
  return true;
}

export async function post(path, body) {
  const answer = await call("POST", `/api/tables/${tableId}/${path}`, body);
  if (!answer.ok) {
    showError(answer.data);
    announce(answer.data.message || "");
    return null;
  }
  clearError();
  if (answer.data.version !== undefined) receive(answer.data);
  return answer.data;
}

export async function rematch(partner) {
  const answer = await call("POST", `/api/tables/${tableId}/rematch`, partner === null ? {} : { partner });
  if (!answer.ok) {
    showError(answer.data);
    return;
  }
  window.location.href = `/mesa/${answer.data.id}`;
}

export function button(label, handler, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", handler);
  return b;
}
