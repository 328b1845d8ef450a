/* Brag Event — the table page's side of what the tablet keeps and computes without the network:
 * the queue and the last table in IndexedDB (offline/store.js, window.BragStore), the engine in
 * the browser (offline/offline.js, window.BragOffline), and the service worker (/tablet/sw.js).
 * Those three are classic scripts loaded before the modules; this module is their one door. */
import { $, notice } from "./dom.js";
import { changed } from "./state.js";

function store() { return window.BragStore; }
function queueKey(T) { return "queue-table-" + T.id; }
function tableKey(T) { return "table-" + T.id; }
function projectedKey(T) { return "projected-table-" + T.id; }
function oldQueueKey(T) { return "brag-queue-table-" + T.id; } // before IndexedDB: moved over once

/* The queue is written to IndexedDB on every change; the writes commit in order. */
export function saveQueue(T) {
  var copy = T.queue.slice();
  T.saving = store().set(queueKey(T), copy).catch(function () {
    notice("This tablet cannot store the queue: do not reload the page until it is sent.", "error");
  });
  return T.saving;
}

/* The table as last seen, and when: on every answer of the server, a 304 ("nothing changed")
 * too, so that "seen at" stays true. */
export function saveTable(T) {
  if (!T.table) return;
  T.keptAt = Date.now();
  store().set(tableKey(T), { table: T.table, etag: T.etag, at: T.keptAt }).catch(function () {});
}

/* Who is signed in, kept for a reload without the network. */
export function keepMe(me) {
  store().set("me", me).catch(function () {});
}

/* Ask the engine in the browser for the table after the queued entries; the action bar is
 * then drawn from its legal actions, so a table keeps playing without the network. */
export function reproject(T, tapped, item) {
  if (!window.BragOffline || !T.queue.length || !T.table) { T.projected = null; return; }
  if (!engineReady()) {
    // Before the engine boots (a reload with no network): the tablet's own last computed
    // table, kept with the queue it was computed for — never the server's older hand.
    T.projected = keptFits(T, T.keptProjection) ? Object.assign({}, T.keptProjection.projected, { kept: true }) : null;
    return;
  }
  var asked = (T.asked = (T.asked || 0) + 1);
  window.BragOffline.project(T.table, T.queue).then(function (p) {
    if (asked !== T.asked) return; // a newer question is on its way
    if (p && p.error) notice("The tablet's engine cannot compute the queued entries: " + p.error.message, "error");
    T.projected = p && !p.error ? p : null;
    if (item && T.projected) { item.expect = T.projected.hand; saveQueue(T); }
    if (T.projected) keepProjection(T);
    changed(T);
    timed(tapped);
  });
}

/* The engine's last answer, kept (IndexedDB) with what it was computed from: the queue's keys
 * and the server's table (its ETag). A reload draws it at once while the engine boots. */
function keepProjection(T) {
  T.keptProjection = {
    keys: T.queue.map(function (q) { return q.key; }),
    etag: T.etag,
    projected: { table: T.projected.table, hand: T.projected.hand }
  };
  store().set(projectedKey(T), T.keptProjection).catch(function () {});
}

function keptFits(T, kept) {
  if (!kept || !kept.projected || kept.etag !== T.etag || kept.keys.length !== T.queue.length) return false;
  return T.queue.every(function (q, i) { return q.key === kept.keys[i]; });
}

/* Boot the engine in the browser; once it is ready, the queue (if any) is computed again.
 * (A boot cut short by the network is tried again by itself: offline/offline.js.) */
export function startEngine(T) {
  if (window.BragOffline) window.BragOffline.start(function () { reproject(T); showKept(); changed(T); });
}

/* What the offline copy holds, for support and the tests (#sw-status, not shown): "kept" once the
 * service worker keeps the pages and scripts AND the engine worker has kept Pyodide and the
 * engine (it keeps each file as it fetches it; engine-worker.js). */
var shellKept = false;
function showKept() {
  var line = $("#sw-status");
  if (line && shellKept && engineReady()) line.textContent = "Kept on this tablet for offline use.";
}

/* The server's hand, kept for the engine (its start document: one read per hand). */
export function rememberHand(h, start) {
  if (window.BragOffline) window.BragOffline.remember(h, start);
}

/* Words for how the server's hand differs from what the tablet computed, or "". */
export function differs(expected, got) {
  return window.BragOffline ? window.BragOffline.differs(expected, got) : "";
}

/* The tablet's engine's view of a hand, in words, for a refusal ("The tablet had: …"). */
export function describe(h) {
  return window.BragOffline ? window.BragOffline.describe(h) : "";
}

/* A hand started on the tablet got its id from the server. */
export function rename(local, id) {
  if (window.BragOffline) window.BragOffline.rename(local, id);
}

/* Whether the tablet can deal and play a hand with no network. */
export function engineReady() {
  return !!(window.BragOffline && window.BragOffline.isReady());
}

/* The time from a tap to the screen drawn from the engine's answer (the tests' figure). */
function timed(tapped) {
  if (tapped) window.BragOffline.timings.taps.push(performance.now() - tapped);
}

/* What the tablet kept (IndexedDB): the queue, the table as last seen, who is signed in and
 * the hands' start documents. A reload with no network draws the table from them at once. */
export function restoreKept(T) {
  return Promise.all([
    store().get(queueKey(T)),
    store().get(tableKey(T)),
    store().get("me"),
    window.BragOffline ? window.BragOffline.restore() : null,
    store().get(projectedKey(T))
  ]).then(function (got) {
    T.keptProjection = got[4] || null;
    var queue = got[0];
    if (!queue) {
      try { queue = JSON.parse(localStorage.getItem(oldQueueKey(T)) || "[]"); } catch (e) { queue = []; }
      T.queue = queue;
      if (queue.length) saveQueue(T);
      localStorage.removeItem(oldQueueKey(T));
    }
    T.queue = queue || [];
    if (got[1] && got[1].table && !T.table) { T.table = got[1].table; T.etag = got[1].etag; T.keptAt = got[1].at; T.fromStore = true; }
    T.me = got[2] || null;
    if (T.table) { reproject(T); changed(T); }
  }, function () {
    notice("This tablet cannot read what it stored (IndexedDB): entries are not kept across a reload.", "error");
  });
}

/* The service worker (/tablet/sw.js) keeps the pages, scripts, Pyodide and the engine. It
 * needs a secure origin (HTTPS, or localhost): elsewhere the tablet still works online. The
 * browser checks the worker's script at most once a day (updateViaCache "all": its HTTP cache
 * of one day); a new release brings new cache names. */
/* Register the service worker and wait until it is active: resolves with its registration;
 * rejects when the script cannot be fetched or its install is cut short (the network dropped
 * while it kept the shell — the files it kept already stay kept). */
function registerOnce() {
  return navigator.serviceWorker.register("/tablet/sw.js", { scope: "/tablet/", updateViaCache: "all" }).then(function (reg) {
    var w = reg.installing || reg.waiting;
    if (reg.active || !w) return reg;
    return new Promise(function (resolve, reject) {
      w.addEventListener("statechange", function () {
        if (w.state === "activated") resolve(reg);
        else if (w.state === "redundant") reject(new Error("the service worker's install was cut short"));
      });
    });
  });
}

var swTries = 0;
var swRetry = null;
// Whether the service worker saw this page's own request (else it is asked to keep the page).
var controlledAtLoad = !!(navigator.serviceWorker && navigator.serviceWorker.controller);

export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  var line = $("#sw-status"); // not shown: the dealer sees only "offline entry ready" (offline.js)
  if (!swTries && !swRetry) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      var msg = event.data || {};
      if (msg.type !== "sw-progress" || !line) return;
      if (msg.done >= msg.total) { shellKept = true; showKept(); }
      else if (!shellKept) line.textContent = "Keeping for offline use: " + msg.done + " of " + msg.total + " files\u2026";
    });
    navigator.serviceWorker.addEventListener("controllerchange", function () { shellKept = true; showKept(); });
    window.addEventListener("online", function () {
      if (swRetry) { clearTimeout(swRetry); swRetry = null; registerServiceWorker(); }
    });
  }
  registerOnce().then(function (reg) {
    shellKept = true;
    showKept();
    // The first visit is not seen by the worker: ask it to keep this page for next time.
    if (!controlledAtLoad && reg.active) reg.active.postMessage({ type: "keep-page", url: window.location.pathname });
  }, function (err) {
    // Tried again by itself (2, 4, 8 … up to 60 s, or at once when the network is back).
    swTries += 1;
    if (line) line.textContent = "Offline copy not kept yet (" + (err && err.message || err) + "): trying again.";
    swRetry = setTimeout(function () { swRetry = null; registerServiceWorker(); }, Math.min(60000, 2000 * Math.pow(2, Math.min(swTries - 1, 5))));
  });
}
