/* Brag Event standings: re-draws the rows from the API every few seconds, without reloading.
   In the hall's big-screen mode (body.big) it shows as many rows as fit and pages through the
   rest. No libraries, nothing from the internet. */
(function () {
  "use strict";

  var root = document.getElementById("standings");
  if (!root) return;
  var tbody = document.getElementById("rows");
  var updated = document.getElementById("updated");
  var pager = document.getElementById("pager");
  var api = root.getAttribute("data-api");
  var zone = root.getAttribute("data-time-zone") || undefined;
  var zoneLabel = root.getAttribute("data-zone-label") || zone || "";
  var pollMs = parseInt(root.getAttribute("data-poll-ms"), 10) || 5000;
  var pageMs = parseInt(root.getAttribute("data-page-ms"), 10) || 15000;
  var big = document.body.classList.contains("big");
  var grouping = new Intl.NumberFormat("en-GB");
  var last = null; // the last answer's rows, as JSON: re-draw only on a change
  var etag = null; // the ETag of the last answer
  var page = 0;
  var lastOk = clock();

  function money(n) {
    return grouping.format(n || 0);
  }

  function signed(n) {
    if (n > 0) return "+" + money(n);
    if (n < 0) return "\u2212" + money(-n);
    return "0";
  }

  function trend(n) {
    return n > 0 ? "up" : n < 0 ? "down" : "flat";
  }

  function cell(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function rowFor(r) {
    var tr = document.createElement("tr");
    tr.setAttribute("data-player", String(r.player));
    tr.appendChild(cell("td", "num rank", r.disqualified ? "DQ" : String(r.rank)));
    var name = cell("th", "name", r.name);
    name.setAttribute("scope", "row");
    tr.className = "standing-" + (r.standing || "in") + (r.disqualified ? " disqualified" : "");
    if (r.note) {
      name.appendChild(document.createTextNode(" "));
      name.appendChild(cell("span", "mark mark-" + r.standing + (r.disqualified ? " dq" : ""), r.note));
    }
    tr.appendChild(name);
    var m = cell("td", "num money", money(r.total));
    if (r.table !== null && r.table !== undefined) {
      m.appendChild(document.createTextNode(" "));
      m.appendChild(cell("span", "at", "table " + r.table));
    }
    tr.appendChild(m);
    tr.appendChild(cell("td", "num change " + trend(r.change), signed(r.change)));
    tr.appendChild(cell("td", "num played", money(r.hands_played)));
    tr.appendChild(cell("td", "num won", money(r.hands_won)));
    return tr;
  }

  /* The cut line: a row of its own above the first row below the cut. */
  function cutRow(cut) {
    var tr = cell("tr", "cut-line");
    var td = cell("td");
    td.setAttribute("colspan", "6");
    td.appendChild(cell("span", "", cut.text));
    tr.appendChild(td);
    return tr;
  }

  function render(rows, cut) {
    var x = window.scrollX;
    var y = window.scrollY;
    var fragment = document.createDocumentFragment();
    if (!rows.length) {
      var none = cell("tr", "none");
      var td = cell("td", "", "No players registered yet.");
      td.setAttribute("colspan", "6");
      none.appendChild(td);
      fragment.appendChild(none);
    }
    rows.forEach(function (r, i) {
      if (cut && cut.after === i) fragment.appendChild(cutRow(cut));
      fragment.appendChild(rowFor(r));
    });
    if (cut && rows.length && cut.after === rows.length) fragment.appendChild(cutRow(cut));
    tbody.replaceChildren(fragment);
    if (big) showPage();
    else findApply();
    window.scrollTo(x, y); // the rows are re-drawn in place: the reader stays where they were
  }

  function stamp(text) {
    if (updated) updated.textContent = text;
  }

  /* The time where the event is played (its time zone, from the page), never the display's own
     zone: a screen set to another zone shows the hall's time, with the zone's name. */
  function clock() {
    var options = { hour12: false, timeZone: zone };
    try {
      return new Date().toLocaleTimeString("en-GB", options) + " " + zoneLabel;
    } catch (e) { // a browser that does not know the zone: its own clock, said as such
      return new Date().toLocaleTimeString("en-GB", { hour12: false }) + " (this screen's time)";
    }
  }

  /* Each poll names the answer it already has (If-None-Match: its ETag); the server says
     304 when the standings have not changed since, which costs it almost nothing. */
  function unchanged() {
    root.classList.remove("stale");
    lastOk = clock();
    stamp("Updated " + lastOk);
  }

  function poll() {
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(api, { headers: headers, cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 304) return null;
        if (!answer.ok) throw new Error("HTTP " + answer.status);
        etag = answer.headers.get("ETag");
        return answer.json();
      })
      .then(function (data) {
        if (data === null) return unchanged();
        var rows = data.standings || [];
        var cut = data.cut || null;
        var key = JSON.stringify([rows, cut]);
        if (key !== last) {
          last = key;
          render(rows, cut);
        }
        unchanged();
      })
      .catch(function () {
        root.classList.add("stale");
        stamp("Not updated since " + lastOk + " (trying again)");
      })
      .finally(function () {
        window.setTimeout(poll, pollMs);
      });
  }

  /* Big screen: as many rows as fit below the heading, one page at a time. */
  function perPage() {
    var rows = tbody.querySelectorAll("tr");
    if (!rows.length) return 1;
    var table = tbody.closest("table");
    var top = tbody.getBoundingClientRect().top;
    var rowHeight = rows[0].getBoundingClientRect().height || 1;
    if (rows[0].hidden) {
      rows[0].hidden = false;
      rowHeight = rows[0].getBoundingClientRect().height || 1;
    }
    var room = window.innerHeight - top - 8;
    if (table) room -= table.getBoundingClientRect().bottom - tbody.getBoundingClientRect().bottom;
    return Math.max(1, Math.floor(room / rowHeight));
  }

  function showPage() {
    var rows = Array.prototype.slice.call(tbody.querySelectorAll("tr"));
    rows.forEach(function (tr) {
      tr.hidden = false;
    });
    var n = perPage();
    var pages = Math.max(1, Math.ceil(rows.length / n));
    if (page >= pages) page = 0;
    rows.forEach(function (tr, i) {
      tr.hidden = Math.floor(i / n) !== page;
    });
    if (pager) pager.textContent = pages > 1 ? "Page " + (page + 1) + " of " + pages : "";
    root.setAttribute("data-page", String(page + 1));
    root.setAttribute("data-pages", String(pages));
  }

  /* Find me (phones and the standings page, never the hall): the rows whose name has what is
     typed, as it is typed; the player's own row (remembered by their own page on this phone)
     marked, and one tap away. Hand-written: a filter over a few hundred rows needs no library. */
  var find = document.getElementById("find");
  var findSaid = document.getElementById("find-said");
  var meButton = document.getElementById("find-me");
  var me = null;
  try {
    me = JSON.parse(window.localStorage.getItem("brag-me-" + root.getAttribute("data-event")) || "null");
  } catch (e) {
    me = null;
  }

  function folded(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function nameOf(tr) {
    var th = tr.querySelector("th.name");
    return th ? th.firstChild ? th.firstChild.textContent : th.textContent : "";
  }

  function findApply() {
    var rows = Array.prototype.slice.call(tbody.querySelectorAll("tr"));
    rows.forEach(function (tr) {
      tr.classList.toggle("me", !!me && tr.getAttribute("data-player") === String(me.id));
    });
    if (!find) return;
    var wanted = folded(find.value);
    var shown = 0;
    rows.forEach(function (tr) {
      if (!tr.hasAttribute("data-player")) {
        tr.hidden = wanted !== ""; // the cut line and "no players": only in the whole list
        return;
      }
      var hit = wanted === "" || folded(nameOf(tr)).indexOf(wanted) !== -1;
      tr.hidden = !hit;
      if (hit) shown += 1;
    });
    if (findSaid) {
      findSaid.textContent = wanted === "" ? "" :
        shown === 0 ? "Nobody's name has \u201c" + find.value.trim() + "\u201d." :
        shown + " player" + (shown === 1 ? "" : "s") + " found.";
    }
  }

  if (find) {
    find.addEventListener("input", findApply);
    if (me && meButton) {
      meButton.textContent = "Me: " + me.name;
      meButton.hidden = false;
      meButton.addEventListener("click", function () {
        find.value = "";
        findApply();
        var mine = tbody.querySelector('tr[data-player="' + String(me.id) + '"]');
        if (mine) {
          mine.scrollIntoView({ block: "center" });
          mine.classList.add("flash");
          window.setTimeout(function () { mine.classList.remove("flash"); }, 2000);
        }
      });
    }
    findApply();
  }

  if (big) {
    showPage();
    window.addEventListener("resize", showPage);
    window.setInterval(function () {
      page += 1;
      showPage();
    }, pageMs);
  }
  stamp("Updated " + lastOk); // the page's rows are the current figures (they may be cached)
  window.setTimeout(poll, pollMs);
})();
