/* The floor on the dealer's tablet (issue 17, RULES §4b): a "Call the floor" button (the table,
 * the hand in play, an optional note) and, after a supervisor's misdeal, "Misdeal — shuffle and
 * deal again". render.js calls BragFloor.render(T, api) at the end of every redraw. */
(function () {
  "use strict";
  var called = null; // when this tablet last called the floor, for the status line

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function key() {
    return "floor-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  function box(id, before) {
    var found = document.getElementById(id);
    if (found) return found;
    found = el("section", { id: id, "class": "floor", "aria-live": "polite" });
    var anchor = document.getElementById(before);
    if (anchor && anchor.parentNode) anchor.parentNode.insertBefore(found, anchor);
    else document.body.appendChild(found);
    return found;
  }

  function renderMisdeal(T) {
    var h = T.table && T.table.hand;
    var result = h && h.status === "settled" && h.result;
    var banner = box("floor-misdeal", "result");
    if (!result || !result.misdeal) { banner.hidden = true; banner.textContent = ""; return; }
    banner.hidden = false;
    banner.setAttribute("role", "alert");
    banner.className = "floor misdeal";
    banner.textContent = "";
    banner.appendChild(el("h2", null, "Misdeal — shuffle and deal again"));
    var reason = result.misdeal.reason ? " (" + result.misdeal.reason + ")" : "";
    banner.appendChild(el("p", null, "Hand " + h.number + " was declared a misdeal" + reason +
      ": every player got back what they paid. The same dealer shuffles and deals the next hand."));
  }

  function renderCall(T, api) {
    var section = document.getElementById("floor-call");
    if (!section) {
      // Under the table (#floor-slot): in the first screen at every tablet size.
      section = el("section", { id: "floor-call", "class": "floor", "aria-live": "polite" });
      var slot = document.getElementById("floor-slot");
      (slot || document.body).appendChild(section);
    }
    if (section.getAttribute("data-ready") === String(T.id)) {
      var status = document.getElementById("floor-status");
      if (status) status.textContent = called ? "Floor called at " + called + "." : "";
      return;
    }
    section.setAttribute("data-ready", String(T.id));
    section.textContent = "";
    var form = el("form", { id: "floor-form", "class": "stack" });
    var label = el("label", { "for": "floor-note", "class": "visually-hidden" }, "Note for the floor (optional)");
    var note = el("input", { id: "floor-note", name: "note", maxlength: "200", autocomplete: "off", placeholder: "Note (optional)" });
    var button = el("button", { type: "submit", id: "call-floor", "class": "floor-button" }, "Call the floor");
    var status = el("p", { id: "floor-status", role: "status" });
    form.appendChild(label);
    form.appendChild(note);
    form.appendChild(button);
    section.appendChild(form);
    section.appendChild(status);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var h = T.table && T.table.hand;
      var body = { note: note.value };
      if (h && h.status === "in_progress") body.hand = h.id;
      button.disabled = true;
      status.textContent = "Calling the floor…";
      api("POST", "/tables/" + T.id + "/floor-calls/", body, key()).then(function (res) {
        button.disabled = false;
        if (res.status === 201) {
          called = new Date().toTimeString().slice(0, 5);
          note.value = "";
          status.textContent = "Floor called at " + called + ": a supervisor is on the way.";
        } else {
          status.textContent = (res.data && res.data.error && res.data.error.message) || "The floor could not be called.";
        }
      }, function () {
        button.disabled = false;
        status.textContent = "No network: call the floor by voice.";
      });
    });
  }

  window.BragFloor = {
    render: function (T, api) {
      if (!T || !T.table) return;
      renderMisdeal(T);
      renderCall(T, api);
    }
  };
})();
