/* Brag Event — the tablet's login page. */
import { $ } from "./dom.js";
import { api, errorOf, TOKEN_KEY } from "./api.js";

// Where to go after logging in: the server already checked it (tablet/views.py); checked again
// here with the browser's own URL parser, the one that will follow it, so that "/\evil.example",
// "/\t/evil.example" and the like can never leave this site.
export function safeNext(raw) {
  var home = "/tablet/";
  if (!raw || raw.charAt(0) !== "/") return home;
  var url;
  try { url = new URL(raw, window.location.origin); } catch (e) { return home; }
  if (url.origin !== window.location.origin) return home;
  return url.pathname + url.search + url.hash;
}

export function loginPage() {
  function next() { return safeNext($("#login").getAttribute("data-next")); }
  var error = $("#login-error");
  $("#login-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var form = ev.target;
    localStorage.removeItem(TOKEN_KEY);
    api("POST", "/auth/login/", { username: form.username.value, password: form.password.value }).then(function (res) {
      if (res.status === 200) { window.location.href = next(); return; }
      error.textContent = errorOf(res).message;
    }, function () { error.textContent = "No network: try again when the tablet is connected."; });
  });
  $("#token-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    localStorage.setItem(TOKEN_KEY, ev.target.token.value.trim());
    api("GET", "/me/").then(function (res) {
      if (res.status === 200) { window.location.href = next(); return; }
      localStorage.removeItem(TOKEN_KEY);
      error.textContent = errorOf(res).message;
    }, function () {
      localStorage.removeItem(TOKEN_KEY);
      error.textContent = "No network: try again when the tablet is connected.";
    });
  });
}
