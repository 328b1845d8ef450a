/* Brag Event — the table page's state: one plain object, made here, handed to every function
 * that reads or changes it (render(T), sendQueue(T), …): no module keeps a copy of its own.
 *
 * Who writes which field:
 *   table.js        table, etag, me, quiet, stopped, fromStore, keptAt (the server's side)
 *   queue.js        queue, sending, retry, lastEntry, saving (through offline-glue.saveQueue)
 *   offline-glue.js projected, asked (the tablet's engine's answer to the queue)
 *   render.js       picked, betAmount, betText, betFor (what the dealer is choosing)
 *   wake.js         wakeLock
 * Everything else only reads it (floor.js too: BragFloor.render(T, api)). */

export function createTableState(id) {
  return {
    id: id,
    table: null, // the table as the server last answered (or as kept on the tablet)
    etag: null, // the ETag of the last table read: the version the screen shows
    me: null,
    players: [],
    queue: [], // the entries not sent yet, in order (kept in IndexedDB: offline-glue.saveQueue)
    saving: null, // the last write of the queue to IndexedDB (a Promise)
    sending: false, // the queue's head is on its way to the server
    retry: null, // the timer of the next try to send
    projected: null, // {table, hand} the tablet's engine computed after the queue, or null
    asked: 0, // how many times the engine was asked: a late answer to an older question is dropped
    picked: [], // the showdown's cards picked so far
    betAmount: null,
    betText: null, // what the dealer typed, kept as typed (even out of range) across redraws
    betFor: null, // the hand and seat the amount was chosen for: a new player starts afresh
    lastEntry: null, // this tablet's last entry the server took: {hand, seq, label}
    quiet: false, // a refresh after this tablet's own write: no "moved on from another device"
    stopped: false, // the day is not open: nothing to poll
    fromStore: false, // the table drawn is the one kept on the tablet, not yet the server's
    keptAt: null, // when the kept table was seen
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
