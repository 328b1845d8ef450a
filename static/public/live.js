/* Brag Event: keeps a page up to date in place. Asks the server for the page again every few
   seconds naming the version it has (If-None-Match: the page's ETag); a 304 costs nothing, a
   new version is parsed and handed to the page, which replaces what changed. No reload, no
   timed refresh (which moves a reader's place and is announced by screen readers), no
   libraries. */
(function () {
  "use strict";

  /* follow(url, everyMs, onPage, onState): onPage(doc) with each new version, parsed;
     onState(ok) after every try (false: the server did not answer). */
  function follow(url, everyMs, onPage, onState) {
    var etag = null;
    var parser = new DOMParser();

    function again() {
      window.setTimeout(ask, everyMs);
    }

    function ask() {
      var headers = { Accept: "text/html" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (answer) {
          if (answer.status === 304) return null;
          if (!answer.ok) throw new Error("HTTP " + answer.status);
          etag = answer.headers.get("ETag");
          return answer.text();
        })
        .then(function (html) {
          if (html !== null) onPage(parser.parseFromString(html, "text/html"));
          if (onState) onState(true);
        })
        .catch(function () {
          if (onState) onState(false);
        })
        .finally(again);
    }

    // The first answer's ETag: the page in hand is that version; ask from it.
    fetch(url, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (answer) {
        etag = answer.headers.get("ETag");
      })
      .catch(function () {})
      .finally(again);
  }

  /* Replace the element with ``id`` by the one of ``doc`` (if any); true when it changed. */
  function swap(doc, id) {
    var mine = document.getElementById(id);
    var theirs = doc.getElementById(id);
    if (!mine && !theirs) return false;
    if (mine && theirs) {
      if (mine.outerHTML === theirs.outerHTML) return false;
      mine.replaceWith(document.importNode(theirs, true));
      return true;
    }
    return false;
  }

  /* The hall's time (the event's zone, from the page), never the screen's own zone. */
  function timeIn(zone, withSeconds) {
    var options = { hour12: false, timeZone: zone, hour: "2-digit", minute: "2-digit" };
    if (withSeconds) options.second = "2-digit";
    try {
      return new Date().toLocaleTimeString("en-GB", options);
    } catch (e) {
      delete options.timeZone;
      return new Date().toLocaleTimeString("en-GB", options);
    }
  }

  window.BragLive = { follow: follow, swap: swap, timeIn: timeIn };
})();
