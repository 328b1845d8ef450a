/* Brag Event — the table page: its state made (state.js) and handed to every module's
 * functions, what the tablet kept drawn at once, then the server's table, the queue sent and the
 * table read again once what the tablet has of it is 2 seconds old. The offline engine and the
 * service worker start only once the table is drawn (or could not be read): on a slow first
 * visit their megabytes never stand between the dealer and the table. */
import { $, setNet, notice } from "./dom.js";
import { whoAmI, showWho, NetworkError } from "./api.js";
import { createTableState, hand, onChange } from "./state.js";
import { refresh, offlineText } from "./server.js";
import { sendQueue } from "./queue.js";
import { render } from "./render.js";
import { watchWake } from "./wake.js";
import { keepMe, restoreKept, startEngine, registerServiceWorker } from "./offline-glue.js";
import { watchShift } from "./shift.js";

// ---------------------------------------------------------------- start

// The table is read again once the tablet's copy is this old. An entry's answer brings the
// whole table (as its read would), so a dealer entering the hand sends no reads at all.
var POLL_MS = 2000;


/* Who is signed in, asked of the server; with no network, who the tablet kept (and asked
 * again on each round of the page until the server answers). */
function signIn(T) {
  return whoAmI().then(function (me) {
    T.me = me;
    T.signedIn = true;
    keepMe(me);
  });
}

/* The table page: what the tablet kept is drawn at once (a reload with no network keeps
 * playing), then the server's table, then the queue is sent and the table read every 2 s. */
export function tablePage() {
  var T = createTableState(Number(document.body.getAttribute("data-table")));
  onChange(render);
  watchWake(T);
  // The tests' window on the page.
  window.__bragOfflineLog = function () { var h = hand(T); return (h && h.actions) || []; };
  window.__bragQueue = function () { return T.queue; };
  window.__bragUsable = null; // when the table was first drawn from the server (ms since the navigation)

  var background = false;
  function startBackground() {
    if (background) return;
    background = true;
    startEngine(T);
    registerServiceWorker();
  }
  // The dealer signs in to deal once the table is there and the server knows who is signed in
  // (a day not open is left alone).
  var shiftWatched = false;
  function startShift() {
    if (shiftWatched || !T.signedIn || !T.table) return;
    shiftWatched = true;
    watchShift(T.id, T.me, function () { return !T.stopped && !!T.table; }, T);
  }

  restoreKept(T).then(function () { return signIn(T); }).then(function () {
    return refresh(T).then(function () {
      if (T.table && !T.fromStore) window.__bragUsable = performance.now();
      startShift();
    });
  }, function (err) {
    if (!(err instanceof NetworkError)) throw err;
    // No network: the table as last seen, the queue as kept, the engine from the tablet's copy.
    showWho(T.me);
    setNet(offlineText(T) + (T.queue.length ? " \u2014 " + T.queue.length + " queued" : ""), "offline");
    if (!T.table) notice("No network yet: the table appears as soon as the network is back.", "warn");
  }).then(function () {
    startBackground();
    sendQueue(T);
    window.setInterval(function () {
      if (!T.signedIn && !T.askingWho) {
        T.askingWho = true;
        signIn(T).then(function () { T.askingWho = false; startShift(); }, function () { T.askingWho = false; });
      }
    }, POLL_MS);
    window.setInterval(function () {
      if (Date.now() - Math.max(T.seenAt, T.polledAt) < POLL_MS) return;
      if (!T.stopped && !T.sending && !T.queue.length && !($("#dialog") && $("#dialog").open)) {
        T.polledAt = Date.now();
        var first = !T.table;
        refresh(T).then(function () {
          if (first && T.table) {
            notice("");
            startShift();
            if (window.__bragUsable === null) window.__bragUsable = performance.now();
          }
        });
      }
    }, POLL_MS / 4);
    window.addEventListener("online", function () { sendQueue(T); });
  }).catch(function () { startBackground(); setNet("Offline", "offline"); });
}
