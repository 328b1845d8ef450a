/* Brag Event — the table as the server has it: read (with its ETag), a hand's answer applied,
 * the writes between hands, and the day not open. */
import { $, el, clear, newKey, setNet, notice, hhmm } from "./dom.js";
import { api, errorOf, toLogin } from "./api.js";
import { hand, changed } from "./state.js";
import { releaseWake } from "./wake.js";
import { saveTable, rememberHand, reproject } from "./offline-glue.js";

/* The table as the server has it. The request names the version this screen was drawn
 * from (If-None-Match: its ETag); 304 means nothing changed, and nothing is re-drawn. A
 * screen changed by an action's answer still asks with that ETag: the action bumped the
 * version, so the answer is the whole table again. */
export function refresh(T) {
  return api("GET", "/tables/" + T.id + "/", undefined, undefined, T.etag).then(function (res) {
    if (res.status === 401) { toLogin(); return; }
    if (res.status === 304) { T.seenAt = Date.now(); T.fromStore = false; saveTable(T); setNet(onlineText(T), ""); return; }
    var refused = res.status !== 200 ? errorOf(res) : null;
    if (refused && /^day_/.test(refused.code)) { dayNotOpen(T, refused); return; }
    if (refused) { if (!T.relieved) notice(refused.message, "error"); return; }  // relieved: shift.js says why
    var before = hand(T);
    var after = res.data.hand;
    // A read sent before an action whose answer is already drawn can arrive after it: an
    // older state never replaces a newer one (the next refresh brings the table again).
    if (before && after && (after.id < before.id || (after.id === before.id && after.next_seq < before.next_seq))) return;
    T.etag = res.etag;
    T.seenAt = Date.now();
    // (Not for the table kept on the tablet and drawn at a reload: it is only a placeholder
    // until the server answers; a queued entry it made stale is refused and said so.)
    var kept = T.fromStore;
    T.fromStore = false;
    if (before && after && before.id === after.id && after.next_seq > before.next_seq && !T.queue.length && !T.sending && !T.quiet && !kept) {
      notice("The hand moved on from another device; the screen shows it now.", "info");
    }
    T.table = res.data;
    saveTable(T);
    rememberHand(res.data.hand);
    if (T.queue.length) reproject(T);
    setNet(onlineText(T), "");
    changed(T);
  }, function () { setNet(offlineText(T), "offline"); });
}

/* "table seen at HH:MM": the time of the server's last answer (a 304 too), in the
 * event's time zone; "" before the first. */
export function seenAt(T) {
  var zone = T.table && T.table.event ? T.table.event.time_zone : null;
  return T.keptAt ? "table seen at " + hhmm(T.keptAt, zone) : "";
}

/* The status line while the server answers. */
export function onlineText(T) {
  return "Online" + (T.keptAt ? " \u2014 " + seenAt(T) : "");
}

/* "Offline", with when the table on the screen was last seen at the server. */
export function offlineText(T) {
  return "Offline" + (T.keptAt ? " \u2014 " + seenAt(T) : "");
}

/* A hand's answer drawn. ``fresh``: the answer brought the whole table too (its stacks
 * included), so nothing needs reading again. */
export function applyHand(T, h, fresh) {
  if (!h) return;
  T.table.hand = h;
  saveTable(T);
  rememberHand(h);
  reproject(T);
  changed(T);
  // A settled hand moved money back to the stacks: redraw the seats from the table.
  if (h.status !== "in_progress" && !T.queue.length && !fresh) refresh(T);
}

// ---------------------------------------------------------------- writes between hands

/* A write between hands (or an undo). Resolves with "" when it was done, else with the
 * reason in words — shown as a notice, or by the dialog that asked (``inDialog``). */
export function write(T, path, body, said, inDialog) {
  return api("POST", path, body, newKey()).then(function (res) {
    if (res.status === 200 || res.status === 201) {
      notice("");
      T.quiet = true;
      return refresh(T).then(function () {
        T.quiet = false;
        if (said) notice(said, "info");
        return "";
      });
    }
    if (res.status === 401) { toLogin(); return ""; }
    var reason = errorOf(res).message;
    if (!inDialog) notice(reason, "error");
    return reason;
  }, function () {
    var reason = "No network: nothing was changed. Try again.";
    if (!inDialog) notice(reason, "error");
    return reason;
  });
}

/* The day of this table is not open (not yet, closing or closed): say so in words and stop
 * asking for the table; a day not open yet is asked about again now and then. */
export function dayNotOpen(T, err) {
  T.stopped = true;
  T.table = null;
  releaseWake(T);
  ["#bar", "#showdown", "#result", "#next", "#between"].forEach(function (sel) { var n = $(sel); if (n) n.hidden = true; });
  clear($("#seats"));
  clear($("#centre"));
  var d = err.details || {};
  $("#title").textContent = "Table " + (d.table || "") + (d.day ? " · day " + d.day : "");
  var box = $("#day-state");
  clear(box);
  box.hidden = false;
  $(".layout").hidden = true; // an empty table says nothing: the day's state is the page
  $("#loading").hidden = true;
  box.appendChild(el("p", { class: "muted", text: "Table " + (d.table || "") + (d.day ? ", day " + d.day : "") }));
  box.appendChild(el("h2", { text: err.message }));
  if (d.status_text) box.appendChild(el("p", { text: d.status_text }));
  box.appendChild(el("p", null, el("a", { href: "/tablet/", text: "Your tables today" })));
  setNet("", "");
  if (d.status === "scheduled") window.setTimeout(function () { T.stopped = false; refresh(T); }, 30000);
}
