// Reloads a page shown without a connection (the offline page, or the start page
// from the service worker's cache) once the club's server answers again. While
// the browser says it is online (the "online" event, then every few seconds: the
// server may be what was down), a HEAD request to the page's address, which the
// worker lets through to the network, tells whether the server answers; any
// answer, even a refusal, reloads the page.

const EVERY_MS = 5000;

async function reloadIfBack() {
  if (!navigator.onLine) return;
  try {
    await fetch(window.location.href, { method: "HEAD", cache: "no-store" });
  } catch (error) {
    return; // still no connection
  }
  window.location.reload();
}

export function reloadWhenBack() {
  window.addEventListener("online", reloadIfBack);
  window.setInterval(reloadIfBack, EVERY_MS);
}
