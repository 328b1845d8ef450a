/* Brag Event — the page's side of the engine worker (engine-worker.js).
 *
 *   BragEngine.boot({worker, pyodide, engine, cache, onProgress, onDownload}) → Promise of the
 *     boot times (a failed boot rejects, and may be asked again: a new worker, the kept files
 *     reused); onDownload(state) hears the first visit's download (engine-worker.js)
 *   BragEngine.resume() a stopped download is tried again at once
 *   BragEngine.ask(request) → Promise of the answer (an object, or a list for a list)
 *
 * A request is what brag_event.engine.tablet.answer takes: {op: "hand", history, queued},
 * {op: "start", table, history?, queued?}, {op: "after", table, history, queued}. */
(function () {
  "use strict";

  var worker = null;
  var ready = null;
  var waiting = {};
  var next = 1;

  function absolute(url) { return new URL(url, window.location.href).href; }

  /* The worker's script as the page fetches it — through the service worker, so from the
   * tablet's copy when the network is gone — started from that text. Chromium fetches a
   * worker's own script past the service worker when offline (seen in headless Chromium), so
   * the script is not left to it. Without an answer, the script's URL (the browser's way). */
  function script(url) {
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error(String(r.status));
      return r.text();
    }).then(function (text) {
      return URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    }, function () { return url; });
  }

  /* A boot that failed (the network dropped while Pyodide was on its way): the worker is ended
   * — a half-started Python is not started twice — and the next boot starts a new one, which
   * finds in the cache the files the first one kept. */
  function failed(reject, message) {
    ready = null;
    if (worker) { worker.terminate(); worker = null; }
    Object.keys(waiting).forEach(function (id) { waiting[id].reject(new Error(message)); delete waiting[id]; });
    reject(new Error(message));
  }

  function boot(config) {
    if (ready) return ready;
    ready = script(config.worker).then(function (source) { return new Promise(function (resolve, reject) {
      worker = new Worker(source, { type: "module" });
      worker.onmessage = function (event) {
        var msg = event.data || {};
        if (msg.type === "progress" && config.onProgress) config.onProgress(msg.stage, msg.ms);
        else if (msg.type === "download") { if (config.onDownload) config.onDownload(msg); }
        else if (msg.type === "ready") { if (config.onProgress) config.onProgress("ready", msg.ms.total); resolve(msg.ms); }
        else if (msg.type === "failed") failed(reject, msg.message);
        else if (msg.type === "answer") {
          var done = waiting[msg.id];
          delete waiting[msg.id];
          if (!done) return;
          if (msg.error) done.reject(new Error(msg.error));
          else done.resolve(JSON.parse(msg.answer));
        }
      };
      worker.onerror = function (event) { failed(reject, event.message || "the engine worker failed"); };
      // Absolute: a worker started from a blob has no base to resolve a path against.
      worker.postMessage({ type: "boot", pyodide: absolute(config.pyodide), engine: absolute(config.engine), cache: config.cache || null });
    }); });
    return ready;
  }

  function ask(request) {
    if (!ready) return Promise.reject(new Error("the engine is not loaded"));
    return ready.then(function () {
      return new Promise(function (resolve, reject) {
        var id = next++;
        waiting[id] = { resolve: resolve, reject: reject };
        worker.postMessage({ type: "ask", id: id, request: JSON.stringify(request) });
      });
    });
  }

  function resume() {
    if (worker) worker.postMessage({ type: "resume" });
  }

  window.BragEngine = { boot: boot, ask: ask, resume: resume };
})();
