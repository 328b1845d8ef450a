/* The hall's screen: shows one page at a time, round and round, a page of the standings and a
   page of the seat finder in turn (each list going on where it left off), so that the seat
   finder is never more than one page away, however many pages the standings take; keeps the clock and the countdown to the break or the day's end; takes each new
   version of the page in place (live.js), staying on the page it shows. */
(function () {
  "use strict";

  var live = window.BragLive;
  var root = document.getElementById("hall");
  if (!root || !live) return;
  var zone = root.getAttribute("data-time-zone") || undefined;
  var pageMs = parseInt(root.getAttribute("data-page-ms"), 10) || 12000;
  var pollMs = parseInt(root.getAttribute("data-poll-ms"), 10) || 5000;
  var current = 0; // the place in order()

  function slides() {
    return Array.prototype.slice.call(document.querySelectorAll("#slides .slide"));
  }

  /* The pages' turn: standings 1, seats 1, standings 2, seats 2, … until both lists have
     been round once (the shorter one starting again from its first page); the indexes of
     slides(). With no seat finder, the standings alone. */
  function order() {
    var all = slides();
    var standings = [];
    var seats = [];
    all.forEach(function (s, i) {
      (s.classList.contains("seats-slide") ? seats : standings).push(i);
    });
    if (!seats.length || !standings.length) return all.map(function (s, i) { return i; });
    var turn = [];
    for (var i = 0; i < Math.max(standings.length, seats.length); i++) {
      turn.push(standings[i % standings.length], seats[i % seats.length]);
    }
    return turn;
  }

  function show(place) {
    var all = slides();
    var turn = order();
    if (!all.length) return;
    current = ((place % turn.length) + turn.length) % turn.length;
    all.forEach(function (s, i) {
      s.hidden = i !== turn[current];
    });
    var shown = all[turn[current]];
    root.setAttribute("data-slide", shown.getAttribute("data-slide") || "");
    root.setAttribute("data-slides", String(turn.length));
    var pager = document.getElementById("pager");
    if (pager) pager.textContent = turn.length > 1 ? current + 1 + " / " + turn.length : "";
  }

  function inWords(ms) {
    var minutes = Math.max(0, Math.round(ms / 60000));
    if (minutes < 60) return minutes + " min";
    var h = Math.floor(minutes / 60);
    var m = minutes % 60;
    return h + " h" + (m ? " " + (m < 10 ? "0" : "") + m : "");
  }

  function tick() {
    var clock = document.getElementById("clock");
    if (clock) clock.textContent = live.timeIn(zone, false);
    var countdown = document.getElementById("countdown");
    if (!countdown) return;
    var now = Date.now();
    var parts = [];
    var pause = countdown.getAttribute("data-break");
    var end = countdown.getAttribute("data-ends");
    if (pause && Date.parse(pause) > now) parts.push("Break in " + inWords(Date.parse(pause) - now));
    if (end) {
      var left = Date.parse(end) - now;
      parts.push(left > 0 ? "Day ends in " + inWords(left) : "Last hands of the day");
    }
    if (parts.length) countdown.textContent = parts.join(" · ");
  }

  function taken(doc) {
    var key = root.getAttribute("data-slide");
    var theirs = doc.getElementById("hall");
    if (!theirs) return;
    root.replaceChildren.apply(
      root,
      Array.prototype.map.call(theirs.childNodes, function (n) {
        return document.importNode(n, true);
      })
    );
    // The same page again, at the same place in the turn when it is still there.
    var all = slides();
    var turn = order();
    var at = turn[current] !== undefined && all[turn[current]] && all[turn[current]].getAttribute("data-slide") === key
      ? current
      : turn.findIndex(function (i) { return all[i].getAttribute("data-slide") === key; });
    show(at >= 0 ? at : 0);
    tick();
  }

  var lastOk = live.timeIn(zone, true);

  function state(ok) {
    root.classList.toggle("stale", !ok);
    if (ok) lastOk = live.timeIn(zone, true);
    var updated = document.getElementById("updated");
    if (updated) updated.textContent = (ok ? "Updated " : "Not updated since ") + lastOk;
  }

  show(0);
  tick();
  window.setInterval(tick, 1000);
  window.setInterval(function () {
    show(current + 1);
  }, pageMs);
  live.follow(window.location.pathname, pollMs, taken, state);
})();
