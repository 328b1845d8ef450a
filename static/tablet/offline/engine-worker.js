/* Brag Event — the rules engine in the tablet's browser (a module Web Worker, so the page never
 * freezes). Boots the pinned Pyodide from static/vendor/pyodide/, unpacks the project's own
 * engine package (/tablet/engine/<version>.zip, zipped from brag_event/engine) and answers the
 * page's questions through brag_event.engine.tablet.answer: JSON in, JSON out — the same Python
 * the server runs, never a JavaScript copy of the rules.
 *
 * Messages in:  {type: "boot", pyodide: <folder URL>, engine: <zip URL>, cache: <runtime cache>}
 *               {type: "ask", id, request: <JSON text>}
 * Messages out: {type: "progress", stage, ms}   boot stages: "pyodide", "engine", "ready"
 *               {type: "ready", ms: {pyodide, engine, total, from_cache: files read from the cache}}
 *               {type: "answer", id, answer: <JSON text>, ms}
 *               {type: "failed", message} */
let answer = null;
let booting = null;

function now() { return performance.now(); }

/* Pyodide and the engine from the tablet's own copy first: the Cache Storage (the runtime
 * cache, named by the page: data-runtime-cache). A dedicated worker is not always under the
 * service worker's control (on a first visit the service worker is not active yet when this
 * worker starts; headless Chromium sends a worker's requests past it, to a network a dead zone
 * refuses), so this worker reads the cache itself, and what it has to fetch it keeps there
 * itself: the service worker does not fetch these files again (templates/tablet/sw.js), so each
 * crosses the network once. With no cache here (no secure origin), the network. */
const network = self.fetch.bind(self);
let fromCache = 0;
let fetched = 0;
let cacheName = null;

function absolute(input) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  return new URL(url, self.location.href).href;
}

async function kept(url) {
  if (!self.caches) return null;
  try {
    return (await self.caches.match(url, { ignoreSearch: true })) || null;
  } catch (err) {
    return null; // no cache here (an opaque origin): the network
  }
}

/* A file fetched from the network, kept in the runtime cache and read back from it (its one
 * download); where it cannot be kept, the network's answer as it is. */
async function fetchAndKeep(url, init) {
  const response = await network(url, init);
  fetched += 1;
  if (!response.ok || !cacheName || !self.caches || new URL(url).origin !== self.location.origin) return response;
  try {
    const cache = await self.caches.open(cacheName);
    await cache.put(url, response);
    return (await cache.match(url)) || network(url, init);
  } catch (err) {
    // The body went into a cache that refused it (storage full): the network once more.
    return network(url, init);
  }
}

self.fetch = async function (input, init) {
  const url = absolute(input);
  const hit = await kept(url);
  if (hit) { fromCache += 1; return hit; }
  return fetchAndKeep(url, init);
};

async function importKept(url) {
  const response = await self.fetch(url);
  if (!response.ok) throw new Error(url + " answered " + response.status);
  const blob = URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" }));
  try { return await import(blob); } finally { URL.revokeObjectURL(blob); }
}

async function boot(config) {
  const t0 = now();
  cacheName = config.cache || null;
  self.postMessage({ type: "progress", stage: "pyodide", ms: 0 });
  const indexURL = absolute(config.pyodide);
  const { loadPyodide } = await importKept(indexURL + "pyodide.mjs");
  const asm = await importKept(indexURL + "pyodide.asm.mjs");
  const py = await loadPyodide({ indexURL: indexURL, fullStdLib: false, createPyodideModule: asm.default });
  const t1 = now();
  self.postMessage({ type: "progress", stage: "engine", ms: t1 - t0 });
  const response = await self.fetch(config.engine);
  if (!response.ok) throw new Error("the engine could not be loaded (" + response.status + ")");
  py.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/brag" });
  py.runPython("import sys\nif '/brag' not in sys.path: sys.path.insert(0, '/brag')");
  answer = py.pyimport("brag_event.engine.tablet").answer;
  const t2 = now();
  const ms = { pyodide: t1 - t0, engine: t2 - t1, total: t2 - t0, from_cache: fromCache, fetched: fetched };
  self.postMessage({ type: "ready", ms: ms });
  return ms;
}

self.onmessage = function (event) {
  const msg = event.data || {};
  if (msg.type === "boot") {
    if (!booting) {
      booting = boot(msg).catch(function (err) {
        booting = null;
        self.postMessage({ type: "failed", message: String((err && err.message) || err) });
      });
    }
    return;
  }
  if (msg.type === "ask") {
    const start = now();
    Promise.resolve(booting).then(function () {
      if (!answer) throw new Error("the engine is not loaded");
      const text = answer(msg.request);
      self.postMessage({ type: "answer", id: msg.id, answer: text, ms: now() - start });
    }).catch(function (err) {
      self.postMessage({ type: "answer", id: msg.id, error: String((err && err.message) || err), ms: now() - start });
    });
  }
};
