// Turn notices by Web Push: subscribe this browser, or stop.
// `call(method, path, body)` is the API helper of api.js ({ok, status, data}).
// enablePush resolves to "on", "unsupported", "denied" or "error";
// disablePush to "off" or "error".

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

// base64url (padded or not) -> Uint8Array, for applicationServerKey.
export function base64UrlToBytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

function sameKey(subscription, key) {
  const current = subscription.options && subscription.options.applicationServerKey;
  if (!current) {
    return true;
  }
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((byte, i) => byte === key[i]);
}

export async function enablePush(call) {
  if (!supported()) {
    return "unsupported";
  }
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      return "denied";
    }
    const answer = await call("GET", "/api/push/key");
    if (!answer.ok || !answer.data || typeof answer.data.key !== "string") {
      return "error";
    }
    const key = base64UrlToBytes(answer.data.key);
    await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    if (subscription && !sameKey(subscription, key)) {
      // Made against another server key (the server's keys were remade): start over.
      await subscription.unsubscribe();
      subscription = null;
    }
    if (!subscription) {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key,
      });
    }
    const saved = await call("POST", "/api/push/subscriptions", subscription.toJSON());
    return saved.ok ? "on" : "error";
  } catch (error) {
    if (error && error.name === "NotAllowedError") {
      return "denied";
    }
    return "error";
  }
}

export async function disablePush(call) {
  if (!supported()) {
    return "off";
  }
  try {
    const registration = await navigator.serviceWorker.getRegistration("/");
    const subscription = registration ? await registration.pushManager.getSubscription() : null;
    if (!subscription) {
      return "off";
    }
    const endpoint = subscription.endpoint;
    await subscription.unsubscribe();
    const answer = await call("DELETE", "/api/push/subscriptions", { endpoint });
    return answer.ok ? "off" : "error";
  } catch (error) {
    return "error";
  }
}
