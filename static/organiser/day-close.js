/* Brag Event — the day close's page (templates/organiser/day_close.html): while the close is
 * queued or running, its status is asked for every second and shown; once it ends, the page
 * is drawn again by the server (the report). */
(function () {
  var box = document.getElementById("closing");
  if (!box) return;
  var words = {"counting": "Waiting for the count", "queued": "Queued", "running": "Running", "done": "Done", "failed": "Failed"};
  var first = box.getAttribute("data-status");
  function poll() {
    fetch(box.getAttribute("data-url"), {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (s) {
      document.getElementById("close-status").textContent = words[s.status] || s.status;
      document.getElementById("close-step").textContent = s.step || "";
      document.getElementById("close-waiting").hidden = !s.waiting;
      document.getElementById("close-percent").textContent = s.progress + "%";
      var bar = document.getElementById("close-progress");
      bar.value = s.progress; bar.textContent = s.progress + "%";
      if (s.status === "queued" || s.status === "running") window.setTimeout(poll, 1000);
      else if (s.status !== first) window.location.reload();  /* the report, drawn by the server */
    }, function () { window.setTimeout(poll, 3000); });
  }
  if (first === "queued" || first === "running") poll();
})();
