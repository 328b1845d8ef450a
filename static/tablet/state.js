/* Brag Event — the table page's state: one plain object, made here, handed to every function
 * that reads or changes it (render(T), sendQueue(T), …): no module keeps a copy of its own.
 *
 * Who writes which field:
 *   server.js       table, etag, quiet, stopped, fromStore (the server's side)
 *   table.js        me, signedIn, askingWho (offline-glue.restoreKept: queue, table, etag, me,
 *                   keptAt, fromStore; server.js keptAt on every answer, a 304 too)
 *   queue.js        queue, sending, retry, lastEntry (dialogs.js clears it once taken back),
 *                   saving (through offline-glue.saveQueue)
 *   offline-glue.js projected, asked, keptProjection (the tablet's engine's answer to the
 *                   queue, and its copy kept in IndexedDB for a reload before the engine
 *                   boots; queue.js drops it when the server's answer differs)
 *   render.js       picked, betAmount, betText, betFor (what the dealer is choosing; queue.js
 *                   clears the cards picked once entered)
 *   wake.js         wakeLock
 *   shift.js        relieved (the words: this tablet's dealer was relieved at the table)
 * Everything else only reads it (floor.js too: BragFloor.render(T, api)).
 *
 * A module that changed what the screen shows calls changed(T): the page (table.js) watches
 * with render.js's render. So the modules import one another one way only (dom, api, state →
 * wake, offline-glue, shift → server → queue, dialogs → render → table → main), which the hashed static
 * names of a release need: a module's name holds the hash of the names it imports. */

export function createTableState(id) {
  return {
    id: id,
    table: null, // the table as the server last answered (or as kept on the tablet)
    etag: null, // the ETag of the last table read: the version the screen shows
    me: null,
    signedIn: false, // the server said who is signed in (not only the tablet's kept copy)
    askingWho: false,
    players: [],
    queue: [], // the entries not sent yet, in order (kept in IndexedDB: offline-glue.saveQueue)
    saving: null, // the last write of the queue to IndexedDB (a Promise)
    sending: false, // the queue's head is on its way to the server
    retry: null, // the timer of the next try to send
    projected: null, // {table, hand} the tablet's engine computed after the queue, or null ({…, kept: true}: its copy from IndexedDB, the engine not booted yet)
    keptProjection: null, // {keys, etag, projected}: the last one computed, as kept in IndexedDB
    asked: 0, // how many times the engine was asked: a late answer to an older question is dropped
    picked: [], // the showdown's cards picked so far
    betAmount: null,
    betText: null, // what the dealer typed, kept as typed (even out of range) across redraws
    betFor: null, // the hand and seat the amount was chosen for: a new player starts afresh
    lastEntry: null, // this tablet's last entry the server took: {hand, seq, label}
    quiet: false, // a refresh after this tablet's own write: no "moved on from another device"
    stopped: false, // the day is not open: nothing to poll
    relieved: null, // the dealer signed in here was relieved at this table: no next hand from them
    fromStore: false, // the table drawn is the one kept on the tablet, not yet the server's
    keptAt: null, // when the kept table was seen
    seenAt: 0, // when the server last gave the whole table (a read, or an entry's answer): the poll waits POLL_MS after it
    polledAt: 0, // when the last poll was sent (answered or not): one every POLL_MS at most
    wakeLock: null
  };
}

/* The table to draw: with entries queued, the table and hand the tablet's own engine
 * computed from the server's last state and the queue (offline/offline.js). */
export function view(T) {
  var p = T.projected;
  if (p && T.queue.length) return p.table;
  return T.table;
}

/* The hand to draw (view's). */
export function hand(T) { var t = view(T); return t && t.hand; }

export function isSupervisor(T) { return T.me && (T.me.role === "supervisor" || T.me.role === "organiser"); }

var watchers = [];

/* Call fn(T) each time the state changed in a way the screen shows. */
export function onChange(fn) { watchers.push(fn); }

/* The state changed: each watcher is called at once (the screen is drawn again). */
export function changed(T) { watchers.forEach(function (fn) { fn(T); }); }
