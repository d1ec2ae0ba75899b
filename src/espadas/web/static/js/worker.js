// Registers the service worker (/sw.js) for the whole site, from every page: it
// keeps the files the site needs without a connection and shows turn notices.
// Registering asks no permission; notices ask theirs when turned on (push.js).
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // no worker (a private window, a browser that refuses it): the site works without
  });
}
