/* Brag Event — the table page's dialogs: undo (a supervisor's), take back (the dealer's last
 * entry), buy in, leave and re-buy. Each asks, then writes through table.write. */
import { $, el, clear, notice } from "./dom.js";
import { api } from "./api.js";
import { hand, changed } from "./state.js";
import { write } from "./server.js";

/* A modal dialog: its title, fields and submit button. onSubmit(form) returns a problem in
 * words (the dialog stays open and says it), nothing (it closes), or a Promise of either. */
function dialog(title, fields, submitText, onSubmit) {
  var dlg = $("#dialog");
  var form = clear($("#dialog-form"));
  form.appendChild(el("h2", { id: "dialog-title", text: title }));
  fields.forEach(function (f) { form.appendChild(f); });
  var error = el("p", { class: "error", role: "alert" });
  form.appendChild(error);
  // A refusal said for what was asked before goes once the dealer changes the answer.
  // (On input, not on change: a change fires as the field loses focus to the tap on the
  // button, and the dialog would shrink under the finger.)
  form.oninput = function () { error.textContent = ""; };
  form.appendChild(el("div", { class: "row" },
    el("button", { type: "button", onclick: function () { dlg.close(); }, text: "Cancel" }),
    submitText && el("button", {
      type: "submit", class: "primary", text: submitText, onclick: function (ev) {
        ev.preventDefault();
        var problem = onSubmit(form);
        if (problem && typeof problem.then === "function") {
          // The dialog stays open until the server answers; a refusal is shown in it.
          var button = ev.target;
          button.disabled = true;
          problem.then(function (reason) {
            button.disabled = false;
            if (reason) { error.textContent = reason; return; }
            if (dlg.open) dlg.close();
          });
          return;
        }
        if (problem) { error.textContent = problem; return; }
        dlg.close();
      }
    })));
  dlg.showModal();
  return { dialog: dlg, error: error };
}

/* The agreed showdown ends the hand for everyone: asked once, naming who agrees. */
export function agreedShowdown(names, onYes) {
  dialog("Agreed showdown?", [
    el("p", { text: "Every player still in agrees to show now: " + names.join(", ") + "." }),
    el("p", { text: "All their hands are shown and the best hand wins the pot. Betting ends for everyone." })
  ], "Yes, everyone agrees", function () { onYes(); });
}

export function undo(T) {
  var h = hand(T);
  var reason = el("input", { name: "reason", required: true, autocomplete: "off" });
  dialog("Undo the last action", [el("label", null, "Why? (required) ", reason)], "Undo", function () {
    var text = reason.value.trim();
    if (!text) return "Say why the action is undone.";
    return write(T, "/hands/" + h.id + "/void/", { reason: text, expected_seq: h.next_seq }, "You undid the last action (" + text + "); the screen shows the hand now.", true);
  });
}

var TAKE_BACK_REASONS = [["wrong_seat", "Wrong seat"], ["wrong_amount", "Wrong amount"], ["wrong_action", "Wrong action"], ["other", "Other"]];

/* One tap on the reason takes the entry back (a void on the hand's record, the money
 * reversed); a refusal (the hand moved on, or settled) is said in the dialog. */
export function takeBack(T) {
  var h = hand(T);
  var e = T.lastEntry;
  if (!h || !e) return;
  var row = el("div", { class: "row reasons", role: "group", "aria-label": "Why?" });
  var parts = dialog("Take back \u201c" + e.label + "\u201d?", [el("p", { text: "Why? Tap the reason: the entry is taken back and the hand goes on from before it." }), row], null, null);
  TAKE_BACK_REASONS.forEach(function (r) {
    row.appendChild(el("button", {
      type: "button", class: "reason-choice", text: r[1], onclick: function () {
        var all = row.querySelectorAll("button");
        Array.prototype.forEach.call(all, function (b) { b.disabled = true; });
        write(T, "/hands/" + h.id + "/take-back/", { reason: r[0], expected_seq: h.next_seq },
          "Taken back: " + e.label + " (" + r[1].toLowerCase() + "). Enter it again as it should be.", true).then(function (reason) {
          Array.prototype.forEach.call(all, function (b) { b.disabled = false; });
          if (reason) { parts.error.textContent = reason; return; }
          T.lastEntry = null;
          if (parts.dialog.open) parts.dialog.close();
          changed(T);
        });
      }
    }));
  });
}

/* A large pot's second confirmation on this tablet: the confirming supervisor signs in here
 * with their own username and password (never the dealer's: the server refuses whoever
 * entered the hand). Nothing is kept on the tablet: the session stays the dealer's. */
export function confirmHere(T) {
  var h = hand(T);
  if (!h || !h.award) return;
  var user = el("input", { name: "username", required: true, autocomplete: "off", autocapitalize: "none", spellcheck: "false" });
  var pass = el("input", { name: "password", type: "password", required: true, autocomplete: "off" });
  dialog("Confirm the pot", [
    el("p", { text: h.award.message }),
    el("p", { class: "muted", text: "A supervisor who did not deal this hand checks it and signs in here." }),
    el("label", null, "Supervisor's username ", user),
    el("label", null, "Password ", pass)
  ], "Confirm the pot", function () {
    if (!user.value.trim() || !pass.value) return "Type the supervisor's username and password.";
    var who = user.value.trim();
    var body = { username: who, password: pass.value };
    pass.value = "";
    return write(T, "/hands/" + h.id + "/award-confirm/", body, "Confirmed by " + who + ": start the next hand.", true);
  });
}

export function buyIn(T, number) {
  var rules = (hand(T) && hand(T).rules) || null;
  api("GET", "/events/" + T.table.event.id + "/standings/").then(function (res) {
    var seated = {};
    T.table.seats.forEach(function (s) { seated[s.player.id] = true; });
    var select = el("select", { name: "player", required: true });
    // Only players seated nowhere (here or at another table).
    ((res.data && res.data.standings) || []).forEach(function (p) {
      if (!seated[p.player] && (p.table === null || p.table === undefined)) select.appendChild(el("option", { value: p.player, text: p.name + " (" + p.total + ")" }));
    });
    var amount = el("input", { name: "amount", type: "number", min: 0, step: 1, required: true, inputmode: "numeric", value: rules ? rules.table_min : "" });
    dialog("Buy in at seat " + number, [el("label", null, "Player ", select), el("label", null, "Amount ", amount)], "Buy in", function () {
      if (!select.value) return "Choose a player.";
      if (!/^\d+$/.test(amount.value)) return "Enter a whole amount.";
      return write(T, "/tables/" + T.id + "/seats/", { seat: number, player: Number(select.value), amount: Number(amount.value) }, "", true);
    });
  }, function () { notice("No network: try again.", "error"); });
}

/* Leaving cannot be undone from the tablet: asked for once more, saying what it does. */
export function leave(T, seat) {
  dialog("Leave: " + seat.player.name + ", seat " + seat.number + "?", [
    el("p", { text: seat.player.name + " leaves the table: the stack of " + seat.stack + " goes back to their balance and the seat is free. This cannot be undone here." })
  ], "Leave the table", function () {
    return write(T, "/seats/" + seat.id + "/leave/", {}, seat.player.name + " left seat " + seat.number + ".", true);
  });
}

/* A seat that has run out (less than the ante left: it cannot be dealt in), the server's
 * rule for a re-buy (tables.services.seat_rebuy). */
export function runOut(T, seat) {
  var ante = Number(T.table.rules && T.table.rules.ante) || 0;
  return seat.stack < Math.max(ante, 1);
}

/* The re-buy (RULES: the same amount again, between hands, every other seated player
 * agreeing, the house fee again): the amount said before and after. */
export function rebuy(T, seat) {
  var rules = T.table.rules || {};
  var currency = T.table.event.currency;
  var fee = rules.rebuy_pays_fee ? Number(rules.house_fee) || 0 : 0;
  var amount = "Re-buy " + seat.buy_in + " " + currency + (fee ? " + fee " + fee : " (no fee)");
  var boxes = [];
  var fields = [
    el("p", { class: "amount", id: "rebuy-amount", text: amount }),
    el("p", { class: "muted", text: "From " + seat.player.name + "'s balance: " + (seat.buy_in + fee) + " " + currency + " in all; the stack becomes " + (seat.stack + seat.buy_in) + "." })
  ];
  if (rules.rebuy_needs_consent !== false) {
    fields.push(el("p", { text: "Every other seated player must agree:" }));
    T.table.seats.forEach(function (other) {
      if (other.id === seat.id) return;
      var box = el("input", { type: "checkbox", value: other.player.id });
      boxes.push(box);
      fields.push(el("label", { class: "check" }, box, " " + other.player.name + " agrees"));
    });
  }
  var said = seat.player.name + " re-bought " + seat.buy_in + " " + currency + (fee ? " and paid the fee of " + fee : "") +
    ": the stack at seat " + seat.number + " is " + (seat.stack + seat.buy_in) + ".";
  dialog("Re-buy for " + seat.player.name + ", seat " + seat.number, fields, "Re-buy " + seat.buy_in + " " + currency, function () {
    var consenting = boxes.filter(function (b) { return b.checked; }).map(function (b) { return Number(b.value); });
    return write(T, "/seats/" + seat.id + "/rebuy/", { consenting: consenting }, said, true);
  });
}
