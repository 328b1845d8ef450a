/* Brag Event — the tablet keeps playing when the network drops (issue 21).
 *
 * While actions wait in the queue, the hand the tablet shows is the engine's own answer — the
 * project's brag_event/engine running in Pyodide (engine-worker.js) — rebuilt from the hand's
 * brag-hh/1 start, the server's log as last seen and the queued actions. So the action bar, the
 * stake, the pots and the result come from the same Python the server runs. When the queue
 * drains, each answer of the server is compared with what the tablet computed; a difference
 * stops the queue and is shown in words (tablet.js).
 *
 *   BragOffline.start(onReady)     boot the engine worker (progress in #engine-status)
 *   BragOffline.remember(hand)     keep the hand's start document (one read per hand)
 *   BragOffline.project(hand, queue) → Promise of the hand after the queued actions, or null
 *   BragOffline.differs(expected, got) → words for what differs, or ""
 */
(function () {
  "use strict";

  var starts = {}; // hand id -> its brag-hh/1 start (no actions, no cards)
  var loading = {};
  var ready = false;
  var timings = (window.__bragOffline = { boot: null, taps: [] });

  function body() { return document.body; }

  function status(text) {
    var box = document.getElementById("engine-status");
    if (box) box.textContent = text;
  }

  function start(onReady) {
    if (!window.BragEngine || !body().getAttribute("data-engine")) return;
    var t0 = performance.now();
    status("Offline engine: loading…");
    window.BragEngine.boot({
      worker: body().getAttribute("data-engine-worker"),
      pyodide: body().getAttribute("data-pyodide"),
      engine: body().getAttribute("data-engine"),
      onProgress: function (stage) {
        if (stage === "pyodide") status("Offline engine: loading Python…");
        else if (stage === "engine") status("Offline engine: loading the rules…");
      }
    }).then(function (ms) {
      ready = true;
      timings.boot = { total: performance.now() - t0, worker: ms };
      status("Offline engine ready");
      if (onReady) onReady();
    }, function (err) {
      status("Offline engine unavailable: " + err.message);
    });
  }

  function token() { return localStorage.getItem("brag-token"); }

  function remember(hand) {
    if (!hand || hand.status !== "in_progress" || starts[hand.id] || loading[hand.id]) return;
    var key = "brag-hand-start-" + hand.id;
    try {
      var kept = JSON.parse(localStorage.getItem(key) || "null");
      if (kept) { starts[hand.id] = kept; return; }
    } catch (e) { /* read again below */ }
    loading[hand.id] = true;
    var headers = { "Accept": "application/json" };
    if (token()) headers["Authorization"] = "Token " + token();
    fetch("/api/v1/hands/" + hand.id + "/history/", { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (doc) {
        delete loading[hand.id];
        if (!doc) return;
        doc.actions = [];
        doc.cards = {};
        delete doc.meta;
        starts[hand.id] = doc;
        try { localStorage.setItem(key, JSON.stringify(doc)); } catch (e) { /* memory only */ }
      }, function () { delete loading[hand.id]; });
  }

  function queuedAction(item) {
    var b = item.body;
    if (item.path.indexOf("/cards/") >= 0) return { action: "show", seat: b.seat, cards: b.cards };
    var out = { action: b.action };
    ["seat", "amount", "hand"].forEach(function (k) { if (b[k] !== undefined && b[k] !== null) out[k] = b[k]; });
    return out;
  }

  /* The hand after the queued actions of this hand, computed by the engine in the worker. */
  function project(hand, queue) {
    if (!ready || !hand || !starts[hand.id]) return Promise.resolve(null);
    var mine = queue.filter(function (q) { return q.hand === hand.id; });
    var request = {
      op: "hand",
      history: starts[hand.id],
      queued: (hand.actions || []).concat(mine.map(queuedAction))
    };
    return window.BragEngine.ask(request).then(function (answer) {
      if (!answer.ok) return { error: answer.error };
      var live = answer.hand;
      var out = Object.assign({}, hand, live);
      out.next_seq = hand.next_seq + mine.length;
      out.status = live.result ? "settled" : "in_progress";
      out.offline = true;
      return out;
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
    remember: remember,
    project: project,
    differs: differs,
    describe: describe,
    timings: timings,
    isReady: function () { return ready; }
  };
})();
