/* Brag Event — the rules engine in the tablet's browser (a module Web Worker, so the page never
 * freezes). Boots the pinned Pyodide from static/vendor/pyodide/, unpacks the project's own
 * engine package (/tablet/engine/<version>.zip, zipped from brag_event/engine) and answers the
 * page's questions through brag_event.engine.tablet.answer: JSON in, JSON out — the same Python
 * the server runs, never a JavaScript copy of the rules.
 *
 * Messages in:  {type: "boot", pyodide: <folder URL>, engine: <zip URL>, cache: <runtime cache>}
 *               {type: "ask", id, request: <JSON text>}
 *               {type: "resume"}   try a stopped download again now (the dealer's button)
 * Messages out: {type: "progress", stage, ms}   boot stages: "download", "pyodide", "engine", "ready"
 *               {type: "download", done, total, files, of, stopped: words or null, retry_ms}
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

const downloadedNow = new Set(); // kept by this boot's own download: not "from the cache"

self.fetch = async function (input, init) {
  const url = absolute(input);
  const hit = await kept(url);
  if (hit) { if (!downloadedNow.has(url)) fromCache += 1; return hit; }
  return fetchAndKeep(url, init);
};

/* The first visit's files, each downloaded whole into the runtime cache before Pyodide starts
 * (Pyodide itself then reads them from there and cannot be cut short by the network: a cut in
 * the middle of its own fetch left it half-started — "wasm instantiation failed!" and a boot
 * that never ended). A download cut by the network goes on from the byte it reached with a
 * Range request where the server answers one (206: nginx in production; Django's own static
 * serving, in development and the tests, does not, and the file is fetched whole once more);
 * it is tried again after 1, 2, 4 … 30 s, at once when the network is back (the worker's
 * "online" event) or when the dealer taps "Finish the download" (a "resume" message). Hand-written:
 * no library of the few we could vendor resumes a fetch into the Cache Storage. */
const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide-lock.json", "python_stdlib.zip", "pyodide.asm.wasm"];
const MAX_WAIT_MS = 30000;
let wake = null; // ends the current wait before its time
let progress = { done: 0, total: 0, files: 0, of: 0, stopped: null, retry_ms: 0 };

function pause(ms) {
  return new Promise(function (resolve) {
    const timer = setTimeout(done, ms);
    function done() { clearTimeout(timer); wake = null; resolve(); }
    wake = done;
  });
}
self.addEventListener("online", function () { if (wake) wake(); });

function report(change) {
  Object.assign(progress, change);
  // The engine's zip after Pyodide's start ("quiet"): said only if it stops.
  if (progress.quiet && !progress.stopped) return;
  self.postMessage(Object.assign({ type: "download" }, progress));
}

async function sizeOf(url) {
  try {
    const head = await network(url, { method: "HEAD", cache: "no-store" });
    return head.ok ? Number(head.headers.get("Content-Length")) || 0 : 0;
  } catch (err) {
    return 0;
  }
}

/* One file into the cache, whatever the network does meanwhile; resolves once it is kept. */
async function download(url, before) {
  let parts = [];
  let got = 0;
  let total = null;
  let type = null;
  let tries = 0;
  for (;;) {
    try {
      const resume = got > 0;
      // Marked, so that the service worker lets it through (templates/tablet/sw.js).
      const headers = { "X-Brag-Download": "1" };
      if (resume) headers.Range = "bytes=" + got + "-";
      const response = await network(url, { cache: "no-store", headers: headers });
      fetched += 1;
      const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get("Content-Range") || "");
      const encoded = !!response.headers.get("Content-Encoding");
      if (resume && response.status === 206 && range && Number(range[1]) === got && !encoded) {
        if (range[2] !== "*") total = Number(range[2]);
      } else if (response.status === 200) {
        // A whole answer (no ranges here, or a compressed one: its bytes are not the file's).
        parts = [];
        got = 0;
        const length = Number(response.headers.get("Content-Length"));
        total = length && !encoded ? length : null;
      } else {
        throw new Error(url.split("/").pop() + " answered " + response.status);
      }
      type = response.headers.get("Content-Type") || type;
      const reader = response.body.getReader();
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        parts.push(chunk.value);
        got += chunk.value.length;
        report({ done: before + got, stopped: null, retry_ms: 0 });
      }
      if (total !== null && got < total) throw new Error("the download was cut short");
      break;
    } catch (err) {
      tries += 1;
      const wait = Math.min(MAX_WAIT_MS, 1000 * Math.pow(2, Math.min(tries - 1, 5)));
      report({ done: before + got, stopped: String((err && err.message) || err), retry_ms: wait });
      await pause(wait);
    }
  }
  const cache = await self.caches.open(cacheName);
  const headers = { "Content-Type": type || "application/octet-stream", "Content-Length": String(got) };
  await cache.put(url, new Response(new Blob(parts, { type: headers["Content-Type"] }), { headers: headers }));
  downloadedNow.add(url);
  return got;
}

/* ``measure``: ask each file's size first (HEAD) so the status line can say "x of y MB"; the
 * engine's small zip (a Django view, not a static file) is not asked twice. */
async function downloadAll(urls, measure) {
  if (!cacheName || !self.caches) return; // no cache here: Pyodide fetches them itself
  const missing = [];
  for (const url of urls) {
    if (!(await kept(url))) missing.push(url);
  }
  if (!missing.length) return;
  const sizes = measure ? await Promise.all(missing.map(sizeOf)) : [];
  progress.quiet = !measure;
  let before = measure ? 0 : progress.done;
  report({ done: before, total: measure ? sizes.reduce(function (a, b) { return a + b; }, 0) : progress.total, files: 0, of: missing.length });
  for (let i = 0; i < missing.length; i++) {
    before += await download(missing[i], before);
    report({ done: before, files: i + 1 });
  }
}

async function importKept(url) {
  const response = await self.fetch(url);
  if (!response.ok) throw new Error(url + " answered " + response.status);
  const blob = URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" }));
  try { return await import(blob); } finally { URL.revokeObjectURL(blob); }
}

async function boot(config) {
  const t0 = now();
  cacheName = config.cache || null;
  const indexURL = absolute(config.pyodide);
  self.postMessage({ type: "progress", stage: "download", ms: 0 });
  await downloadAll(FILES.map(function (name) { return indexURL + name; }), true);
  self.postMessage({ type: "progress", stage: "pyodide", ms: now() - t0 });
  const { loadPyodide } = await importKept(indexURL + "pyodide.mjs");
  const asm = await importKept(indexURL + "pyodide.asm.mjs");
  // Pyodide's own failures (its messages, an abort) end the boot in words, never a boot left
  // "loading": with every file kept it has nothing left to wait for but the CPU.
  const py = await new Promise(function (resolve, reject) {
    const stalled = setTimeout(function () { reject(new Error("Pyodide did not start")); }, 180000);
    loadPyodide({
      indexURL: indexURL, fullStdLib: false, createPyodideModule: asm.default,
      stdout: function () {}, stderr: function (text) { console.warn("pyodide:", text); }
    }).then(function (py) { clearTimeout(stalled); resolve(py); }, function (err) { clearTimeout(stalled); reject(err); });
    self.addEventListener("unhandledrejection", function (event) {
      clearTimeout(stalled);
      reject(new Error("Pyodide failed: " + String((event.reason && event.reason.message) || event.reason)));
    }, { once: true });
  });
  const t1 = now();
  self.postMessage({ type: "progress", stage: "engine", ms: t1 - t0 });
  await downloadAll([absolute(config.engine)], false);
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
  if (msg.type === "resume") { if (wake) wake(); return; }
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
