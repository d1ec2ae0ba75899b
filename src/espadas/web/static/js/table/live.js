// The live socket: every frame carries the whole view; the socket reopens after
// a drop, waiting longer each time, and asks for a sync when the tab comes back.
import { receive, tableId, view } from "./view.js";

let socket = null;
let retry = 500;

export function connect() {
  // the server knows who we are when the socket opens: reopen it after signing in
  if (socket) {
    socket.onclose = null;
    socket.close();
  }
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/api/tables/${tableId}/live`);
  socket.onmessage = (message) => {
    const frame = JSON.parse(message.data);
    if (frame.type === "view") {
      // frames may be coalesced; each carries the whole view, so nothing is lost
      receive(frame.view);
      retry = 500;
    }
  };
  socket.onclose = () => {
    window.setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type: "sync", version: view ? view.version : 0 }));
  }
});
