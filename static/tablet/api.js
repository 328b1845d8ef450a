/* Brag Event — the tablet's one way to the API (/api/v1): a session with CSRF, or the device
 * token kept on the tablet. */
import { $, cookie, whoText } from "./dom.js";

var API = "/api/v1";
export var TOKEN_KEY = "brag-token";

export function NetworkError(message) { this.name = "NetworkError"; this.message = message; }

/* One API call. Resolves with {status, data, replayed}; rejects with NetworkError when the
 * request never got an answer (no network, server unreachable). */
export function api(method, path, body, key, etag) {
  var headers = { "Accept": "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  var token = localStorage.getItem(TOKEN_KEY);
  if (token) headers["Authorization"] = "Token " + token;
  else if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken");
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  return fetch(API + path, {
    method: method,
    headers: headers,
    credentials: "same-origin",
    cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body)
  }).then(function (response) {
    return response.text().then(function (text) {
      var data = null;
      try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
      return { status: response.status, data: data, etag: response.headers.get("ETag"), replayed: response.headers.get("Idempotent-Replayed") === "true", retryAfter: Number(response.headers.get("Retry-After")) || 0 };
    });
  }, function (err) {
    throw new NetworkError(String(err && err.message || err));
  });
}

export function errorOf(res) {
  var e = res.data && res.data.error;
  return e ? e : { code: "http_" + res.status, message: "The server answered " + res.status + ".", details: {} };
}

export function toLogin() {
  window.location.href = "/tablet/login/?next=" + encodeURIComponent(window.location.pathname);
}

/* Who is signed in, and "Log out" — also for a page opened with no network, from who the
 * tablet kept: logging out then waits for the network (a session is ended at the server), and
 * says so rather than leaving a page the tablet cannot open. */
export function showWho(me) {
  if (!me) return;
  $("#who").textContent = whoText(me);
  var out = $("#logout");
  out.hidden = false;
  out.onclick = function () {
    if (localStorage.getItem(TOKEN_KEY)) { localStorage.removeItem(TOKEN_KEY); toLogin(); return; }
    api("POST", "/auth/logout/", {}).then(toLogin, function () {
      var box = $("#notice");
      if (!box) { toLogin(); return; }
      box.hidden = false;
      box.className = "notice error";
      box.textContent = "No network: log out again once it is back.";
    });
  };
}

export function whoAmI() {
  return api("GET", "/me/").then(function (res) {
    if (res.status === 401 || res.status === 403) { toLogin(); throw new Error("not logged in"); }
    var me = res.data;
    showWho(me);
    return me;
  });
}
