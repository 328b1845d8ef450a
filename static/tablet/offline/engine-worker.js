/* Brag Event — the rules engine in the tablet's browser (a module Web Worker, so the page never
 * freezes). Boots the pinned Pyodide from static/vendor/pyodide/, unpacks the project's own
 * engine package (/tablet/engine/<version>.zip, zipped from brag_event/engine) and answers the
 * page's questions through brag_event.engine.tablet.answer: JSON in, JSON out — the same Python
 * the server runs, never a JavaScript copy of the rules.
 *
 * Messages in:  {type: "boot", pyodide: <folder URL>, engine: <zip URL>}
 *               {type: "ask", id, request: <JSON text>}
 * Messages out: {type: "progress", stage, ms}   boot stages: "pyodide", "engine", "ready"
 *               {type: "ready", ms: {pyodide, engine, total, from_cache: files read from the cache}}
 *               {type: "answer", id, answer: <JSON text>, ms}
 *               {type: "failed", message} */
let answer = null;
let booting = null;

function now() { return performance.now(); }

/* Pyodide and the engine from the tablet's own copy first: the Cache Storage that the service
 * worker (/tablet/sw.js) filled. A dedicated worker is not always under the service worker's
 * control (headless Chromium sends its requests to the network, which a dead zone refuses), so
 * the worker reads the cache itself: its fetches, and its two module scripts, imported from the
 * cached text. With no copy kept (no service worker: not a secure origin), the network. */
const network = self.fetch.bind(self);
let fromCache = 0;

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

self.fetch = async function (input, init) {
  const hit = await kept(absolute(input));
  if (hit) { fromCache += 1; return hit; }
  return network(input, init);
};

async function importKept(url) {
  const hit = await kept(absolute(url));
  if (!hit) return import(url);
  fromCache += 1;
  const blob = URL.createObjectURL(new Blob([await hit.text()], { type: "text/javascript" }));
  try { return await import(blob); } finally { URL.revokeObjectURL(blob); }
}

async function boot(config) {
  const t0 = now();
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
  const ms = { pyodide: t1 - t0, engine: t2 - t1, total: t2 - t0, from_cache: fromCache };
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
