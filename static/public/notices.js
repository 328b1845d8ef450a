// Web Push on a player's settings page: subscribe this browser with the server's VAPID key and
// send the subscription (endpoint and keys) to the page, or unsubscribe it.
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) {
    if (box) document.getElementById("push-state").textContent = "This browser cannot show notifications.";
    return;
  }
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var state = document.getElementById("push-state");
  var csrf = box.dataset.csrf;
  function key(b64) {
    var pad = "=".repeat((4 - (b64.length % 4)) % 4);
    var raw = atob((b64 + pad).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }
  function send(fields) {
    var body = new URLSearchParams(fields);
    body.set("form", "push");
    return fetch(location.pathname, {
      method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": csrf }
    }).then(function (r) { if (!r.ok) throw new Error("refused"); });
  }
  function show(subscribed) {
    on.hidden = subscribed; off.hidden = !subscribed;
    state.textContent = subscribed
      ? "Notifications come to this phone or browser."
      : "You can also get these messages as notifications on this phone or browser.";
  }
  navigator.serviceWorker.register(box.dataset.worker).then(function (reg) {
    return reg.pushManager.getSubscription().then(function (sub) { show(!!sub); return reg; });
  }).then(function (reg) {
    on.addEventListener("click", function () {
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(box.dataset.key) })
        .then(function (sub) {
          var j = sub.toJSON();
          return send({ endpoint: j.endpoint, p256dh: j.keys.p256dh, auth: j.keys.auth });
        })
        .then(function () { show(true); })
        .catch(function () { state.textContent = "Notifications were not turned on (the browser said no)."; });
    });
    off.addEventListener("click", function () {
      reg.pushManager.getSubscription().then(function (sub) { return sub && sub.unsubscribe(); })
        .then(function () { return send({ endpoint: "" }); })
        .then(function () { show(false); });
    });
  });
})();
