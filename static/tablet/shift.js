/* Brag Event — the table's dealer on the clock: a dealer who opens the table signs in to deal
 * there (a shift starts; the dealer before is relieved), signing out ends it, and a banner says
 * when the rota has a change of dealer due ("Change of dealer due: Maria Lopez takes this table
 * at 14:30"). A dealer signed in at another table stays there: opening this page moves nobody
 * — the tablet says where they deal and offers to leave it for this table. A dealer relieved
 * here is told, and no longer offered the next hand (T.relieved, read by render.js). Apart
 * from the table's state and its offline copy: nothing here is queued. */
import { $, el, clear, notice } from "./dom.js";
import { api, TOKEN_KEY } from "./api.js";
import { changed } from "./state.js";

var EVERY = 15000;

function show(data) {
  var banner = $("#dealer-change");
  if (!banner || !data) return;
  var change = data.change;
  banner.hidden = !change;
  banner.textContent = change ? change.message : "";
  banner.classList.toggle("overdue", !!(change && change.overdue));
}

/* The dealer's own state here: words in #shift-state, and ``T.relieved`` for the next hand. */
function showMine(T, text, button) {
  var box = $("#shift-state");
  if (!box) return;
  clear(box);
  box.hidden = !text;
  if (text) box.appendChild(el("p", { text: text }));
  if (button) box.appendChild(button);
}

function relieved(T, mine) {
  var was = T.relieved || null;
  T.relieved = (mine && mine.relieved) ? mine.relieved.message : null;
  if (T.relieved) {
    // The table is no longer theirs to read either (unless ticked for it): this says why.
    notice("");
    showMine(T, T.relieved + " Sign out, or open the table the rota gives you next.");
  }
  if (was !== T.relieved) changed(T);
}

function read(T, tableId, dealer) {
  var table = api("GET", "/tables/" + tableId + "/shift/").then(function (res) {
    if (res.status === 200) show(res.data);
  }, function () { /* offline: the banner stays as it was */ });
  if (!dealer) return table;
  return api("GET", "/tables/" + tableId + "/my-shift/").then(function (res) {
    if (res.status === 200) relieved(T, res.data);
  }, function () {});
}

function signIn(T, tableId, leave) {
  return api("POST", "/tables/" + tableId + "/shift/", leave ? { leave: true } : {}).then(function (res) {
    if (res.status === 200) {
      showMine(T, "");
      show(res.data);
      relieved(T, null);
      return;
    }
    var error = res.data && res.data.error;
    if (error && error.code === "dealing_elsewhere") {
      // Signed in at another table: stay there, unless the dealer chooses to leave it.
      var other = error.details && error.details.number;
      showMine(T, error.message, el("button", {
        type: "button", class: "primary", id: "leave-other",
        text: "Leave table " + other + " and deal here",
        onclick: function () { signIn(T, tableId, true); }
      }));
      return read(T, tableId, false);
    }
    return read(T, tableId, true);
  }, function () {});
}

/* Start (or keep) the signed-in dealer's shift at the table, then keep the banner current while
 * ``active()`` (the table's day is open). */
export function watchShift(tableId, me, active, T) {
  T = T || {};
  if (!active()) return Promise.resolve();
  var dealer = !!(me && me.role === "dealer");
  var start = dealer ? signIn(T, tableId, false) : read(T, tableId, false);
  var out = $("#logout");
  if (out && dealer) {
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
  window.setInterval(function () { if (active()) read(T, tableId, dealer); }, EVERY);
  return start;
}
