/* Brag Event: the check-in desk finds players as you type. Without this script the search is
   an ordinary form (type, press Find); with it, each pause in typing asks the same page for
   ?q=… and puts its list of players in place, so the page keeps working either way. Written
   by hand: twenty lines need no library. */
(function () {
  "use strict";
  var input = document.querySelector("[data-desk-search]");
  var results = document.getElementById("desk-results");
  if (!input || !results || !window.fetch || !window.DOMParser) return;
  var timer = null;
  var asked = 0;
  function search() {
    var text = input.value.trim();
    var url = new URL(document.location.href);
    url.hash = "";
    if (text) url.searchParams.set("q", text); else url.searchParams.delete("q");
    var mine = ++asked;
    fetch(url.toString(), { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || mine !== asked) return; // a later search has been asked
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("desk-results");
        if (fresh) results.innerHTML = fresh.innerHTML;
        history.replaceState(null, "", url.pathname + url.search + "#desk");
      })
      .catch(function () { /* the Find button still works */ });
  }
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 200);
  });
})();
