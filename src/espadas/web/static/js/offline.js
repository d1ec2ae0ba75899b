// The offline page, which the service worker shows for a page it could not fetch
// (the address stays that page's): "Try again" loads it again, and so does the
// connection coming back (reconnect.js).
import { setUp } from "./page.js";
import { reloadWhenBack } from "./reconnect.js";

document.getElementById("retry").addEventListener("click", () => window.location.reload());
reloadWhenBack();
setUp();
