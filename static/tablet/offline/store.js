/* Brag Event — the tablet's store in IndexedDB: the offline queue (each action with its
 * Idempotency-Key and expected_seq, in order), the last table the tablet saw, who is signed in,
 * and the start documents of the hands in play. IndexedDB, not localStorage: it survives a reload
 * or a restart of the browser as localStorage does, but it is not capped at ~5 MB per origin,
 * is not cleared with "site data" heuristics as eagerly, and is readable from a worker.
 *
 * Why hand-written, not a library: the tablet needs four calls on one object store (get, set,
 * del, keys). idb-keyval (npm) would do, but it would have to be pinned and vendored (no build
 * step, nothing fetched from the internet), and the classic scripts (offline.js, loaded before
 * the tablet's ES modules) read the store too; these forty lines are the whole wrapper. The
 * tablet's code writes through BragStore alone (static/tablet/offline-glue.js).
 *
 *   BragStore.get(key) → Promise of the value (undefined when absent)
 *   BragStore.set(key, value) → Promise, resolved once the write is committed
 *   BragStore.del(key) → Promise
 *   BragStore.keys(prefix) → Promise of the keys starting with prefix
 * Writes are queued in one transaction chain each, so they commit in the order made. */
(function () {
  "use strict";

  var DB = "brag-tablet";
  var STORE = "kv";
  var opened = null;

  function open() {
    if (opened) return opened;
    opened = new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore(STORE); };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { opened = null; reject(req.error); };
    });
    return opened;
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var req = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(req && req.result); };
        tx.onerror = tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  window.BragStore = {
    get: function (key) { return run("readonly", function (s) { return s.get(key); }); },
    set: function (key, value) { return run("readwrite", function (s) { return s.put(value, key); }); },
    del: function (key) { return run("readwrite", function (s) { return s.delete(key); }); },
    keys: function (prefix) {
      return run("readonly", function (s) { return s.getAllKeys(); }).then(function (all) {
        return (all || []).filter(function (k) { return String(k).indexOf(prefix || "") === 0; });
      });
    }
  };
})();
