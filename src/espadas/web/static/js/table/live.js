// The live socket: every frame carries the whole view; the socket reopens after
// a drop, waiting longer each time, and asks for a sync when the tab comes back.
// Actions go over it too (the `act` message); each answer comes back by its id.
import { lang } from "../i18n.js";
import { receive, tableId, view } from "./view.js";

let socket = null;
let retry = 500;
let nextId = 1;
const waiting = new Map();

function settle(id, answer) {
  const resolve = waiting.get(id);
  if (!resolve) return;
  waiting.delete(id);
  resolve(answer);
}

export function connect() {
  // the server knows who we are when the socket opens: reopen it after signing in
  if (socket) {
    socket.onclose = null;
    socket.close();
    for (const id of [...waiting.keys()]) settle(id, null);
  }
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  // the page's chosen language, for the refusals the socket sends
  socket = new WebSocket(`${scheme}://${window.location.host}/api/tables/${tableId}/live?lang=${lang}`);
  socket.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "view") {
      // frames may be coalesced; each carries the whole view, so nothing is lost
      receive(frame.view);
      retry = 500;
    } else if (frame.type === "done" || frame.type === "refused") {
      settle(frame.id, frame);
    }
  };
  socket.onclose = () => {
    // an action without an answer may not have arrived: its sender decides
    for (const id of [...waiting.keys()]) settle(id, null);
    window.setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

export function socketOpen() {
  return socket !== null && socket.readyState === WebSocket.OPEN;
}

// Sends an action over the socket; the answer ({type: "done"} or {type:
// "refused", message}) or null when the socket is not open or closed first.
export function actLive(action) {
  if (!socketOpen()) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    socket.send(JSON.stringify({ type: "act", id, action }));
  });
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && socketOpen()) {
    socket.send(JSON.stringify({ type: "sync", version: view ? view.version : 0 }));
  }
});
