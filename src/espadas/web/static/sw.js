// The service worker of espadas. Plain script, no imports.
// - Turn notices pushed by the server: shows them, and brings the player to the
//   table when one is clicked. Push payload (JSON): {title, body, url, tag};
//   every field is optional.
// - Without a connection: a cache named after the version of the site's files,
//   filled on install (the start page and the offline page in both languages,
//   the texts, the manifests and the files the pages load), older caches
//   deleted on activate.
//   Static files come from the cache first; pages from the network first, and
//   without it the start page from the cache, any other page the offline page
//   in the person's language. The API (/api/...) and the live sockets are never
//   cached nor answered from here.

"use strict";

// The server (espadas.web.app_install) fills in the next line.
const BUILD = { version: "", precache: [] };

const PREFIX = "espadas-";
const CACHE = PREFIX + (BUILD.version || "dev");
const LANGS = ["es", "en"];
const OFFLINE = "/sin-conexion";
const LAST_LANG = "/sin-conexion/idioma"; // cache key: the language of the last page seen

function sameOriginUrl(raw) {
  try {
    const url = new URL(raw || "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("install", (event) => {
  // Each file on its own: one that fails to load leaves the others kept, and never
  // keeps the worker (and the turn notices) from installing.
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(BUILD.precache.map((path) => cache.add(path).catch(() => undefined)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
    );
    await self.clients.claim();
  })());
});

function isStatic(url) {
  return url.pathname.startsWith("/static/") || url.pathname.startsWith("/i18n/")
    || url.pathname === "/favicon.ico" || url.pathname === "/manifest.webmanifest";
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) {
    return kept;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
  }
  return response;
}

// After a page came from the network: its language, and the start page itself.
async function remember(url, response) {
  const lang = response.headers.get("content-language");
  if (!response.ok || !LANGS.includes(lang)) {
    return;
  }
  const cache = await caches.open(CACHE);
  await cache.put(LAST_LANG, new Response(lang));
  if (url.pathname === "/") {
    await cache.put(`/?lang=${lang}`, response);
  }
}

// The language a page would have had: ?lang=, else the cookie the language switch
// sets, else that of the last page the server sent, else the browser's.
async function pageLang(cache, url) {
  const asked = url.searchParams.get("lang");
  if (LANGS.includes(asked)) {
    return asked;
  }
  try {
    const cookie = self.cookieStore ? await self.cookieStore.get("espadas_lang") : null;
    if (cookie && LANGS.includes(cookie.value)) {
      return cookie.value;
    }
  } catch (error) {
    // no cookie store here: go on
  }
  const last = await cache.match(LAST_LANG);
  const lastLang = last ? await last.text() : "";
  if (LANGS.includes(lastLang)) {
    return lastLang;
  }
  for (const tag of self.navigator.languages || []) {
    const lang = tag.toLowerCase().split("-")[0];
    if (LANGS.includes(lang)) {
      return lang;
    }
  }
  return "es";
}

async function networkFirst(event, url) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(remember(url, response.clone()));
    return response;
  } catch (error) {
    const cache = await caches.open(CACHE);
    const lang = await pageLang(cache, url);
    if (url.pathname === "/") {
      const start = await cache.match(`/?lang=${lang}`);
      if (start) {
        return start;
      }
    }
    const offline = await cache.match(`${OFFLINE}?lang=${lang}`);
    return offline || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin
      || url.pathname.startsWith("/api/") || url.pathname === "/sw.js") {
    return; // the network as if there were no worker
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, url));
  } else if (isStatic(url)) {
    event.respondWith(cacheFirst(request));
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json() || {};
    } catch (error) {
      data = { body: event.data.text() };
    }
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Espadas";
  const options = {
    body: typeof data.body === "string" ? data.body : "",
    data: { url: sameOriginUrl(data.url) },
    icon: "/static/icon-192.png",
  };
  if (typeof data.tag === "string" && data.tag) {
    options.tag = data.tag;
    options.renotify = true;
  }
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (client.url === url && "focus" in client) {
        return client.focus();
      }
    }
    if (self.clients.openWindow) {
      return self.clients.openWindow(url);
    }
    return undefined;
  })());
});
