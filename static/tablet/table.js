/* Brag Event — the table page: its state made (state.js) and handed to every module's
 * functions, what the tablet kept drawn at once, then the server's table, the queue sent and the
 * table read again every 2 seconds. */
import { $, setNet, notice, whoText } from "./dom.js";
import { whoAmI, NetworkError } from "./api.js";
import { createTableState, hand, onChange } from "./state.js";
import { refresh } from "./server.js";
import { sendQueue } from "./queue.js";
import { render } from "./render.js";
import { watchWake } from "./wake.js";
import { keepMe, restoreKept, startEngine } from "./offline-glue.js";
import { watchShift } from "./shift.js";

// ---------------------------------------------------------------- start

function showMe(T) { if (T.me) $("#who").textContent = whoText(T.me); }

/* The table page: what the tablet kept is drawn at once (a reload with no network keeps
 * playing), then the server's table, then the queue is sent and the table read every 2 s. */
export function tablePage() {
  var T = createTableState(Number(document.body.getAttribute("data-table")));
  onChange(render);
  watchWake(T);
  startEngine(T);
  // The tests' window on the page.
  window.__bragOfflineLog = function () { var h = hand(T); return (h && h.actions) || []; };
  window.__bragQueue = function () { return T.queue; };

  restoreKept(T).then(whoAmI).then(function (me) {
    T.me = me;
    keepMe(me);
    return refresh(T).then(function () {
      // The dealer signs in to deal once the table is there (a day not open is left alone).
      watchShift(T.id, me, function () { return !T.stopped && !!T.table; });
    });
  }, function (err) {
    if (!(err instanceof NetworkError)) throw err;
    // No network: the table as last seen, the queue as kept, the engine from the tablet's copy.
    showMe(T);
    var when = T.keptAt ? " — the table as seen at " + new Date(T.keptAt).toTimeString().slice(0, 5) : "";
    setNet("Offline" + when + (T.queue.length ? " — " + T.queue.length + " queued" : ""), "offline");
    if (!T.table) notice("No network, and this tablet has not seen this table yet: reload when connected.", "error");
  }).then(function () {
    sendQueue(T);
    window.setInterval(function () {
      if (!T.stopped && !T.sending && !T.queue.length && !($("#dialog") && $("#dialog").open)) refresh(T);
    }, 2000);
    window.addEventListener("online", function () { sendQueue(T); });
  }).catch(function () { setNet("Offline", "offline"); });
}
