/* Brag Event — the table's dealer on the clock: a dealer who opens the table signs in to deal
 * there (a shift starts; the dealer before is relieved), signing out ends it, and a banner says
 * when the rota has a change of dealer due ("Change of dealer due: Maria Lopez takes this table
 * at 14:30"). Apart from the table's state and its offline copy: nothing here is queued. */
import { $ } from "./dom.js";
import { api, TOKEN_KEY } from "./api.js";

var EVERY = 15000;

function show(data) {
  var banner = $("#dealer-change");
  if (!banner || !data) return;
  var change = data.change;
  banner.hidden = !change;
  banner.textContent = change ? change.message : "";
  banner.classList.toggle("overdue", !!(change && change.overdue));
}

function read(tableId) {
  return api("GET", "/tables/" + tableId + "/shift/").then(function (res) {
    if (res.status === 200) show(res.data);
  }, function () { /* offline: the banner stays as it was */ });
}

/* Start (or keep) the signed-in dealer's shift at the table, then keep the banner current while
 * ``active()`` (the table's day is open). */
export function watchShift(tableId, me, active) {
  if (!active()) return Promise.resolve();
  var start = me && me.role === "dealer"
    ? api("POST", "/tables/" + tableId + "/shift/", {}).then(function (res) {
        if (res.status === 200) show(res.data);
      }, function () {})
    : read(tableId);
  var out = $("#logout");
  if (out && me && me.role === "dealer") {
    // A tablet with a device token signs out by forgetting it: say so to the server first
    // (keepalive: the request outlives the page going to the login).
    out.addEventListener("click", function () {
      var token = localStorage.getItem(TOKEN_KEY);
      if (!token) return;  // a session: the server's logout ends the shift
      fetch("/api/v1/tables/" + tableId + "/shift/end/", {
        method: "POST", keepalive: true, credentials: "same-origin",
        headers: { "Authorization": "Token " + token, "Accept": "application/json" }
      }).catch(function () {});
    }, true);
  }
  window.setInterval(function () { if (active()) read(tableId); }, EVERY);
  return start;
}
