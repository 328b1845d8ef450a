/* Brag Event organisers' dashboard: asks for its live part every few seconds with the ETag of
   the last answer (If-None-Match), so an unchanged dashboard costs a 304 and no re-draw. No
   libraries, nothing from the internet. */
(function () {
  "use strict";

  var live = document.getElementById("live");
  if (!live) return;
  var url = live.getAttribute("data-url");
  var pollMs = parseInt(live.getAttribute("data-poll-ms"), 10) || 5000;
  var updated = document.getElementById("live-updated");
  var etag = live.getAttribute("data-etag") || null; // the version the page was drawn at
  /* The event's time (its zone, from the page), not this computer's. */
  var zone = (updated && updated.getAttribute("data-time-zone")) || undefined;
  var zoneLabel = (updated && updated.getAttribute("data-zone-label")) || zone || "";
  var lastOk = clock(false);

  function clock(seconds) {
    var options = { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: zone };
    if (seconds !== false) options.second = "2-digit";
    try {
      return new Date().toLocaleTimeString("en-GB", options) + " " + zoneLabel;
    } catch (e) { // a browser that does not know the zone: its own clock, said as such
      delete options.timeZone;
      return new Date().toLocaleTimeString("en-GB", options) + " (this computer's time)";
    }
  }

  function poll() {
    var headers = { Accept: "text/html" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 304) return null;
        if (!answer.ok) throw new Error("HTTP " + answer.status);
        etag = answer.headers.get("ETag");
        return answer.text();
      })
      .then(function (html) {
        if (html !== null) live.innerHTML = html; // our own server's escaped template
        live.classList.remove("stale");
        lastOk = clock(false);
        if (updated) updated.textContent = "Updated " + clock();
      })
      .catch(function () {
        live.classList.add("stale");
        if (updated) updated.textContent = "Not updated since " + lastOk + " (trying again)";
      })
      .finally(function () {
        window.setTimeout(poll, pollMs);
      });
  }

  window.setTimeout(poll, pollMs);
})();
