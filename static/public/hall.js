/* The hall's screen: shows one page at a time (the standings, then the seat finder), round and
   round; keeps the clock and the countdown to the break or the day's end; takes each new
   version of the page in place (live.js), staying on the page it shows. */
(function () {
  "use strict";

  var live = window.BragLive;
  var root = document.getElementById("hall");
  if (!root || !live) return;
  var zone = root.getAttribute("data-time-zone") || undefined;
  var pageMs = parseInt(root.getAttribute("data-page-ms"), 10) || 12000;
  var pollMs = parseInt(root.getAttribute("data-poll-ms"), 10) || 5000;
  var current = 0;

  function slides() {
    return Array.prototype.slice.call(document.querySelectorAll("#slides .slide"));
  }

  function show(index) {
    var all = slides();
    if (!all.length) return;
    current = ((index % all.length) + all.length) % all.length;
    all.forEach(function (s, i) {
      s.hidden = i !== current;
    });
    var shown = all[current];
    root.setAttribute("data-slide", shown.getAttribute("data-slide") || "");
    root.setAttribute("data-slides", String(all.length));
    var pager = document.getElementById("pager");
    if (pager) pager.textContent = all.length > 1 ? current + 1 + " / " + all.length : "";
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
    var all = slides();
    var same = all.findIndex(function (s) {
      return s.getAttribute("data-slide") === key;
    });
    show(same >= 0 ? same : 0);
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
