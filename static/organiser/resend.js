/* Brag Event: a console form that failed the CSRF check is drawn again on its page
   (brag_event/organiser/csrf.py). This puts what was typed back into that form's fields —
   the form posting to the same address whose hidden fields match what was sent — and brings
   it into view with its button ready. It never sends anything: the person presses the button.
   Passwords and files were not kept (the notice above says so). */
(function () {
  "use strict";
  var data = document.getElementById("resend-data");
  if (!data) return;
  var sent = JSON.parse(data.textContent);
  var fields = sent.fields || {};

  function target(form) {
    return new URL(form.getAttribute("action") || "", document.location.href).pathname;
  }
  function has(name, value) {
    return Object.prototype.hasOwnProperty.call(fields, name) && fields[name].indexOf(value) >= 0;
  }
  function agrees(form) {
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return false;
    if (target(form) !== sent.action) return false;
    var hidden = form.querySelectorAll("input[type=hidden][name]");
    for (var i = 0; i < hidden.length; i++) {
      if (hidden[i].name === "csrfmiddlewaretoken") continue;
      if (!has(hidden[i].name, hidden[i].value)) return false;
    }
    return true;
  }

  var form = Array.prototype.filter.call(document.forms, agrees)[0];
  if (!form) return; // the notice asks for the form to be filled in again

  var seen = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    var name = el.name;
    if (!name || name === "csrfmiddlewaretoken") return;
    var type = (el.type || "").toLowerCase();
    if (["hidden", "password", "file", "submit", "button", "reset"].indexOf(type) >= 0) return;
    var values = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : [];
    if (type === "checkbox" || type === "radio") {
      el.checked = values.indexOf(el.value) >= 0;
    } else if (type === "select-multiple") {
      Array.prototype.forEach.call(el.options, function (o) {
        o.selected = values.indexOf(o.value) >= 0;
      });
    } else if (values.length) {
      var n = seen[name] || 0; // the n-th field of that name gets the n-th value
      seen[name] = n + 1;
      if (n < values.length) el.value = values[n];
    }
  });

  form.classList.add("resend-form");
  for (var up = form.parentElement; up; up = up.parentElement) {
    if (up.tagName === "DETAILS") up.open = true; // a form folded away is shown
  }
  var notice = document.querySelector(".resend");
  notice.querySelector("[data-resend-found]").hidden = false;
  notice.querySelector("[data-resend-lost]").hidden = true;
  var button = form.querySelector("button[type=submit], button:not([type]), input[type=submit]");
  function ready() {
    form.scrollIntoView({ block: "center" });
    if (button) button.focus({ preventScroll: true });
  }
  // After the load: the browser's own move to the address's #fragment (a form's action is
  // often one) comes then and would take the focus away.
  if (document.readyState === "complete") ready();
  else window.addEventListener("load", function () { window.setTimeout(ready, 0); });
})();
