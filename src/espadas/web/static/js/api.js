// The JSON API of espadas serve: every change carries the CSRF token (double submit).
import { lang } from "./i18n.js";

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)espadas_csrf=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function call(method, path, body) {
  // refusals come in the page's language, not only the browser's
  const headers = { "accept": "application/json", "accept-language": lang };
  if (method !== "GET") {
    headers["x-csrf-token"] = csrfToken();
  }
  if (body !== undefined) {
    headers["content-type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (error) {
    return { ok: false, status: 0, data: { error: "network", message: String(error) } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = { error: "bad_response", message: response.statusText };
  }
  return { ok: response.ok, status: response.status, data };
}

export async function session() {
  const answer = await call("GET", "/api/session");
  return answer.ok && answer.data.name ? answer.data : null;
}

export async function signIn(name) {
  return call("POST", "/api/session", { name });
}
