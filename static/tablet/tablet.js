/* Brag Event — the dealer's tablet. No libraries; served from static/.
 *
 * Everything shown comes from the API, and every button comes from the engine's legal actions
 * (hand.legal_actions): an illegal entry is not offered. Actions go through a queue kept in
 * IndexedDB (offline/store.js): each gets its Idempotency-Key and expected_seq when tapped, is
 * stored before it is sent, and is sent in order when the network allows; a reload loses
 * nothing, a retry never enters twice, and a refusal is shown, not swallowed. The last table the
 * tablet saw is kept there too, and a service worker (/tablet/sw.js) keeps the pages, Pyodide
 * and the engine: a tablet that reloads offline opens its table as it last saw it and keeps
 * playing, the engine in the browser computing each hand (offline/offline.js). */
(function () {
  "use strict";

  var API = "/api/v1";
  var TOKEN_KEY = "brag-token";
  var SUITS = [["s", "\u2660"], ["h", "\u2665"], ["d", "\u2666"], ["c", "\u2663"]];
  var RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];

  // ------------------------------------------------------------------ small helpers

  function $(sel, root) { return (root || document).querySelector(sel); }

  function el(tag, attrs) {
    var node = document.createElement(tag);
    var key;
    for (key in attrs || {}) {
      if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
      var value = attrs[key];
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
      else if (value === true) node.setAttribute(key, "");
      else node.setAttribute(key, String(value));
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  function cookie(name) {
    var parts = document.cookie ? document.cookie.split("; ") : [];
    for (var i = 0; i < parts.length; i++) {
      var eq = parts[i].indexOf("=");
      if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
    }
    return "";
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function announce(text) {
    var live = $("#announce");
    if (!live) return;
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 30);
  }

  function setNet(text, state) {
    var net = $("#net");
    if (!net) return;
    net.textContent = text;
    net.className = "net" + (state ? " " + state : "");
    // Whether entries go on without the network (offline/offline.js) matters only without it.
    var entry = $("#engine-status");
    if (entry) entry.hidden = state !== "offline" || !entry.textContent;
  }

  /* Who is signed in, said once: the name, and the role only where it is not a dealer's and
   * not the name already (a supervisor called "supervisor" is not said twice). */
  function whoText(me) {
    var name = me.username;
    if (me.role === "dealer" || me.role === String(name).toLowerCase()) return name;
    return name + " (" + me.role + ")";
  }

  function NetworkError(message) { this.name = "NetworkError"; this.message = message; }

  /* One API call. Resolves with {status, data, replayed}; rejects with NetworkError when the
   * request never got an answer (no network, server unreachable). */
  function api(method, path, body, key, etag) {
    var headers = { "Accept": "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    var token = localStorage.getItem(TOKEN_KEY);
    if (token) headers["Authorization"] = "Token " + token;
    else if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken");
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (key) headers["Idempotency-Key"] = key;
    return fetch(API + path, {
      method: method,
      headers: headers,
      credentials: "same-origin",
      cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      return response.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        return { status: response.status, data: data, etag: response.headers.get("ETag"), replayed: response.headers.get("Idempotent-Replayed") === "true", retryAfter: Number(response.headers.get("Retry-After")) || 0 };
      });
    }, function (err) {
      throw new NetworkError(String(err && err.message || err));
    });
  }

  function errorOf(res) {
    var e = res.data && res.data.error;
    return e ? e : { code: "http_" + res.status, message: "The server answered " + res.status + ".", details: {} };
  }

  function toLogin() {
    window.location.href = "/tablet/login/?next=" + encodeURIComponent(window.location.pathname);
  }

  function whoAmI() {
    return api("GET", "/me/").then(function (res) {
      if (res.status === 401 || res.status === 403) { toLogin(); throw new Error("not logged in"); }
      var me = res.data;
      $("#who").textContent = whoText(me);
      var out = $("#logout");
      out.hidden = false;
      out.onclick = function () {
        if (localStorage.getItem(TOKEN_KEY)) { localStorage.removeItem(TOKEN_KEY); toLogin(); return; }
        api("POST", "/auth/logout/", {}).then(toLogin, toLogin);
      };
      return me;
    });
  }

  function seatLabel(hand, seat) {
    var players = (hand && hand.players) || [];
    for (var i = 0; i < players.length; i++) {
      if (players[i].seat === seat) return players[i].player + " (seat " + seat + ")";
    }
    return "seat " + seat;
  }

  function cardText(code) {
    var rank = code.slice(0, -1), suit = code.slice(-1);
    var symbol = "";
    SUITS.forEach(function (s) { if (s[0] === suit) symbol = s[1]; });
    return (rank === "T" ? "10" : rank) + symbol;
  }

  // ------------------------------------------------------------------ the login page

  // Where to go after logging in: the server already checked it (tablet/views.py); checked again
  // here with the browser's own URL parser, the one that will follow it, so that "/\evil.example",
  // "/\t/evil.example" and the like can never leave this site.
  function safeNext(raw) {
    var home = "/tablet/";
    if (!raw || raw.charAt(0) !== "/") return home;
    var url;
    try { url = new URL(raw, window.location.origin); } catch (e) { return home; }
    if (url.origin !== window.location.origin) return home;
    return url.pathname + url.search + url.hash;
  }

  function loginPage() {
    function next() { return safeNext($("#login").getAttribute("data-next")); }
    var error = $("#login-error");
    $("#login-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      var form = ev.target;
      localStorage.removeItem(TOKEN_KEY);
      api("POST", "/auth/login/", { username: form.username.value, password: form.password.value }).then(function (res) {
        if (res.status === 200) { window.location.href = next(); return; }
        error.textContent = errorOf(res).message;
      }, function () { error.textContent = "No network: try again when the tablet is connected."; });
    });
    $("#token-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      localStorage.setItem(TOKEN_KEY, ev.target.token.value.trim());
      api("GET", "/me/").then(function (res) {
        if (res.status === 200) { window.location.href = next(); return; }
        localStorage.removeItem(TOKEN_KEY);
        error.textContent = errorOf(res).message;
      }, function () {
        localStorage.removeItem(TOKEN_KEY);
        error.textContent = "No network: try again when the tablet is connected.";
      });
    });
  }

  // ------------------------------------------------------------------ the tables page

  // An event with no day open, in words: which day closes, which opens next, or that it is over.
  function eventState(event) {
    var days = event.days.slice().sort(function (a, b) { return a.number - b.number; });
    var closing = days.filter(function (d) { return d.status === "closing"; })[0];
    if (closing) return event.name + ": day " + closing.number + " is closing; no more hands today.";
    var next = days.filter(function (d) { return d.status === "scheduled"; })[0];
    var closed = days.filter(function (d) { return d.status === "closed"; });
    var last = closed[closed.length - 1];
    if (!next) return event.name + ": every day has closed; the event is over.";
    return event.name + ": " + (last ? "day " + last.number + " has closed; " : "") +
      "day " + next.number + " has not opened yet.";
  }

  function tablesPage() {
    var list = $("#tables");
    var notOpen = [];
    whoAmI().then(function () {
      return api("GET", "/events/");
    }).then(function (res) {
      var days = [];
      ((res.data && res.data.events) || []).forEach(function (event) {
        var open = false;
        event.days.forEach(function (day) {
          if (day.status === "open") { open = true; days.push({ event: event, day: day }); }
        });
        if (!open) notOpen.push(event);
      });
      return Promise.all(days.map(function (d) {
        return api("GET", "/days/" + d.day.id + "/tables/").then(function (r) {
          return { event: d.event, day: d.day, tables: (r.data && r.data.tables) || [] };
        });
      }));
    }).then(function (groups) {
      clear(list);
      list.removeAttribute("aria-busy");
      var count = 0;
      groups.forEach(function (g) {
        g.tables.forEach(function (t) {
          count += 1;
          list.appendChild(el("li", null, el("a", { class: "tile", href: "/tablet/tables/" + t.id + "/" },
            el("strong", { text: "Table " + t.number }),
            el("span", { text: g.event.name + " · day " + g.day.number }),
            el("span", { text: t.seated + " seated · " + t.hands + " hands" + (t.live_hand ? " · hand in play" : "") }))));
        });
      });
      if (!count) list.appendChild(el("li", { text: "No table is assigned to you today." }));
      // With no day in play, say each event's state in words (RULES §4b: days follow one another).
      notOpen.forEach(function (event) { list.appendChild(el("li", { class: "day-state", text: eventState(event) })); });
    }).catch(function (err) {
      if (err instanceof NetworkError) keptTables(list);
    });
  }

  /* No network (a tablet restarted in a dead zone opens here): the tables this tablet kept
   * (IndexedDB), each opening as it was last seen — the service worker keeps their pages. */
  function keptTables(list) {
    clear(list).removeAttribute("aria-busy");
    var store = window.BragStore;
    var none = function () { clear(list).appendChild(el("li", { text: "No network: reload when connected." })); };
    if (!store) { none(); return; }
    store.keys("table-").then(function (keys) {
      return Promise.all(keys.map(function (k) { return store.get(k); }));
    }).then(function (kept) {
      kept = kept.filter(function (k) { return k && k.table; });
      if (!kept.length) { none(); return; }
      list.appendChild(el("li", { class: "day-state", text: "No network: the tables this tablet has kept, as it last saw them." }));
      kept.forEach(function (k) {
        var t = k.table;
        list.appendChild(el("li", null, el("a", { class: "tile", href: "/tablet/tables/" + t.id + "/" },
          el("strong", { text: "Table " + t.number }),
          el("span", { text: "day " + t.day.number + " · seen at " + new Date(k.at).toTimeString().slice(0, 5) }))));
      });
    }, none);
  }

  // ------------------------------------------------------------------ the table page

  function tablePage() {
    var T = {
      id: Number(document.body.getAttribute("data-table")),
      table: null,
      etag: null, // the ETag of the last table read: the version the screen shows
      me: null,
      players: [],
      queue: [],
      sending: false,
      retry: null,
      picked: [],
      betAmount: null,
      betText: null, // what the dealer typed, kept as typed (even out of range) across redraws
      betFor: null, // the hand and seat the amount was chosen for: a new player starts afresh
      lastEntry: null, // this tablet's last entry the server took: {hand, seq, label}
      quiet: false, // a refresh after this tablet's own write: no "moved on from another device"
      stopped: false, // the day is not open: nothing to poll
      wakeLock: null
    };
    var QUEUE_KEY = "queue-table-" + T.id;
    var TABLE_KEY = "table-" + T.id;
    var OLD_QUEUE_KEY = "brag-queue-table-" + T.id; // before IndexedDB: moved over once
    var store = window.BragStore;

    /* The queue is written to IndexedDB on every change; the writes commit in order. */
    function saveQueue() {
      var copy = T.queue.slice();
      T.saving = store.set(QUEUE_KEY, copy).catch(function () {
        notice("This tablet cannot store the queue: do not reload the page until it is sent.", "error");
      });
      return T.saving;
    }
    function saveTable() {
      if (T.table) store.set(TABLE_KEY, { table: T.table, etag: T.etag, at: Date.now() }).catch(function () {});
    }
    /* The table to draw: with entries queued, the table and hand the tablet's own engine
     * computed from the server's last state and the queue (offline/offline.js). */
    function view() {
      var p = T.projected;
      if (p && T.queue.length) return p.table;
      return T.table;
    }
    function hand() { var t = view(); return t && t.hand; }

    /* Ask the engine in the browser for the table after the queued entries; the action bar is
     * then drawn from its legal actions, so a table keeps playing without the network. */
    function reproject(tapped, item) {
      if (!window.BragOffline || !T.queue.length || !T.table) { T.projected = null; return; }
      var asked = (T.asked = (T.asked || 0) + 1);
      window.BragOffline.project(T.table, T.queue).then(function (p) {
        if (asked !== T.asked) return; // a newer question is on its way
        if (p && p.error) notice("The tablet's engine cannot compute the queued entries: " + p.error.message, "error");
        T.projected = p && !p.error ? p : null;
        if (item && T.projected) { item.expect = T.projected.hand; saveQueue(); }
        render();
        if (tapped) window.BragOffline.timings.taps.push(performance.now() - tapped);
      });
    }
    function isSupervisor() { return T.me && (T.me.role === "supervisor" || T.me.role === "organiser"); }

    function notice(text, kind) {
      var box = $("#notice");
      box.hidden = !text;
      box.className = "notice" + (kind ? " " + kind : "");
      clear(box);
      if (text) {
        box.appendChild(el("span", { text: text }));
        box.appendChild(el("button", { type: "button", class: "link", text: "Dismiss", onclick: function () { notice(""); } }));
        announce(text);
      }
    }

    /* The table as the server has it. The request names the version this screen was drawn
     * from (If-None-Match: its ETag); 304 means nothing changed, and nothing is re-drawn. A
     * screen changed by an action's answer still asks with that ETag: the action bumped the
     * version, so the answer is the whole table again. */
    function refresh() {
      return api("GET", "/tables/" + T.id + "/", undefined, undefined, T.etag).then(function (res) {
        if (res.status === 401) { toLogin(); return; }
        if (res.status === 304) { T.fromStore = false; setNet("", ""); return; }
        var refused = res.status !== 200 ? errorOf(res) : null;
        if (refused && /^day_/.test(refused.code)) { dayNotOpen(refused); return; }
        if (refused) { notice(refused.message, "error"); return; }
        var before = hand();
        var after = res.data.hand;
        // A read sent before an action whose answer is already drawn can arrive after it: an
        // older state never replaces a newer one (the next refresh brings the table again).
        if (before && after && (after.id < before.id || (after.id === before.id && after.next_seq < before.next_seq))) return;
        T.etag = res.etag;
        // (Not for the table kept on the tablet and drawn at a reload: it is only a placeholder
        // until the server answers; a queued entry it made stale is refused and said so.)
        var kept = T.fromStore;
        T.fromStore = false;
        if (before && after && before.id === after.id && after.next_seq > before.next_seq && !T.queue.length && !T.sending && !T.quiet && !kept) {
          notice("The hand moved on from another device; the screen shows it now.", "info");
        }
        T.table = res.data;
        saveTable();
        if (window.BragOffline) window.BragOffline.remember(res.data.hand);
        setNet("", "");
        if (T.queue.length) reproject();
        render();
      }, function () { setNet("Offline", "offline"); });
    }

    function applyHand(h) {
      if (!h) return;
      T.table.hand = h;
      saveTable();
      if (window.BragOffline) window.BragOffline.remember(h);
      reproject();
      render();
      // A settled hand moved money back to the stacks: redraw the seats from the table.
      if (h.status !== "in_progress" && !T.queue.length) refresh();
    }

    // ---------------------------------------------------------------- the queue

    function enqueue(kind, payload, label) {
      var h = hand();
      var last = T.queue[T.queue.length - 1];
      var seq = last && last.hand === h.id && last.kind !== "start" ? last.body.expected_seq + 1 : h.next_seq;
      var tapped = performance.now();
      T.queue.push({
        key: newKey(),
        kind: kind,
        hand: h.id,
        path: "/hands/" + h.id + (kind === "cards" ? "/cards/" : "/actions/"),
        body: Object.assign({}, payload, { expected_seq: seq }),
        label: label
      });
      saveQueue();
      T.picked = [];
      render();
      reproject(tapped, T.queue[T.queue.length - 1]);
      pump();
    }

    /* Send the queue again later: after the server's Retry-After (seconds) if it gave one. */
    function retryLater(seconds) {
      if (T.retry) return;
      T.retry = window.setTimeout(function () { T.retry = null; pump(); }, Math.max(1500, (seconds || 0) * 1000));
    }

    /* The next hand, started on the tablet while the network is gone (or while entries wait):
     * queued like an action, with its own Idempotency-Key (``key``: the one of a start that
     * got no answer, so that a start that did reach the server is not dealt twice). The engine
     * deals it on the tablet; its actions name it by a local id until the server's answer. */
    function enqueueStart(key) {
      var tapped = performance.now();
      var t = view();
      var number = t.hand ? t.hand.number + 1 : 1;
      var item = {
        key: key || newKey(),
        kind: "start",
        local: "L" + newKey(),
        path: "/tables/" + T.id + "/hands/",
        body: {},
        label: "Hand " + number + " starts"
      };
      T.queue.push(item);
      saveQueue();
      render();
      reproject(tapped, item);
      pump();
    }

    function startHand() {
      if (T.queue.length) { enqueueStart(); return; }
      if (navigator.onLine === false && window.BragOffline && window.BragOffline.isReady() && T.table && T.table.rules) {
        // The browser knows there is no network: the tablet deals the hand without asking (a
        // request it sent anyway could still leave through the service worker; see pump()).
        enqueueStart();
        return;
      }
      var key = newKey();
      var button = $("#start-hand");
      if (button) button.disabled = true;
      api("POST", "/tables/" + T.id + "/hands/", {}, key).then(function (res) {
        if (button) button.disabled = false;
        if (res.status === 201) {
          notice("");
          T.quiet = true;
          return refresh().then(function () { T.quiet = false; });
        }
        if (res.status === 401) { toLogin(); return; }
        notice(errorOf(res).message, "error");
      }, function () {
        // No answer: the tablet deals it with its engine and sends the start when it can.
        if (button) button.disabled = false;
        if (window.BragOffline && window.BragOffline.isReady() && T.table && T.table.rules) enqueueStart(key);
        else notice("No network, and the tablet's engine is not loaded yet: the hand cannot start. Try again.", "error");
      });
    }

    /* The server dealt a hand started on the tablet: its entries take the hand's id. */
    function named(item, hand) {
      if (!hand || item.kind !== "start") return;
      T.queue.forEach(function (q) {
        if (q.hand !== item.local) return;
        q.hand = hand.id;
        q.path = q.path.replace("/hands/" + item.local + "/", "/hands/" + hand.id + "/");
      });
      if (window.BragOffline) window.BragOffline.rename(item.local, hand.id);
    }

    function pump() {
      if (T.sending || !T.queue.length) { renderQueue(); return; }
      if (navigator.onLine === false) {
        // The browser knows there is no network: nothing is sent (nothing could arrive) until
        // its "online" event, which pumps again. (When it only thinks it is online — Wi-Fi
        // up, the hall's network down — the request fails and is retried below.)
        setNet("Offline — " + T.queue.length + " queued", "offline");
        render();
        return;
      }
      T.sending = true;
      renderQueue();
      var item = T.queue[0];
      api("POST", item.path, item.body, item.key).then(function (res) {
        T.sending = false;
        if (res.status === 201 || res.status === 200) {
          var got = item.kind === "start" ? res.data : res.data.hand;
          T.queue.shift();
          named(item, got);
          saveQueue();
          setNet("", "");
          var why = window.BragOffline ? window.BragOffline.differs(item.expect, got) : "";
          if (why) {
            // The server is the authority: stop, say both, redraw from the server's hand.
            var notSent = T.queue.splice(0).map(function (d) { return d.label; });
            saveQueue();
            T.projected = null;
            notice("The server's answer to \u201c" + item.label + "\u201d differs from the tablet's. " + why +
              (notSent.length ? " Not sent: " + notSent.join(", ") + "." : "") + " The screen shows the server's hand: enter from there.", "warn");
            applyHand(got);
            return;
          }
          if (item.kind !== "start" && got) T.lastEntry = { hand: got.id, seq: res.data.seq, label: item.label };
          applyHand(got);
          announce(item.label + (res.replayed ? " (was already entered)" : " entered"));
          pump();
          return;
        }
        if (res.status === 401) { toLogin(); return; }
        if (res.status === 429 || res.status >= 500) { setNet("Server busy — " + T.queue.length + " queued", "offline"); retryLater(res.retryAfter); render(); return; }
        var err = errorOf(res);
        var dropped = T.queue.splice(0);
        saveQueue();
        var rest = dropped.slice(1).map(function (d) { return d.label; });
        var tail = rest.length ? " Not sent after it: " + rest.join(", ") + "." : "";
        var had = T.projected && window.BragOffline ? " The tablet had: " + window.BragOffline.describe(T.projected.hand) + "." : "";
        T.projected = null;
        if (err.code === "stale_sequence") {
          notice("Another device moved the hand on: \u201c" + item.label + "\u201d was not entered." + tail + had + " The screen shows the hand now.", "warn");
          if (err.details && err.details.hand) applyHand(err.details.hand);
          else refresh();
        } else {
          notice("Refused: \u201c" + item.label + "\u201d \u2014 " + err.message + tail, "error");
          refresh();
        }
      }, function () {
        T.sending = false;
        setNet("Offline — " + T.queue.length + " queued", "offline");
        render();
        retryLater();
      });
    }

    function renderQueue() {
      var box = $("#queue");
      clear(box);
      box.hidden = !T.queue.length;
      if (!T.queue.length) return;
      box.appendChild(el("strong", { text: (T.sending ? "Sending" : "Queued") + " (" + T.queue.length + ")" }));
      var list = el("ol");
      T.queue.forEach(function (q) { list.appendChild(el("li", { text: q.label })); });
      box.appendChild(list);
    }

    // ---------------------------------------------------------------- writes between hands

    /* A write between hands (or an undo). Resolves with "" when it was done, else with the
     * reason in words — shown as a notice, or by the dialog that asked (``inDialog``). */
    function write(path, body, said, inDialog) {
      return api("POST", path, body, newKey()).then(function (res) {
        if (res.status === 200 || res.status === 201) {
          notice("");
          T.quiet = true;
          return refresh().then(function () {
            T.quiet = false;
            if (said) notice(said, "info");
            return "";
          });
        }
        if (res.status === 401) { toLogin(); return ""; }
        var reason = errorOf(res).message;
        if (!inDialog) notice(reason, "error");
        return reason;
      }, function () {
        var reason = "No network: nothing was changed. Try again.";
        if (!inDialog) notice(reason, "error");
        return reason;
      });
    }

    /* The day of this table is not open (not yet, closing or closed): say so in words and stop
     * asking for the table; a day not open yet is asked about again now and then. */
    function dayNotOpen(err) {
      T.stopped = true;
      T.table = null;
      releaseWake();
      ["#bar", "#showdown", "#result", "#next", "#between"].forEach(function (sel) { var n = $(sel); if (n) n.hidden = true; });
      clear($("#seats"));
      clear($("#centre"));
      var d = err.details || {};
      $("#title").textContent = "Table " + (d.table || "") + (d.day ? " · day " + d.day : "");
      var box = $("#day-state");
      clear(box);
      box.hidden = false;
      $(".layout").hidden = true; // an empty table says nothing: the day's state is the page
      box.appendChild(el("p", { class: "muted", text: "Table " + (d.table || "") + (d.day ? ", day " + d.day : "") }));
      box.appendChild(el("h2", { text: err.message }));
      if (d.status_text) box.appendChild(el("p", { text: d.status_text }));
      box.appendChild(el("p", null, el("a", { href: "/tablet/", text: "Your tables today" })));
      setNet("", "");
      if (d.status === "scheduled") window.setTimeout(function () { T.stopped = false; refresh(); }, 30000);
    }

    // ---------------------------------------------------------------- the screen stays on

    /* While a hand is in play the screen must not dim (the Screen Wake Lock API, where the
     * browser has it); released between hands. A lock is lost when the page is hidden: it is
     * asked for again when the page is shown. */
    function wantWake() {
      var h = hand();
      return !!(h && h.status === "in_progress");
    }

    function holdWake() {
      if (!("wakeLock" in navigator) || T.wakeLock || document.visibilityState !== "visible") return;
      T.wakeLock = "asking";
      navigator.wakeLock.request("screen").then(function (lock) {
        T.wakeLock = lock;
        lock.addEventListener("release", function () { if (T.wakeLock === lock) T.wakeLock = null; });
        if (!wantWake()) releaseWake();
      }, function () { T.wakeLock = null; });
    }

    function releaseWake() {
      var lock = T.wakeLock;
      if (!lock || lock === "asking") return;
      T.wakeLock = null;
      lock.release().catch(function () {});
    }

    function syncWake() { if (wantWake()) holdWake(); else releaseWake(); }

    document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") syncWake(); });

    function dialog(title, fields, submitText, onSubmit) {
      var dlg = $("#dialog");
      var form = clear($("#dialog-form"));
      form.appendChild(el("h2", { id: "dialog-title", text: title }));
      fields.forEach(function (f) { form.appendChild(f); });
      var error = el("p", { class: "error", role: "alert" });
      form.appendChild(error);
      // A refusal said for what was asked before goes once the dealer changes the answer.
      // (On input, not on change: a change fires as the field loses focus to the tap on the
      // button, and the dialog would shrink under the finger.)
      form.oninput = function () { error.textContent = ""; };
      form.appendChild(el("div", { class: "row" },
        el("button", { type: "button", onclick: function () { dlg.close(); }, text: "Cancel" }),
        submitText && el("button", {
          type: "submit", class: "primary", text: submitText, onclick: function (ev) {
            ev.preventDefault();
            var problem = onSubmit(form);
            if (problem && typeof problem.then === "function") {
              // The dialog stays open until the server answers; a refusal is shown in it.
              var button = ev.target;
              button.disabled = true;
              problem.then(function (reason) {
                button.disabled = false;
                if (reason) { error.textContent = reason; return; }
                if (dlg.open) dlg.close();
              });
              return;
            }
            if (problem) { error.textContent = problem; return; }
            dlg.close();
          }
        })));
      dlg.showModal();
      return { dialog: dlg, error: error };
    }

    // ---------------------------------------------------------------- rendering

    function render() {
      if (!T.table) return;
      $("#day-state").hidden = true;
      $(".layout").hidden = false;
      $("#title").textContent = "Table " + T.table.number + " · day " + T.table.day.number;
      renderSeats();
      renderCentre();
      renderLastEntry();
      renderBar();
      renderShowdown();
      renderResult();
      renderBetween();
      renderLog();
      renderQueue();
      if (window.BragFloor) window.BragFloor.render(T, api); // static/tablet/floor.js
      syncWake();
    }

    function renderSeats() {
      var box = clear($("#seats"));
      var h = hand();
      var live = h && h.status === "in_progress";
      var bySeat = {};
      var t = view();
      t.seats.forEach(function (s) { bySeat[s.number] = s; });
      var inHand = {};
      ((h && h.players) || []).forEach(function (p) { inHand[p.seat] = p; });
      // In a hand, its dealer; between hands, the seat that deals the next one.
      var dealer = live ? h.dealer : (t.next_dealer !== undefined && t.next_dealer !== null ? t.next_dealer : (h ? h.dealer : t.button));
      for (var n = 1; n <= 6; n++) {
        var seat = bySeat[n];
        var p = live ? inHand[n] : null;
        var classes = "seat s" + n;
        var badges = el("span", { class: "badges" });
        if (!seat) {
          box.appendChild(el("div", { class: classes + " empty", "aria-label": "Seat " + n + ": empty" },
            el("span", { class: "num", text: String(n) }), el("span", { class: "name", text: "empty" })));
          continue;
        }
        if (p) {
          classes += " " + p.status;
          if (h.to_act === n && h.phase === "betting") classes += " to-act";
          badges.appendChild(el("span", { class: "badge " + (p.blind ? "blind" : "open"), text: p.blind ? "blind" : "open" }));
          if (p.looked) badges.appendChild(el("span", { class: "badge", text: "looked" }));
          if (p.status !== "active") badges.appendChild(el("span", { class: "badge " + p.status, text: p.status }));
          if (p.hands === 2) badges.appendChild(el("span", { class: "badge", text: "two hands" }));
        } else if (seat.sitting_out) {
          badges.appendChild(el("span", { class: "badge", text: "sitting out" }));
        }
        var stack = p ? p.stack : seat.stack;
        var label = "Seat " + n + ": " + seat.player.name + ", " + stack + (p ? ", " + (p.blind ? "blind" : "open") + ", " + p.status : "") +
          (h && h.to_act === n && live ? ", to act" : "") + (dealer === n ? ", dealer" : "");
        if (dealer === n) badges.insertBefore(el("span", { class: "button-chip", title: "Dealer", text: "D" }), badges.firstChild);
        box.appendChild(el("div", { class: classes, "aria-label": label },
          el("span", { class: "num", text: String(n) }),
          el("span", { class: "name", text: seat.player.name }),
          el("span", { class: "stack", text: String(stack) }),
          p && p.paid ? el("span", { class: "paid", text: "in: " + p.paid }) : null,
          badges));
      }
    }

    function renderCentre() {
      var box = clear($("#centre"));
      var h = hand();
      var currency = T.table.event.currency;
      if (!h) {
        box.appendChild(el("p", { text: "No hand yet." + (view().carried.pot ? " Carried pot " + view().carried.pot + " " + currency + "." : "") }));
        return;
      }
      box.appendChild(el("p", { class: "hand-no", text: "Hand " + h.number + (h.status === "settled" ? " · settled" : " · " + h.phase) }));
      h.pots.forEach(function (pot, i) {
        var covered = pot.coverers && pot.coverers.length ? " (covered by " + pot.coverers.map(function (s) { return seatLabel(h, s); }).join(", ") + ")" : "";
        box.appendChild(el("p", { class: "pot", text: (h.pots.length > 1 ? "Pot " + (i + 1) : "Pot") + ": " + pot.amount + " " + currency + covered }));
      });
      if (h.carried && h.carried.pot) box.appendChild(el("p", { text: "Includes a carried pot of " + h.carried.pot }));
      if (h.status === "in_progress") box.appendChild(el("p", { class: "stake", text: h.stake ? "Stake: " + h.stake + " (open)" : "No bet yet" }));
    }

    /* The dealer's own last entry, and "Take back…" while it is the hand's latest entry: nothing
     * entered after it (by this tablet or another), the hand still in play, nothing waiting to
     * be sent. Anything further back is the supervisor's undo (hands.services.hand_take_back). */
    function renderLastEntry() {
      var box = clear($("#last-entry"));
      var h = hand();
      var e = T.lastEntry;
      var mine = !!(h && e && e.hand === h.id && e.seq === h.next_seq - 1);
      var show = mine && h.status === "in_progress" && !T.queue.length && !T.sending && !isSupervisor();
      box.hidden = !show;
      if (!show) return;
      box.appendChild(el("span", { class: "last-text" }, "Last entry: ", el("strong", { text: e.label })));
      box.appendChild(el("button", { type: "button", id: "take-back", class: "small", text: "Take back\u2026", onclick: takeBack }));
    }

    function legalFor(h, filter) {
      return (h.legal_actions || []).filter(filter);
    }

    function renderBar() {
      var bar = clear($("#bar"));
      var h = hand();
      if (!h || h.status !== "in_progress" || h.phase === "showing") { bar.hidden = true; return; }
      bar.hidden = false;
      var waiting = T.queue.length > 0 && !h.offline;
      if (waiting) {
        bar.appendChild(el("p", { class: "muted", text: "Waiting for the queued actions to be sent…" }));
        return;
      }
      var legal = h.legal_actions || [];
      // Two hands: keep or throw in, before anything else.
      if (h.pending !== null && h.pending !== undefined) {
        var who = seatLabel(h, h.pending);
        bar.appendChild(el("h2", { text: who + " looked: keep or throw in?" }));
        var row = el("div", { class: "row" });
        legal.filter(function (a) { return a.allowed && a.seat === h.pending; }).forEach(function (a) {
          if (a.action === "keep") row.appendChild(el("button", { type: "button", class: "primary", text: "Keep", onclick: function () { enqueue("action", { action: "keep", seat: a.seat }, who + " keeps"); } }));
          if (a.action === "discard") (a.hands || []).forEach(function (which) {
            row.appendChild(el("button", { type: "button", text: "Throw in the " + which + " hand", onclick: function () { enqueue("action", { action: "discard", seat: a.seat, hand: which }, who + " throws in the " + which + " hand"); } }));
          });
        });
        bar.appendChild(row);
        return;
      }
      if (h.phase === "choosing") {
        legal.filter(function (a) { return a.allowed && a.action === "discard"; }).forEach(function (a) {
          var chooser = seatLabel(h, a.seat);
          bar.appendChild(el("h2", { text: chooser + ": which hand to throw in?" }));
          var row2 = el("div", { class: "row" });
          (a.hands || []).forEach(function (which) {
            row2.appendChild(el("button", { type: "button", text: "Throw in the " + which + " hand", onclick: function () { enqueue("action", { action: "discard", seat: a.seat, hand: which }, chooser + " throws in the " + which + " hand"); } }));
          });
          bar.appendChild(row2);
        });
        return;
      }
      // Who looked (any player may look, one tap each).
      var looks = legal.filter(function (a) { return a.action === "look" && a.allowed; });
      if (looks.length) {
        var lookRow = el("div", { class: "row looks" }, el("span", { class: "row-label", text: "Looked:" }));
        looks.forEach(function (a) {
          var name = seatLabel(h, a.seat);
          if (a.hands && a.hands.length) {
            a.hands.forEach(function (which) {
              lookRow.appendChild(el("button", { type: "button", class: "small", text: name + " (" + which + ")", onclick: function () { enqueue("action", { action: "look", seat: a.seat, hand: which }, name + " looks at the " + which + " hand"); } }));
            });
          } else {
            lookRow.appendChild(el("button", { type: "button", class: "small", text: name, onclick: function () { enqueue("action", { action: "look", seat: a.seat }, name + " looks"); } }));
          }
        });
        var simple = looks.filter(function (a) { return !(a.hands && a.hands.length); });
        if (simple.length > 1) {
          lookRow.appendChild(el("button", {
            type: "button", class: "small", text: "Everyone looked", onclick: function () {
              simple.forEach(function (a) { enqueue("action", { action: "look", seat: a.seat }, seatLabel(h, a.seat) + " looks"); });
            }
          }));
        }
        bar.appendChild(lookRow);
      }
      // The player to act.
      var seat = h.to_act;
      if (seat === null || seat === undefined) return;
      var name = seatLabel(h, seat);
      bar.appendChild(el("h2", { class: "to-act-title", text: name + " to act" }));
      var mine = {};
      legal.forEach(function (a) { if (a.seat === seat || (a.seat === null && a.action === "showdown")) mine[a.action] = a; });
      var row3 = el("div", { class: "row" });
      if (mine.fold && mine.fold.allowed) {
        row3.appendChild(el("button", { type: "button", class: "danger", text: "Fold", onclick: function () { enqueue("action", { action: "fold", seat: seat }, name + " folds"); } }));
      }
      if (mine.see) {
        if (mine.see.allowed) {
          row3.appendChild(el("button", { type: "button", text: "See for " + mine.see.cost, onclick: function () { enqueue("action", { action: "see", seat: seat, amount: mine.see.cost }, name + " sees for " + mine.see.cost); } }));
        } else {
          row3.appendChild(el("button", { type: "button", disabled: true, "aria-disabled": "true", title: mine.see.reason, text: "See" }));
          row3.appendChild(el("span", { class: "reason", text: mine.see.reason }));
        }
      }
      if (mine.cover && mine.cover.allowed) {
        row3.appendChild(el("button", { type: "button", text: "Cover for " + mine.cover.cost, onclick: function () { enqueue("action", { action: "cover", seat: seat, amount: mine.cover.cost }, name + " covers for " + mine.cover.cost); } }));
      }
      if (mine.showdown && mine.showdown.allowed) {
        row3.appendChild(el("button", { type: "button", text: "Agreed showdown", onclick: function () { enqueue("action", { action: "showdown" }, "agreed showdown"); } }));
      }
      bar.appendChild(row3);
      var bet = mine.bet;
      if (bet && bet.allowed) bar.appendChild(betControl(h, seat, name, bet));
      else if (bet && bet.reason) bar.appendChild(el("p", { class: "reason", text: "Bet: " + bet.reason }));
      if (isSupervisor() && h.actions && h.actions.length) {
        bar.appendChild(el("div", { class: "row" }, el("button", { type: "button", class: "link", text: "Undo the last action…", onclick: undo })));
      }
    }

    /* The bet: a stepper and quick chips in units of the day's minimum bet, up to the most the
     * engine allows. What the dealer types is never changed: an amount out of the legal range
     * is refused in place, with the range, and cannot be entered. */
    function betChips(lo, hi, unit) {
      var chips = [lo];
      for (var v = (Math.floor(lo / unit) + 1) * unit; v < hi; v += unit) chips.push(v);
      if (hi > lo) chips.push(hi);
      return chips;
    }

    function betControl(h, seat, name, bet) {
      var lo = bet.min_amount, hi = bet.max_amount;
      var unit = Math.max(1, Number(h.rules && h.rules.min_bet) || 1);
      // Each player starts from their own least legal amount: an amount chosen for the player
      // before (say 10 open) is not carried over to the next (a blind player's least may be 5).
      var who = h.id + ":" + seat;
      if (T.betFor !== who) { T.betFor = who; T.betAmount = null; T.betText = null; }
      if (T.betAmount === null || T.betAmount < lo || T.betAmount > hi) T.betAmount = lo;
      var input = el("input", { type: "text", id: "bet-amount", value: T.betText !== null ? T.betText : T.betAmount, inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", "aria-describedby": "bet-range bet-error" });
      var submit = el("button", { type: "button", class: "primary", id: "bet-submit" });
      var problem = el("p", { id: "bet-error", class: "error", role: "alert" });
      var range = "from " + lo + " to " + hi;
      function check(text) {
        text = String(text).trim();
        if (!/^[0-9]+$/.test(text)) return "Enter a whole amount " + range + ".";
        var v = Number(text);
        if (v < lo) return v + " is less than the least bet: bet " + range + ".";
        if (v > hi) return v + " is more than the most: bet " + range + ".";
        return "";
      }
      function show(v) {
        var wrong = check(input.value);
        problem.textContent = wrong;
        input.setAttribute("aria-invalid", wrong ? "true" : "false");
        submit.disabled = !!wrong;
        submit.textContent = wrong ? "Bet" : "Bet " + v + (bet.blind ? " blind (stake " + 2 * v + ")" : "");
      }
      function set(v) {
        T.betAmount = v;
        T.betText = null;
        input.value = v;
        show(v);
      }
      input.addEventListener("input", function () {
        T.betText = input.value;
        if (!check(input.value)) T.betAmount = Number(input.value);
        show(Number(input.value));
      });
      show(check(input.value) ? input.value : Number(input.value));
      submit.addEventListener("click", function () {
        if (check(input.value)) return;
        var v = Number(input.value);
        T.betAmount = null;
        T.betText = null;
        enqueue("action", { action: "bet", seat: seat, amount: v }, name + " bets " + v + (bet.blind ? " blind" : ""));
      });
      var chips = betChips(lo, hi, unit);
      var quick = el("div", { class: "row quick", role: "group", "aria-label": "Quick amounts" });
      chips.forEach(function (v) {
        quick.appendChild(el("button", { type: "button", class: "chip", "data-amount": v, text: String(v), onclick: function () { set(v); } }));
      });
      function step(dir) {
        var now = check(input.value) ? T.betAmount : Number(input.value);
        var next = dir > 0 ? (Math.floor(now / unit) + 1) * unit : (Math.ceil(now / unit) - 1) * unit;
        set(Math.max(lo, Math.min(hi, next)));
      }
      return el("div", { class: "bet" },
        el("div", { class: "bet-head" },
          el("label", { for: "bet-amount", text: "Bet amount" }),
          el("span", { id: "bet-range", class: "muted", text: "from " + lo + " to " + hi + (bet.blind ? " (blind: the stake becomes twice the bet)" : "") })),
        el("div", { class: "row bet-row" },
          el("div", { class: "row stepper" },
            el("button", { type: "button", "aria-label": unit + " less", text: "\u2212", onclick: function () { step(-1); } }),
            input,
            el("button", { type: "button", "aria-label": unit + " more", text: "+", onclick: function () { step(1); } })),
          quick),
        problem,
        submit);
    }

    function usedCards(h) {
      var used = {};
      (h.actions || []).forEach(function (a) {
        if (a.cards) a.cards.split(" ").forEach(function (c) { used[c] = true; });
      });
      return used;
    }

    function renderShowdown() {
      var box = clear($("#showdown"));
      var h = hand();
      if (!h || h.status !== "in_progress" || h.phase !== "showing" || (T.queue.length && !h.offline)) { box.hidden = true; return; }
      box.hidden = false;
      var seat = h.cards_needed[0];
      var name = seatLabel(h, seat);
      var used = usedCards(h);
      box.appendChild(el("h2", { text: "Showdown: enter " + name + "'s three cards" }));
      if (h.cards_needed.length > 1) box.appendChild(el("p", { class: "muted", text: "Then: " + h.cards_needed.slice(1).map(function (s) { return seatLabel(h, s); }).join(", ") }));
      var grid = el("div", { class: "cards", role: "group", "aria-label": "Cards" });
      SUITS.forEach(function (suit) {
        var row = el("div", { class: "card-row suit-" + suit[0] });
        RANKS.forEach(function (rank) {
          var code = rank + suit[0];
          var chosen = T.picked.indexOf(code) >= 0;
          row.appendChild(el("button", {
            type: "button",
            class: "card" + (chosen ? " chosen" : ""),
            "data-card": code,
            disabled: used[code] ? true : false,
            "aria-pressed": chosen ? "true" : "false",
            "aria-label": cardText(code) + (used[code] ? " (already shown)" : ""),
            text: cardText(code),
            onclick: function () {
              if (chosen) T.picked.splice(T.picked.indexOf(code), 1);
              else if (T.picked.length < 3) T.picked.push(code);
              renderShowdown();
            }
          }));
        });
        grid.appendChild(row);
      });
      box.appendChild(grid);
      box.appendChild(el("p", { class: "picked", text: "Picked: " + (T.picked.length ? T.picked.map(cardText).join(" ") : "none") }));
      box.appendChild(el("button", {
        type: "button", class: "primary", id: "show-submit", disabled: T.picked.length !== 3 ? true : false,
        text: "Show " + name + "'s cards", onclick: function () {
          enqueue("cards", { seat: seat, cards: T.picked.join(" ") }, name + " shows " + T.picked.map(cardText).join(" "));
        }
      }));
      // A player who saw, or covered, may give up once the hand against them is shown: the
      // engine offers it only then (RULES: a seer who cannot win need not show).
      legalFor(h, function (a) { return a.allowed && a.action === "concede"; }).forEach(function (a) {
        var who = seatLabel(h, a.seat);
        box.appendChild(el("button", {
          type: "button", class: "give-up", "data-seat": a.seat, text: who + " gives up (cards stay hidden)",
          onclick: function () { enqueue("action", { action: "concede", seat: a.seat }, who + " gives up without showing"); }
        }));
      });
    }

    function renderResult() {
      var box = clear($("#result"));
      var h = hand();
      if (!h || h.status !== "settled" || !h.result) { box.hidden = true; return; }
      box.hidden = false;
      box.appendChild(el("h2", { text: "Hand " + h.number + " result" }));
      var shown = h.result.shown || {};
      Object.keys(shown).forEach(function (seat) {
        box.appendChild(el("p", null, seatLabel(h, Number(seat)) + " showed ",
          el("span", { class: "nowrap", text: shown[seat].cards.split(" ").map(cardText).join(" ") }), " \u2014 ",
          el("span", { class: "nowrap", text: shown[seat].hand })));
      });
      (h.result.conceded || []).forEach(function (seat) {
        box.appendChild(el("p", { text: seatLabel(h, seat) + " gave up without showing" }));
      });
      (h.result.pots || []).forEach(function (pot) {
        var winners = Object.keys(pot.shares || {}).filter(function (s) { return pot.shares[s] > 0; });
        if (!winners.length) {
          // A carried pot or a misdeal: the engine's sentence says it all.
          box.appendChild(el("p", { class: "win", text: pot.explanation || (pot.how === "misdeal" ? "Misdeal" : "The pot of " + pot.amount + " is carried to the next hand.") }));
          return;
        }
        var names = winners.map(function (s) { return seatLabel(h, Number(s)); });
        var won = winners.map(function (s, i) { return names[i] + " wins " + pot.shares[s]; }).join(", ");
        box.appendChild(el("p", { class: "win", text: won + (pot.rake ? " (house fee " + pot.rake + ")" : "") }));
        var why = resultReason(h, pot, names);
        if (why) box.appendChild(el("p", { class: "why", text: why }));
      });
    }

    /* Why a pot was won: the engine's explanation less what the line above it says. The
     * explanation ends with who wins what ("… Anna (seat 4) wins 58.", engine/state.py _pay),
     * and a fold win starts with it too ("Anna (seat 4) wins: everyone else folded."). */
    function resultReason(h, pot, names) {
      var text = pot.explanation || "";
      var order = (pot.winners || []).map(function (s) { return seatLabel(h, Number(s)); });
      var summary = order.join(", ") + (order.length > 1 ? " win " : " wins ") + (pot.amount - (pot.rake || 0)) +
        (pot.rake ? " (rake " + pot.rake + ")" : "") + ".";
      if (text.slice(-summary.length) === summary) text = text.slice(0, -summary.length).trim();
      // An agreed showdown's explanation lists every hand again: the lines above show them.
      text = text.replace(/^Agreed showdown \(.*\): best hand /, "Agreed showdown: the best hand is ");
      names.forEach(function (name) {
        var head = name + " wins: ";
        if (text.indexOf(head) === 0) text = text.charAt(head.length).toUpperCase() + text.slice(head.length + 1);
      });
      return text;
    }

    function renderBetween() {
      var box = clear($("#between"));
      var next = clear($("#next"));
      var h = hand();
      if (h && h.status === "in_progress") { box.hidden = true; next.hidden = true; return; }
      box.hidden = false;
      // Above the result, so that a long showdown never pushes it out of sight.
      next.hidden = false;
      var t = view();
      if (T.queue.length && !T.projected) {
        // Settled on the tablet, but its engine is not loaded: wait for the queue to be sent.
        next.appendChild(el("p", { class: "muted", text: "The hand is settled on the tablet; the next hand starts once the queued actions are sent." }));
        return;
      }
      if (t.shuffle_next) next.appendChild(el("p", { class: "reminder", role: "note", text: "Shuffle the deck before dealing this hand." }));
      if (t.carried && t.carried.pot) next.appendChild(el("p", { class: "muted", text: "Carried to the next hand: a pot of " + t.carried.pot + "." }));
      next.appendChild(el("button", { type: "button", class: "primary", id: "start-hand", text: "Start the next hand", onclick: startHand }));
      if (T.queue.length) {
        // Seats change through the server alone: not while entries wait to be sent.
        box.appendChild(el("p", { class: "muted", text: "Stacks as the tablet computed them. Seats can be changed once the queued entries are sent." }));
        var plain = el("ul", { class: "seat-admin" });
        t.seats.forEach(function (s) {
          plain.appendChild(el("li", null, el("span", { text: "Seat " + s.number + ": " + s.player.name + " · " + s.stack + (s.sitting_out ? " · sitting out" : "") })));
        });
        box.appendChild(plain);
        return;
      }
      var list = el("ul", { class: "seat-admin" });
      var taken = {};
      T.table.seats.forEach(function (s) {
        taken[s.number] = s;
        var row = el("li", null, el("span", { text: "Seat " + s.number + ": " + s.player.name + " · " + s.stack + (s.sitting_out ? " · sitting out" : "") }));
        row.appendChild(el("button", { type: "button", class: "small", text: s.sitting_out ? "Back in" : "Sit out", onclick: function () { write("/seats/" + s.id + "/sit-out/", { sitting_out: !s.sitting_out }); } }));
        row.appendChild(el("button", { type: "button", class: "small", text: "Leave", onclick: function () { leave(s); } }));
        if (runOut(s)) row.appendChild(el("button", { type: "button", class: "small", text: "Re-buy…", onclick: function () { rebuy(s); } }));
        list.appendChild(row);
      });
      for (var n = 1; n <= 6; n++) {
        if (taken[n]) continue;
        (function (number) {
          list.appendChild(el("li", null, el("span", { text: "Seat " + number + ": empty" }),
            el("button", { type: "button", class: "small", text: "Buy in…", onclick: function () { buyIn(number); } })));
        })(n);
      }
      box.appendChild(list);
    }

    function renderLog() {
      var list = clear($("#log-list"));
      var h = hand();
      ((h && h.actions) || []).forEach(function (a) {
        var who = a.seat ? seatLabel(h, a.seat) + " " : "";
        var what = (a.action === "concede" ? "gives up" : a.action) + (a.amount !== undefined && a.amount !== null ? " " + a.amount : "") + (a.hand ? " (" + a.hand + ")" : "") + (a.cards ? " " + a.cards.split(" ").map(cardText).join(" ") : "");
        list.appendChild(el("li", { text: who + what }));
      });
    }

    // ---------------------------------------------------------------- dialogs

    function undo() {
      var h = hand();
      var reason = el("input", { name: "reason", required: true, autocomplete: "off" });
      dialog("Undo the last action", [el("label", null, "Why? (required) ", reason)], "Undo", function () {
        var text = reason.value.trim();
        if (!text) return "Say why the action is undone.";
        return write("/hands/" + h.id + "/void/", { reason: text, expected_seq: h.next_seq }, "You undid the last action (" + text + "); the screen shows the hand now.", true);
      });
    }

    var TAKE_BACK_REASONS = [["wrong_seat", "Wrong seat"], ["wrong_amount", "Wrong amount"], ["wrong_action", "Wrong action"], ["other", "Other"]];

    /* One tap on the reason takes the entry back (a void on the hand's record, the money
     * reversed); a refusal (the hand moved on, or settled) is said in the dialog. */
    function takeBack() {
      var h = hand();
      var e = T.lastEntry;
      if (!h || !e) return;
      var row = el("div", { class: "row reasons", role: "group", "aria-label": "Why?" });
      var parts = dialog("Take back \u201c" + e.label + "\u201d?", [el("p", { text: "Why? Tap the reason: the entry is taken back and the hand goes on from before it." }), row], null, null);
      TAKE_BACK_REASONS.forEach(function (r) {
        row.appendChild(el("button", {
          type: "button", class: "reason-choice", text: r[1], onclick: function () {
            var all = row.querySelectorAll("button");
            Array.prototype.forEach.call(all, function (b) { b.disabled = true; });
            write("/hands/" + h.id + "/take-back/", { reason: r[0], expected_seq: h.next_seq },
              "Taken back: " + e.label + " (" + r[1].toLowerCase() + "). Enter it again as it should be.", true).then(function (reason) {
              Array.prototype.forEach.call(all, function (b) { b.disabled = false; });
              if (reason) { parts.error.textContent = reason; return; }
              T.lastEntry = null;
              if (parts.dialog.open) parts.dialog.close();
              render();
            });
          }
        }));
      });
    }

    function buyIn(number) {
      var rules = (hand() && hand().rules) || null;
      api("GET", "/events/" + T.table.event.id + "/standings/").then(function (res) {
        var seated = {};
        T.table.seats.forEach(function (s) { seated[s.player.id] = true; });
        var select = el("select", { name: "player", required: true });
        // Only players seated nowhere (here or at another table).
        ((res.data && res.data.standings) || []).forEach(function (p) {
          if (!seated[p.player] && (p.table === null || p.table === undefined)) select.appendChild(el("option", { value: p.player, text: p.name + " (" + p.total + ")" }));
        });
        var amount = el("input", { name: "amount", type: "number", min: 0, step: 1, required: true, inputmode: "numeric", value: rules ? rules.table_min : "" });
        dialog("Buy in at seat " + number, [el("label", null, "Player ", select), el("label", null, "Amount ", amount)], "Buy in", function () {
          if (!select.value) return "Choose a player.";
          if (!/^\d+$/.test(amount.value)) return "Enter a whole amount.";
          return write("/tables/" + T.id + "/seats/", { seat: number, player: Number(select.value), amount: Number(amount.value) }, "", true);
        });
      }, function () { notice("No network: try again.", "error"); });
    }

    /* Leaving cannot be undone from the tablet: asked for once more, saying what it does. */
    function leave(seat) {
      dialog("Leave: " + seat.player.name + ", seat " + seat.number + "?", [
        el("p", { text: seat.player.name + " leaves the table: the stack of " + seat.stack + " goes back to their balance and the seat is free. This cannot be undone here." })
      ], "Leave the table", function () {
        return write("/seats/" + seat.id + "/leave/", {}, seat.player.name + " left seat " + seat.number + ".", true);
      });
    }

    /* A seat that has run out (less than the ante left: it cannot be dealt in), the server's
     * rule for a re-buy (tables.services.seat_rebuy). */
    function runOut(seat) {
      var ante = Number(T.table.rules && T.table.rules.ante) || 0;
      return seat.stack < Math.max(ante, 1);
    }

    /* The re-buy (RULES: the same amount again, between hands, every other seated player
     * agreeing, the house fee again): the amount said before and after. */
    function rebuy(seat) {
      var rules = T.table.rules || {};
      var currency = T.table.event.currency;
      var fee = rules.rebuy_pays_fee ? Number(rules.house_fee) || 0 : 0;
      var amount = "Re-buy " + seat.buy_in + " " + currency + (fee ? " + fee " + fee : " (no fee)");
      var boxes = [];
      var fields = [
        el("p", { class: "amount", id: "rebuy-amount", text: amount }),
        el("p", { class: "muted", text: "From " + seat.player.name + "'s balance: " + (seat.buy_in + fee) + " " + currency + " in all; the stack becomes " + (seat.stack + seat.buy_in) + "." })
      ];
      if (rules.rebuy_needs_consent !== false) {
        fields.push(el("p", { text: "Every other seated player must agree:" }));
        T.table.seats.forEach(function (other) {
          if (other.id === seat.id) return;
          var box = el("input", { type: "checkbox", value: other.player.id });
          boxes.push(box);
          fields.push(el("label", { class: "check" }, box, " " + other.player.name + " agrees"));
        });
      }
      var said = seat.player.name + " re-bought " + seat.buy_in + " " + currency + (fee ? " and paid the fee of " + fee : "") +
        ": the stack at seat " + seat.number + " is " + (seat.stack + seat.buy_in) + ".";
      dialog("Re-buy for " + seat.player.name + ", seat " + seat.number, fields, "Re-buy " + seat.buy_in + " " + currency, function () {
        var consenting = boxes.filter(function (b) { return b.checked; }).map(function (b) { return Number(b.value); });
        return write("/seats/" + seat.id + "/rebuy/", { consenting: consenting }, said, true);
      });
    }

    // ---------------------------------------------------------------- start

    if (window.BragOffline) window.BragOffline.start(function () { reproject(); });
    window.__bragOfflineLog = function () { var h = hand(); return (h && h.actions) || []; };
    window.__bragQueue = function () { return T.queue; };

    function showMe() { if (T.me) $("#who").textContent = whoText(T.me); }

    /* What the tablet kept (IndexedDB): the queue, the table as last seen, who is signed in and
     * the hands' start documents. A reload with no network draws the table from them at once. */
    var restored = Promise.all([
      store.get(QUEUE_KEY),
      store.get(TABLE_KEY),
      store.get("me"),
      window.BragOffline ? window.BragOffline.restore() : null
    ]).then(function (got) {
      var queue = got[0];
      if (!queue) {
        try { queue = JSON.parse(localStorage.getItem(OLD_QUEUE_KEY) || "[]"); } catch (e) { queue = []; }
        T.queue = queue;
        if (queue.length) saveQueue();
        localStorage.removeItem(OLD_QUEUE_KEY);
      }
      T.queue = queue || [];
      if (got[1] && got[1].table && !T.table) { T.table = got[1].table; T.etag = got[1].etag; T.keptAt = got[1].at; T.fromStore = true; }
      T.me = got[2] || null;
      if (T.table) { render(); reproject(); }
    }, function () {
      notice("This tablet cannot read what it stored (IndexedDB): entries are not kept across a reload.", "error");
    });

    restored.then(whoAmI).then(function (me) {
      T.me = me;
      store.set("me", me).catch(function () {});
      return refresh();
    }, function (err) {
      if (!(err instanceof NetworkError)) throw err;
      // No network: the table as last seen, the queue as kept, the engine from the tablet's copy.
      showMe();
      var when = T.keptAt ? " — the table as seen at " + new Date(T.keptAt).toTimeString().slice(0, 5) : "";
      setNet("Offline" + when + (T.queue.length ? " — " + T.queue.length + " queued" : ""), "offline");
      if (!T.table) notice("No network, and this tablet has not seen this table yet: reload when connected.", "error");
    }).then(function () {
      pump();
      window.setInterval(function () {
        if (!T.stopped && !T.sending && !T.queue.length && !($("#dialog") && $("#dialog").open)) refresh();
      }, 2000);
      window.addEventListener("online", function () { pump(); });
    }).catch(function () { setNet("Offline", "offline"); });
  }

  // ------------------------------------------------------------------ offline start-up

  /* The service worker (/tablet/sw.js) keeps the pages, scripts, Pyodide and the engine. It
   * needs a secure origin (HTTPS, or localhost): elsewhere the tablet still works online. The
   * browser checks the worker's script at most once a day (updateViaCache "all": its HTTP cache
   * of one day); a new release brings new cache names. */
  function offlineStartup() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    var line = $("#sw-status"); // not shown: the dealer sees only "offline entry ready" (offline.js)
    navigator.serviceWorker.addEventListener("message", function (event) {
      var msg = event.data || {};
      if (msg.type !== "sw-progress" || !line) return;
      var done = msg.done >= msg.total;
      line.textContent = done ? "Kept on this tablet for offline use." : "Keeping for offline use: " + msg.done + " of " + msg.total + " files…";
    });
    navigator.serviceWorker.register("/tablet/sw.js", { scope: "/tablet/", updateViaCache: "all" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      if (line && navigator.serviceWorker.controller && !line.textContent) line.textContent = "Kept on this tablet for offline use.";
      // The first visit is not seen by the worker: ask it to keep this page for next time.
      if (!navigator.serviceWorker.controller && reg.active) reg.active.postMessage({ type: "keep-page", url: window.location.pathname });
    }).catch(function (err) {
      if (line) line.textContent = "Offline start-up unavailable: " + (err && err.message || err);
    });
  }

  var page = document.body.getAttribute("data-page");
  if (page === "table" || page === "tables") offlineStartup();
  if (page === "login") loginPage();
  else if (page === "tables") tablesPage();
  else if (page === "table") tablePage();
})();
