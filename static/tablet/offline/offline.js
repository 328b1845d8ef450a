/* Brag Event — the tablet keeps playing when the network drops (issue 21).
 *
 * While actions wait in the queue, the hand the tablet shows is the engine's own answer — the
 * project's brag_event/engine running in Pyodide (engine-worker.js) — rebuilt from the hand's
 * brag-hh/1 start, the server's log as last seen and the queued actions. So the action bar, the
 * stake, the pots and the result come from the same Python the server runs. When the queue
 * drains, each answer of the server is compared with what the tablet computed; a difference
 * stops the queue and is shown in words (queue.js).
 *
 * Hands started on the tablet while offline are dealt by the engine too (op "start": antes, the
 * button passed on, the carried pot, the shuffle reminder), named locally ("L…") until the
 * server answers the queued start with the hand's id.
 *
 *   BragOffline.start(onReady)     boot the engine worker (its state in #engine-status)
 *   BragOffline.restore()          → Promise: the start documents kept in IndexedDB
 *   BragOffline.remember(hand, start) keep the hand's start document (given, or one read)
 *   BragOffline.project(table, queue) → Promise of {table, hand} after the queue, null, or {error}
 *   BragOffline.rename(local, id)  a hand started offline got its id from the server
 *   BragOffline.differs(expected, got) → words for what differs, or ""
 */
(function () {
  "use strict";

  var starts = {}; // hand id -> its brag-hh/1 start (no actions, no cards)
  var loading = {};
  var ready = false;
  var timings = (window.__bragOffline = { boot: null, taps: [], failures: [] });

  function body() { return document.body; }

  /* The engine's state in a dealer's words (#engine-status, in the header): whether entries
   * can go on without the network. dom.js (setNet) shows it only when it matters — the network is
   * gone or entries wait to be sent. */
  function status(state, text) {
    var box = document.getElementById("engine-status");
    if (!box) return;
    box.textContent = text;
    box.setAttribute("data-state", state);
    // Until offline entry is ready the line stays (the first visit's download is the dealer's
    // to know about); once ready, it is said only while the network is gone (dom.js setNet).
    var net = document.getElementById("net");
    box.hidden = !text || (state === "ready" && !(net && /offline/.test(net.className)));
    var finish = document.getElementById("engine-finish");
    if (finish) finish.hidden = state !== "failed";
  }

  function mb(bytes) { return (bytes / 1048576).toFixed(1); }

  /* The first visit's download in words (engine-worker.js reports it): how far, and when it
   * stopped, why and when it is tried again — "Finish the download" tries at once. */
  function downloading(d) {
    var far = d.total ? mb(d.done) + " of " + mb(d.total) + " MB" : mb(d.done) + " MB";
    if (d.stopped) {
      status("failed", "Offline entry: stopped at " + far + ", tries again in " + Math.max(1, Math.round(d.retry_ms / 1000)) + " s");
      // A stopped download is a failure of the engine's loading too (the tests' witness).
      timings.failures.push("download stopped: " + String(d.stopped));
      if (window.console) console.warn("offline download:", d.stopped);
    } else {
      status("loading", "Offline entry: " + far);
    }
  }

  /* The one button: a stopped download tried again now, or a failed boot started again now. */
  function finishNow() {
    if (ready) return;
    if (booting) { window.BragEngine.resume(); return; }
    if (retry) { clearTimeout(retry); retry = null; }
    start(lastOnReady);
  }
  var lastOnReady = null;

  /* Boot the engine; a boot that fails (the network dropped before Pyodide and the engine were
   * all on the tablet) is tried again by itself, after 2, 4, 8 … up to 60 s, and at once when the
   * browser says the network is back — never a reload. The files already kept are not fetched
   * again (engine-worker.js). */
  var tries = 0;
  var retry = null;
  var booting = false;

  function start(onReady) {
    if (!window.BragEngine || !body().getAttribute("data-engine") || ready || booting) return;
    lastOnReady = onReady;
    var finish = document.getElementById("engine-finish");
    if (finish && !finish.onclick) finish.onclick = finishNow;
    var t0 = performance.now();
    booting = true;
    if (retry) { clearTimeout(retry); retry = null; }
    status("loading", "Offline entry not ready yet");
    window.BragEngine.boot({
      worker: body().getAttribute("data-engine-worker"),
      pyodide: body().getAttribute("data-pyodide"),
      engine: body().getAttribute("data-engine"),
      cache: body().getAttribute("data-runtime-cache"),
      onDownload: downloading,
      onProgress: function (stage) { if (stage === "pyodide") status("loading", "Offline entry: starting"); }
    }).then(function (ms) {
      booting = false;
      ready = true;
      timings.boot = { total: performance.now() - t0, worker: ms, cached: ms.from_cache > 0, tries: tries + 1 };
      status("ready", "Offline entry ready");
      if (onReady) onReady();
    }, function (err) {
      booting = false;
      tries += 1;
      timings.failures.push(String(err && err.message || err));
      // Words for the dealer; the engine's own message is for support (the console).
      status("failed", "Offline entry is not ready yet \u2014 it will finish loading when the network is back");
      if (window.console) console.warn("offline engine:", err && err.message);
      var wait = Math.min(60000, 2000 * Math.pow(2, Math.min(tries - 1, 5)));
      retry = setTimeout(function () { retry = null; start(onReady); }, wait);
      if (!listening) {
        listening = true;
        window.addEventListener("online", function () { if (!ready && !booting) start(onReady); });
      }
    });
  }
  var listening = false;

  function token() { return localStorage.getItem("brag-token"); }

  function store() { return window.BragStore; }

  function keep(id, doc) {
    starts[id] = doc;
    if (store()) store().set("start-" + id, doc).catch(function () { /* memory only */ });
  }

  /* The start documents kept in IndexedDB (a reload while offline needs them). */
  function restore() {
    if (!store()) return Promise.resolve();
    return store().keys("start-").then(function (keys) {
      return Promise.all(keys.map(function (k) {
        return store().get(k).then(function (doc) {
          var id = k.slice("start-".length);
          if (doc) starts[/^L/.test(id) ? id : Number(id)] = doc;
        });
      }));
    }).catch(function () { /* nothing kept */ });
  }

  /* ``start``: the hand's start document when the answer that dealt it carried it (the start's
   * own answer does); otherwise it is read from the hand's history. */
  function remember(hand, start) {
    if (!hand || hand.status !== "in_progress" || starts[hand.id]) return;
    if (start) { keep(hand.id, startOnly(start)); return; }
    if (loading[hand.id]) return;
    loading[hand.id] = true;
    var headers = { "Accept": "application/json" };
    if (token()) headers["Authorization"] = "Token " + token();
    fetch("/api/v1/hands/" + hand.id + "/history/", { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (doc) {
        delete loading[hand.id];
        if (doc && !starts[hand.id]) keep(hand.id, startOnly(doc));
      }, function () { delete loading[hand.id]; });
  }

  function startOnly(doc) {
    var copy = Object.assign({}, doc, { actions: [], cards: {} });
    delete copy.meta;
    return copy;
  }

  /* A hand started offline has its id now: its start document and queued entries follow. */
  function rename(local, id) {
    if (starts[local] && !starts[id]) keep(id, starts[local]);
    delete starts[local];
    if (store()) store().del("start-" + local).catch(function () {});
  }

  function queuedAction(item) {
    var b = item.body;
    if (item.kind === "cards" || item.path.indexOf("/cards/") >= 0) return { action: "show", seat: b.seat, cards: b.cards };
    var out = { action: b.action };
    ["seat", "amount", "hand"].forEach(function (k) { if (b[k] !== undefined && b[k] !== null) out[k] = b[k]; });
    return out;
  }

  /* The table as the engine takes it (engine.tablet.next_hand). */
  function engineTable(table) {
    return {
      rules: table.rules,
      button: table.button,
      shuffle_next: table.shuffle_next,
      carried: table.carried,
      seats: table.seats.map(function (s) {
        return { number: s.number, player: s.player.name, stack: s.stack, sitting_out: s.sitting_out };
      })
    };
  }

  function ask(request) {
    return window.BragEngine.ask(request).then(function (answer) {
      if (!answer.ok) throw { engine: answer.error };
      return answer;
    });
  }

  /* The table and its hand after the queue: the server's table and hand as last seen, then each
   * queued entry in order — actions of the hand in play, a hand started on the tablet (dealt by
   * the engine from the table as the previous hand left it), the actions of that hand, and so on.
   * Resolves with {table, hand} in the API's shapes (so the screen draws them as it draws the
   * server's), null when there is nothing to compute, or {error} when the engine refuses. */
  function project(table, queue) {
    if (!ready || !table || !queue.length) return Promise.resolve(null);
    var segs = [];
    var h = table.hand;
    if (h) segs.push({ id: h.id, server: h, base: h.actions || [], queued: [] });
    for (var i = 0; i < queue.length; i++) {
      var item = queue[i];
      if (item.kind === "start") { segs.push({ id: item.local, start: item, base: [], queued: [] }); continue; }
      var seg = segs[segs.length - 1];
      if (!seg || seg.id !== item.hand) return Promise.resolve({ error: { code: "queue_order", message: "The queue names a hand the tablet does not have in play." } });
      seg.queued.push(queuedAction(item));
    }
    var tbl = engineTable(table);
    var view = null;
    var prev = null;
    var nextDealer = table.next_dealer;
    var chain = Promise.resolve();
    segs.forEach(function (seg) {
      chain = chain.then(function () {
        if (!seg.start) {
          if (!seg.queued.length) { view = seg.server; return null; }
          if (!starts[seg.id]) throw { engine: { code: "no_start", message: "The tablet never saw this hand's start." } };
          return ask({ op: "hand", history: starts[seg.id], queued: seg.base.concat(seg.queued) }).then(function (a) {
            view = Object.assign({}, seg.server, a.hand, {
              next_seq: seg.server.next_seq + seg.queued.length,
              status: a.hand.result ? "settled" : "in_progress",
              offline: true
            });
          });
        }
        var request = { op: "start", table: tbl };
        if (prev && starts[prev.id]) {
          request.history = starts[prev.id];
          request.queued = prev.base.concat(prev.queued);
        }
        return ask(request).then(function (a) {
          tbl = a.table;
          keep(seg.id, a.history);
          var before = view;
          view = Object.assign({
            id: seg.id,
            table: table.id,
            number: (before ? before.number : 0) + 1,
            dealer: a.dealer,
            next_seq: 1,
            shuffle_before: a.shuffle_before,
            carried: a.carried,
            rules: tbl.rules,
            result: null
          }, a.hand, { status: "in_progress", offline: true, local: true });
          if (!seg.queued.length) return null;
          return ask({ op: "hand", history: a.history, queued: seg.queued }).then(function (b) {
            view = Object.assign({}, view, b.hand, {
              next_seq: 1 + seg.queued.length,
              status: b.hand.result ? "settled" : "in_progress"
            });
          });
        });
      }).then(function () { prev = seg; });
    });
    return chain.then(function () {
      var last = segs[segs.length - 1];
      if (!view || !view.result || !last || !starts[last.id]) return null;
      // Settled on the tablet: the seats, the button, the carried pot and the shuffle after it.
      return ask({ op: "after", table: tbl, history: starts[last.id], queued: last.base.concat(last.queued) }).then(function (a) {
        tbl = a.table;
        nextDealer = a.next_dealer;
      });
    }).then(function () {
      var stacks = {};
      tbl.seats.forEach(function (s) { stacks[s.number] = s.stack; });
      var out = Object.assign({}, table, {
        button: tbl.button,
        shuffle_next: tbl.shuffle_next,
        carried: tbl.carried,
        next_dealer: nextDealer,
        seats: table.seats.map(function (s) { return Object.assign({}, s, { stack: stacks[s.number] }); }),
        hand: view,
        offline: true
      });
      return { table: out, hand: view };
    }, function (err) {
      if (err && err.engine) return { error: err.engine };
      throw err;
    });
  }

  function label(hand, seat) {
    var found = (hand.players || []).filter(function (p) { return p.seat === seat; })[0];
    return found ? found.player + " (seat " + seat + ")" : "seat " + seat;
  }

  function describe(hand) {
    if (!hand) return "no hand";
    if (hand.result) {
      var stacks = hand.result.stacks || {};
      return "settled; stacks " + Object.keys(stacks).map(function (s) { return label(hand, Number(s)) + " " + stacks[s]; }).join(", ");
    }
    var pots = (hand.pots || []).map(function (p) { return p.amount; }).join(" + ");
    var turn = hand.to_act ? label(hand, hand.to_act) + " to act" : hand.phase;
    return turn + ", stake " + hand.stake + ", pot " + pots + "; stacks " +
      (hand.players || []).map(function (p) { return label(hand, p.seat) + " " + p.stack; }).join(", ");
  }

  /* JSON with sorted keys: the server's stored result comes back from the database with its
   * keys in another order. */
  function canon(value) {
    if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
    if (value && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(value[k]); }).join(",") + "}";
    }
    return JSON.stringify(value === undefined ? null : value);
  }

  var COMPARED = ["phase", "to_act", "stake", "pots", "players", "pending", "must_choose", "cards_needed"];

  /* Words for how the server's hand differs from the tablet's, or "" when they agree. */
  function differs(expected, got) {
    if (!expected || !got) return "";
    var same = COMPARED.every(function (k) { return canon(expected[k]) === canon(got[k]); }) &&
      canon(expected.result || null) === canon(got.result || null);
    if (same) return "";
    return "The tablet computed: " + describe(expected) + ". The server has: " + describe(got) + ".";
  }

  window.BragOffline = {
    start: start,
    restore: restore,
    remember: remember,
    rename: rename,
    project: project,
    differs: differs,
    describe: describe,
    timings: timings,
    isReady: function () { return ready; }
  };
})();
