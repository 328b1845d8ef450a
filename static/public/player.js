/* A player's own page: kept up to date in place (live.js: the page again when its version
   changes, never a timed reload); says "you have been moved to table N, seat S" when the seat
   changed since the player last looked (remembered on this phone); and remembers on this phone
   who the player is, for "find me" on the standings. */
(function () {
  "use strict";

  var live = window.BragLive;
  var root = document.getElementById("live");
  if (!root || !live) return;
  var player = root.getAttribute("data-player");
  var event = root.getAttribute("data-event");
  var pollMs = parseInt(root.getAttribute("data-poll-ms"), 10) || 15000;
  var seatKey = "brag-seat-" + player;

  function store(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch (e) { /* private mode, storage full: the page works without it */ }
  }

  function stored(key) {
    try {
      return window.localStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }

  store("brag-me-" + event, JSON.stringify({ id: player, name: root.getAttribute("data-name") }));

  function seatNow() {
    var where = document.getElementById("where");
    if (!where) return "";
    var table = where.getAttribute("data-table");
    var seat = where.getAttribute("data-seat");
    return table ? table + "/" + seat : "";
  }

  function checkSeat() {
    var now = seatNow();
    var before = stored(seatKey);
    var notice = document.getElementById("seat-notice");
    if (before === null || !now || before === now) {
      store(seatKey, now);
      if (notice && now === before) notice.replaceChildren();
      return;
    }
    // Seated elsewhere since the player last looked: say so until they say they have seen it.
    var parts = now.split("/");
    var text = (before ? "You have been moved to table " : "You have been seated at table ") +
      parts[0] + ", seat " + parts[1] + ".";
    var p = document.createElement("p");
    p.textContent = text + " ";
    var ok = document.createElement("button");
    ok.type = "button";
    ok.textContent = "Got it";
    ok.addEventListener("click", function () {
      store(seatKey, now);
      notice.replaceChildren();
    });
    p.appendChild(ok);
    if (notice) notice.replaceChildren(p);
  }

  function taken(doc) {
    live.swap(doc, "live");
    root = document.getElementById("live");
    checkSeat();
  }

  function state(ok) {
    var current = document.getElementById("live");
    if (current) current.classList.toggle("stale", !ok);
  }

  checkSeat();
  live.follow(window.location.pathname, pollMs, taken, state);
})();
