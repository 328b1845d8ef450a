/* Brag Event — the tablet's queue of entries (issue 21): each action gets its Idempotency-Key
 * and expected_seq when tapped, is stored (IndexedDB) before it is sent, and is sent in order
 * when the network allows; a retry never enters twice, and a refusal is shown, not swallowed.
 * T.queue, T.sending, T.retry and T.lastEntry are this module's to change (state.js).
 *
 * sendQueue(T) is the one place an entry goes to the server and its answer is handled
 * (taken, refused, the server busy, no network); retryLater(T) is when it tries again. */
import { $, el, clear, announce, newKey, notice, noticeRead, setNet, seatLabel } from "./dom.js";
import { api, errorOf, toLogin } from "./api.js";
import { hand, view, changed } from "./state.js";
import { applyHand, refresh, onlineText } from "./server.js";
import { saveQueue, reproject, differs, rename, engineReady, rememberHand } from "./offline-glue.js";

/* A tap on an action: queued, drawn at once (from the tablet's engine when entries wait), sent. */
export function enqueue(T, kind, payload, label) {
  noticeRead();
  var h = hand(T);
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
  saveQueue(T);
  T.picked = [];
  changed(T);
  reproject(T, tapped, T.queue[T.queue.length - 1]);
  sendQueue(T);
}

/* The next hand, started on the tablet while the network is gone (or while entries wait):
 * queued like an action, with its own Idempotency-Key (``key``: the one of a start that
 * got no answer, so that a start that did reach the server is not dealt twice). The engine
 * deals it on the tablet; its actions name it by a local id until the server's answer. */
export function enqueueStart(T, key) {
  var tapped = performance.now();
  var t = view(T);
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
  saveQueue(T);
  changed(T);
  reproject(T, tapped, item);
  sendQueue(T);
}

export function startHand(T) {
  noticeRead();
  if (T.queue.length) { enqueueStart(T); return; }
  if (navigator.onLine === false && engineReady() && T.table && T.table.rules) {
    // The browser knows there is no network: the tablet deals the hand without asking (a
    // request it sent anyway could still leave through the service worker; see sendQueue).
    enqueueStart(T);
    return;
  }
  var key = newKey();
  var button = $("#start-hand");
  if (button) button.disabled = true;
  api("POST", "/tables/" + T.id + "/hands/", {}, key).then(function (res) {
    if (button) button.disabled = false;
    if (res.status === 201) {
      notice("");
      // The answer is the table with its new hand, as the table's read answers it, and that
      // read's ETag: drawn at once, and the next poll is a 304.
      // Its start document is kept for the tablet's engine: a drop right after the start
      // finds the hand ready to go on offline.
      if (res.data.start_history) rememberHand(res.data.table_state ? res.data.table_state.hand : res.data, res.data.start_history);
      if (res.data.table_state && res.data.table_etag && !T.queue.length) {
        T.table = res.data.table_state;
        T.etag = res.data.table_etag;
        T.seenAt = Date.now();
        applyHand(T, T.table.hand, true);
        return;
      }
      T.quiet = true;
      return refresh(T).then(function () { T.quiet = false; });
    }
    if (res.status === 401) { toLogin(); return; }
    notice(errorOf(res).message, "error");
  }, function () {
    // No answer: the tablet deals it with its engine and sends the start when it can.
    if (button) button.disabled = false;
    if (engineReady() && T.table && T.table.rules) enqueueStart(T, key);
    else notice("No network, and the tablet's engine is not loaded yet: the hand cannot start. Try again.", "error");
  });
}

/* The server dealt a hand started on the tablet: its entries take the hand's id. */
function named(T, item, dealt) {
  if (!dealt || item.kind !== "start") return;
  T.queue.forEach(function (q) {
    if (q.hand !== item.local) return;
    q.hand = dealt.id;
    q.path = q.path.replace("/hands/" + item.local + "/", "/hands/" + dealt.id + "/");
  });
  rename(item.local, dealt.id);
}

/* Send the queue's first entry and handle the answer: taken (the next one goes at once),
 * refused (the queue stops and says why), the server busy or no network (kept, tried again
 * later: retryLater). Does nothing while an entry is on its way. */
export function sendQueue(T) {
  if (T.sending || !T.queue.length) { renderQueue(T); return; }
  if (navigator.onLine === false) {
    // The browser knows there is no network: nothing is sent (nothing could arrive) until
    // its "online" event, which sends again. (When it only thinks it is online — Wi-Fi
    // up, the hall's network down — the request fails and is retried below.)
    setNet("Offline — " + T.queue.length + " queued", "offline");
    changed(T);
    return;
  }
  T.sending = true;
  renderQueue(T);
  var item = T.queue[0];
  api("POST", item.path, item.body, item.key).then(function (res) {
    T.sending = false;
    if (res.status === 201 || res.status === 200) {
      // An entry's answer is also the table as its read answers it, with that read's ETag
      // (an action's "table", a start's "table_state": a hand's "table" is its table's id):
      // kept, the next poll is a 304 instead of a second rendering of what was just done.
      var table = item.kind === "start" ? res.data.table_state : res.data.table;
      var got = item.kind === "start" ? (table ? table.hand : res.data) : res.data.hand;
      var fresh = !!(table && res.data.table_etag);
      if (fresh) { T.table = table; T.etag = res.data.table_etag; T.seenAt = Date.now(); }
      T.queue.shift();
      named(T, item, got);
      saveQueue(T);
      setNet(onlineText(T), "");
      var why = differs(item.expect, got);
      if (why) {
        // The server is the authority: stop, say both, redraw from the server's hand.
        var notSent = T.queue.splice(0).map(function (d) { return d.label; });
        saveQueue(T);
        T.projected = null;
        notice("The server's answer to \u201c" + item.label + "\u201d differs from the tablet's. " + why +
          (notSent.length ? " Not sent: " + notSent.join(", ") + "." : "") + " The screen shows the server's hand: enter from there.", "warn");
        applyHand(T, got);
        return;
      }
      if (item.kind !== "start" && got) T.lastEntry = { hand: got.id, seq: res.data.seq, label: item.label };
      applyHand(T, got, fresh);
      announce(item.label + (res.replayed ? " (was already entered)" : " entered"));
      sendQueue(T);
      return;
    }
    if (res.status === 401) { toLogin(); return; }
    if (res.status === 429 || res.status >= 500) { setNet("Server busy — " + T.queue.length + " queued", "offline"); retryLater(T, res.retryAfter); changed(T); return; }
    var err = errorOf(res);
    var dropped = T.queue.splice(0);
    saveQueue(T);
    var rest = dropped.slice(1).map(function (d) { return d.label; });
    var tail = rest.length ? " Not sent after it: " + rest.join(", ") + "." : "";
    T.projected = null;
    if (err.code === "stale_sequence") {
      // What the tablet had seen of the hand: whatever the server has beyond it was done
      // elsewhere meanwhile (a supervisor's undo, another tablet's entry), said with who and why.
      var seen = T.table && T.table.hand && T.table.hand.id === item.hand ? T.table.hand.next_seq : item.body.expected_seq;
      if (err.details && err.details.hand) applyHand(T, err.details.hand);
      else refresh(T);
      var entered = dropped.map(function (d) { return "\u201c" + d.label + "\u201d"; }).join(", ");
      doneElsewhere(item.hand, seen).then(function (words) {
        notice((words || "The hand was changed on another device meanwhile.") + " Not entered from this tablet: " + entered +
          ". The screen shows the hand now: enter again from there.", "warn");
      });
    } else {
      notice("Refused: \u201c" + item.label + "\u201d \u2014 " + err.message + tail, "error");
      refresh(T);
    }
  }, function () {
    T.sending = false;
    setNet("Offline — " + T.queue.length + " queued", "offline");
    changed(T);
    retryLater(T);
  });
}

/* Who did what to the hand elsewhere since the tablet last saw it (its ``next_seq`` was
 * ``seen``), in words, from the hand's record (every entry, voids with who and why):
 * "The supervisor Sam Lee took back “Anna (seat 4) bets 10” — reason: wrong amount." Resolves
 * with "" when the record cannot be read (the notice then says less, never nothing). */
function doneElsewhere(handId, seen) {
  return api("GET", "/hands/" + handId + "/").then(function (res) {
    var h = res.status === 200 ? res.data : null;
    if (!h || !h.entries) return "";
    var said = [];
    h.entries.forEach(function (e) {
      var v = e.void;
      if (v && v.seq !== null && v.seq >= seen && e.seq < seen) {
        said.push(person(v.by_role, v.by_name) + " took back \u201c" + entryWords(h, e) + "\u201d \u2014 reason: " + v.reason + ".");
      } else if (e.seq >= seen && !v) {
        said.push(person(e.entered_by_role, e.entered_by_name) + " entered \u201c" + entryWords(h, e) + "\u201d.");
      }
    });
    return said.join(" ");
  }, function () { return ""; });
}

var ROLE_WORDS = { supervisor: "The supervisor", organiser: "The organiser", dealer: "The dealer" };

/* "The supervisor Sam Lee" (a role said once: "The supervisor" for an account named so). */
function person(role, name) {
  var title = ROLE_WORDS[role] || "";
  if (!name) return title || "Someone";
  if (!title) return name;
  return String(name).toLowerCase() === role ? title : title + " " + name;
}

/* An entry of the hand's record as the dealer said it ("Bill (seat 2) bets 3"). */
function entryWords(h, e) {
  var who = e.seat ? seatLabel(h, e.seat) + " " : "";
  var amount = e.amount !== null && e.amount !== undefined ? " " + e.amount : "";
  var words = {
    bet: "bets" + amount, fold: "folds", look: "looks", see: "sees for" + amount, cover: "covers for" + amount,
    show: "shows", concede: "gives up", keep: "keeps", discard: "throws in the " + (e.hand || "") + " hand",
    showdown: "agreed showdown"
  };
  return (who + (words[e.action] || e.action)).trim();
}

/* Try to send again in a while (no network, or the server busy). */
/* Send the queue again later: after the server's Retry-After (seconds) if it gave one. */
export function retryLater(T, seconds) {
  if (T.retry) return;
  T.retry = window.setTimeout(function () { T.retry = null; sendQueue(T); }, Math.max(1500, (seconds || 0) * 1000));
}

/* The entries waiting to be sent, in order: one line under the controls (how many, and the
 * last), the whole list folded under it — so that however many wait, the action bar, the card
 * picker and Show stay in the first screen (tests/tablet/test_offline_first_visit.py). */
export function renderQueue(T) {
  var box = $("#queue");
  var n = T.queue.length;
  box.hidden = !n;
  if (!n) { clear(box); return; }
  var open = box.open;
  clear(box);
  var last = T.queue[n - 1].label;
  box.appendChild(el("summary", null,
    el("strong", { text: (T.sending ? "Sending " : "Waiting to be sent: ") + n + (n === 1 ? " entry" : " entries") }),
    " \u00b7 last: " + last));
  var list = el("ol");
  T.queue.forEach(function (q) { list.appendChild(el("li", { text: q.label })); });
  box.appendChild(list);
  box.open = open;
}
