/* Brag Event — the dealer's tablet's service worker (served by brag_event.tablet.views at
 * /tablet/sw.js, so that it controls the tablet's pages).
 *
 * A tablet that reloads or restarts in a dead zone still opens its table: this worker keeps
 *   - the shell: the tablet's scripts, styles and icons (cache "brag-shell-<hash of their content>");
 *   - the runtime: Pyodide's pinned files and the engine's zip (cache "brag-runtime-<Pyodide's
 *     version>-<hash of Pyodide's integrity and the engine's version>"): fetched once, used from
 *     the cache ever after, fetched again only when the version changes. They are NOT fetched
 *     at install: the table page's engine worker (static/tablet/offline/engine-worker.js) fetches
 *     them as it boots and keeps each one in this cache, and requests that come through here
 *     are kept here too (one download in flight per file) — so each file crosses the network
 *     once on a first visit, not once for the page and once for this worker. At install, only
 *     the files an older runtime cache of the same Pyodide holds are copied over;
 *   - the pages: /tablet/ and each table page as it was last opened (network first; the cached
 *     copy when the network fails or takes more than a few seconds).
 * The API (/api/) is never cached here: the tablet keeps the last table it saw, and its queue, in
 * IndexedDB (static/tablet/offline/store.js). The browser fetches this script again at most once
 * a day (Cache-Control: max-age=86400, registered with updateViaCache "all"): a new release brings
 * new cache names, and the old caches are removed once the new ones are full.
 *
 * Progress while filling the caches is posted to the pages: {type: "sw-progress", done, total}. */
"use strict";

var CONFIG = {{ config|safe }};
var PAGES = "brag-pages";
var KEEP = [CONFIG.shell, CONFIG.runtime, PAGES];
var PAGE_WAIT_MS = 4000;

function tell(message) {
  return self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (all) {
    all.forEach(function (client) { client.postMessage(message); });
  });
}

/* A file kept by an older cache of the same kind, when its content is known to be the same:
 * Pyodide's files under the same Pyodide version (a new engine alone does not fetch Pyodide's
 * ten megabytes again). */
function kept(url, prefix) {
  if (!prefix) return Promise.resolve(null);
  return caches.keys().then(function (names) {
    var same = names.filter(function (n) { return n.indexOf(prefix) === 0; });
    return same.reduce(function (found, n) {
      return found.then(function (f) { return f || caches.open(n).then(function (c) { return c.match(url); }); });
    }, Promise.resolve(null));
  });
}

/* Fill a cache with the files it lacks, one at a time (a loaded tablet, a slow hall network),
 * saying how far it has got. */
function fill(name, urls, counter, prefix) {
  return caches.open(name).then(function (cache) {
    function one(url) {
      return cache.match(url).then(function (found) {
        if (found) return null; // kept already (an install that was cut short)
        return kept(url, prefix).then(function (old) {
          if (old) return cache.put(url, old);
          return fetch(url, { cache: "no-store" }).then(function (response) {
            if (!response.ok) throw new Error(url + " answered " + response.status);
            return cache.put(url, response);
          });
        });
      }).then(function () {
        counter.done += 1;
        return tell({ type: "sw-progress", done: counter.done, total: counter.total });
      });
    }
    return urls.reduce(function (done, url) { return done.then(function () { return one(url); }); }, Promise.resolve());
  });
}

/* The runtime's files an older cache of the same Pyodide already holds, copied over (no
 * network: the rest is fetched once, by whoever asks first — see the header). */
function reuse() {
  return caches.open(CONFIG.runtime).then(function (cache) {
    return Promise.all(CONFIG.runtime_files.map(function (url) {
      return cache.match(url).then(function (found) {
        if (found) return null;
        return kept(url, CONFIG.runtime_reuse).then(function (old) { return old ? cache.put(url, old) : null; });
      });
    }));
  });
}

self.addEventListener("install", function (event) {
  var counter = { done: 0, total: CONFIG.shell_files.length + CONFIG.pages.length };
  event.waitUntil(
    fill(CONFIG.shell, CONFIG.shell_files, counter, null)
      .then(reuse)
      .then(function () { return fill(PAGES, CONFIG.pages, counter, null); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return KEEP.indexOf(n) < 0; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

/* A page asks for itself to be kept (the first visit to a table happens before this worker
 * controls the page, so its navigation was not seen here). */
self.addEventListener("message", function (event) {
  var msg = event.data || {};
  if (msg.type === "keep-page" && typeof msg.url === "string") {
    var url = new URL(msg.url, self.location.origin);
    if (url.origin !== self.location.origin || url.pathname.indexOf("/tablet/") !== 0) return;
    event.waitUntil(
      fetch(url.pathname, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
        if (!response.ok) return null;
        return caches.open(PAGES).then(function (cache) { return cache.put(url.pathname, response); });
      }).then(function () {
        if (event.source) event.source.postMessage({ type: "sw-kept", url: url.pathname });
      }, function () { /* offline: kept on the next visit */ })
    );
  }
});

function fromCache(request) {
  return caches.match(request, { ignoreSearch: true });
}

/* Pages: the network's copy when it answers in time (kept for next time), else the last kept. */
function page(request) {
  var path = new URL(request.url).pathname;
  var network = fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { return cache.put(path, copy); });
    }
    return response;
  });
  var timer;
  var late = new Promise(function (resolve) { timer = setTimeout(resolve, PAGE_WAIT_MS); });
  return Promise.race([network.then(function (r) { clearTimeout(timer); return r; }), late.then(function () { return null; })])
    .catch(function () { return null; })
    .then(function (response) {
      if (response) return response;
      return caches.open(PAGES).then(function (cache) { return cache.match(path); }).then(function (kept) {
        if (kept) return kept;
        return network.catch(function () {
          return new Response("<!DOCTYPE html><title>Offline</title><p>No network, and this page was never opened on this tablet.</p>",
            { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
        });
      });
    });
}

/* A runtime file (Pyodide's, the engine's zip) not kept yet: fetched once, kept in the runtime
 * cache and answered from there; a second request while it is on its way waits for the same
 * download (the engine worker and a page may ask together). */
var inFlight = {};
function runtimeFile(path) {
  if (!inFlight[path]) {
    inFlight[path] = fetch(path, { cache: "no-store" }).then(function (response) {
      if (!response.ok) return response;
      return caches.open(CONFIG.runtime).then(function (cache) {
        return cache.put(path, response).then(function () { return cache.match(path); });
      });
    }).then(function (response) {
      delete inFlight[path];
      return response;
    }, function (err) {
      delete inFlight[path];
      throw err;
    });
  }
  // Each caller gets a body of its own.
  return inFlight[path].then(function (response) { return response.clone(); });
}

/* Scripts, styles, Pyodide and the engine: the cache first (their names change with their
 * content, or their cache's name does), the network for anything not kept yet. */
function asset(request) {
  return fromCache(request).then(function (found) {
    if (found) return found;
    var path = new URL(request.url).pathname;
    if (CONFIG.runtime_files.indexOf(path) >= 0) return runtimeFile(path);
    return fetch(request);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  // The engine worker's own downloads (engine-worker.js: marked, and its resumed Range
  // requests) go to the network as they are: the worker keeps each whole file itself once it
  // has every byte, and a cut loses only what was on its way.
  if (request.headers.has("range") || request.headers.has("x-brag-download")) return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname.indexOf("/tablet/") === 0) {
    event.respondWith(page(request));
    return;
  }
  if (url.pathname.indexOf(CONFIG.static) === 0 || url.pathname.indexOf(CONFIG.engine) === 0) {
    event.respondWith(asset(request));
  }
  // Everything else (the API above all) goes to the network as it is.
});
