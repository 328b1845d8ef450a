/* Brag Event — the table page drawn: the seats, the pot, the action bar (every button from the
 * engine's legal actions: an illegal entry is not offered), the bet, the showdown's cards, the
 * result, the seats between hands and the hand's log. */
import { $, el, clear, seatLabel, cardText, SUITS, RANKS } from "./dom.js";
import { api } from "./api.js";
import { hand, view, isSupervisor } from "./state.js";
import { enqueue, startHand, renderQueue } from "./queue.js";
import { write } from "./server.js";
import { undo, takeBack, buyIn, leave, rebuy, runOut, confirmHere, agreedShowdown } from "./dialogs.js";
import { syncWake } from "./wake.js";
import { engineReady } from "./offline-glue.js";

/* The whole table page drawn from T: the state is never changed here but for what the dealer
 * is choosing (the cards picked, the bet amount). */
export function render(T) {
  if (!T.table) return;
  $("#day-state").hidden = true;
  $(".layout").hidden = false;
  $("#loading").hidden = true;
  $("#title").textContent = "Table " + T.table.number + " · day " + T.table.day.number;
  renderSeats(T);
  renderCentre(T);
  renderLastEntry(T);
  renderBar(T);
  renderShowdown(T);
  renderResult(T);
  renderBetween(T);
  renderLog(T);
  renderQueue(T);
  if (window.BragFloor) window.BragFloor.render(T, api); // static/tablet/floor.js
  syncWake(T);
}

function renderSeats(T) {
  var box = clear($("#seats"));
  var h = hand(T);
  var live = h && h.status === "in_progress";
  var bySeat = {};
  var t = view(T);
  t.seats.forEach(function (s) { bySeat[s.number] = s; });
  var inHand = {};
  ((h && h.players) || []).forEach(function (p) { inHand[p.seat] = p; });
  // In a hand, its dealer; between hands, the seat that deals the next one.
  var dealer = live ? h.dealer : (t.next_dealer !== undefined && t.next_dealer !== null ? t.next_dealer : (h ? h.dealer : t.button));
  for (var n = 1; n <= 6; n++) {
    var seat = bySeat[n];
    var p = live ? inHand[n] : null;
    var classes = "seat s" + n;
    var badges = el("span", { class: "badges" });
    if (!seat) {
      box.appendChild(el("div", { class: classes + " empty", "aria-label": "Seat " + n + ": empty" },
        el("span", { class: "num", text: String(n) }), el("span", { class: "name", text: "empty" })));
      continue;
    }
    if (p) {
      classes += " " + p.status;
      if (h.to_act === n && h.phase === "betting") classes += " to-act";
      badges.appendChild(el("span", { class: "badge " + (p.blind ? "blind" : "open"), text: p.blind ? "blind" : "open" }));
      if (p.looked) badges.appendChild(el("span", { class: "badge", text: "looked" }));
      if (p.status !== "active") badges.appendChild(el("span", { class: "badge " + p.status, text: p.status }));
      if (p.hands === 2) badges.appendChild(el("span", { class: "badge", text: "two hands" }));
    } else if (seat.sitting_out) {
      badges.appendChild(el("span", { class: "badge", text: "sitting out" }));
    }
    var stack = p ? p.stack : seat.stack;
    var label = "Seat " + n + ": " + seat.player.name + ", " + stack + (p ? ", " + (p.blind ? "blind" : "open") + ", " + p.status : "") +
      (h && h.to_act === n && live ? ", to act" : "") + (dealer === n ? ", dealer" : "");
    if (dealer === n) badges.insertBefore(el("span", { class: "button-chip", title: "Dealer", text: "D" }), badges.firstChild);
    box.appendChild(el("div", { class: classes, "aria-label": label },
      el("span", { class: "num", text: String(n) }),
      el("span", { class: "name", text: seat.player.name }),
      el("span", { class: "stack", text: String(stack) }),
      p && p.paid ? el("span", { class: "paid", text: "in: " + p.paid }) : null,
      badges));
  }
}

function renderCentre(T) {
  var box = clear($("#centre"));
  var h = hand(T);
  var currency = T.table.event.currency;
  if (!h) {
    box.appendChild(el("p", { text: "No hand yet." + (view(T).carried.pot ? " Carried pot " + view(T).carried.pot + " " + currency + "." : "") }));
    return;
  }
  box.appendChild(el("p", { class: "hand-no", text: "Hand " + h.number + (h.status === "settled" ? " · settled" : " · " + h.phase) }));
  var pots = potsToShow(h.pots || []);
  pots.forEach(function (pot, i) {
    var covered = pot.coverers && pot.coverers.length ? " (covered by " + pot.coverers.map(function (s) { return seatLabel(h, s); }).join(", ") + ")" : "";
    box.appendChild(el("p", { class: "pot", text: (pots.length > 1 ? "Pot " + (i + 1) : "Pot") + ": " + pot.amount + " " + currency + covered }));
  });
  if (h.carried && h.carried.pot) box.appendChild(el("p", { text: "Includes a carried pot of " + h.carried.pot }));
  if (h.status === "in_progress") box.appendChild(el("p", { class: "stake", text: h.stake ? "Stake: " + h.stake + " (open)" : "No bet yet" }));
}

/* The dealer's own last entry, and "Take back…" while it is the hand's latest entry: nothing
 * entered after it (by this tablet or another), the hand still in play, nothing waiting to
 * be sent. Anything further back is the supervisor's undo (hands.services.hand_take_back). */
function renderLastEntry(T) {
  var box = clear($("#last-entry"));
  var h = hand(T);
  var e = T.lastEntry;
  var mine = !!(h && e && e.hand === h.id && e.seq === h.next_seq - 1);
  var show = mine && h.status === "in_progress" && !T.queue.length && !T.sending && !isSupervisor(T);
  box.hidden = !show;
  if (!show) return;
  box.appendChild(el("span", { class: "last-text" }, "Last entry: ", el("strong", { text: e.label })));
  box.appendChild(el("button", { type: "button", id: "take-back", class: "small", text: "Take back\u2026", onclick: function () { takeBack(T); } }));
}

/* The pots worth a line: a pot opened by a cover that nothing was bet into (yet, or at all) is
 * no pot to the people at the table — "Pot 2: 0" or "wins 0" would not add up. The first pot
 * is always shown (a misdeal's, or a hand's before its antes). The same rule as
 * engine.settlement.pots_to_show on the server's pages. */
function potsToShow(pots) {
  return pots.filter(function (pot, i) { return i === 0 || pot.amount > 0; });
}

/* The agreed showdown (RULES §3.10: three or more left and all agree) ends the hand for
 * everyone, so it is offered only once it can be what the players agreed: every player still
 * in the betting has bet at least once in this hand (before that nobody has had a say), and
 * it asks once before it is entered. */
function showdownSensible(h) {
  var bet = {};
  (h.actions || []).forEach(function (a) { if (a.action === "bet" && a.seat) bet[a.seat] = true; });
  var left = (h.players || []).filter(function (p) { return p.status === "active"; });
  return left.length >= 3 && left.every(function (p) { return bet[p.seat]; });
}

/* The hand drawn is the tablet's own last computed one, read from its store at a reload: right
 * to look at, but nothing is entered from it until the engine has booted and computed it again. */
function keptOnly(T) {
  return !!(T.queue.length && T.projected && T.projected.kept);
}

function legalFor(h, filter) {
  return (h.legal_actions || []).filter(filter);
}

function renderBar(T) {
  var bar = clear($("#bar"));
  var h = hand(T);
  var kept = keptOnly(T);
  if (!h || h.status !== "in_progress" || (h.phase === "showing" && !kept)) { bar.hidden = true; return; }
  bar.hidden = false;
  var waiting = kept || (T.queue.length > 0 && !h.offline);
  if (waiting) {
    // The next step needs the server's answer (or the tablet's engine, not loaded yet): say
    // which, in words, and what happens next — it goes on by itself when the network is back.
    bar.appendChild(el("p", { class: "waiting", role: "status", text: kept
      ? "The hand as this tablet last left it. Offline entry is starting on the tablet: you enter the next action in a few seconds."
      : engineReady()
        ? "Working out the next step on the tablet\u2026"
        : "No network, and offline entry is not ready yet: what is queued is sent when the network is back, and you enter the next action then." }));
    return;
  }
  var legal = h.legal_actions || [];
  // Two hands: keep or throw in, before anything else.
  if (h.pending !== null && h.pending !== undefined) {
    var who = seatLabel(h, h.pending);
    bar.appendChild(el("h2", { text: who + " looked: keep or throw in?" }));
    var row = el("div", { class: "row" });
    legal.filter(function (a) { return a.allowed && a.seat === h.pending; }).forEach(function (a) {
      if (a.action === "keep") row.appendChild(el("button", { type: "button", class: "primary", text: "Keep", onclick: function () { enqueue(T, "action", { action: "keep", seat: a.seat }, who + " keeps"); } }));
      if (a.action === "discard") (a.hands || []).forEach(function (which) {
        row.appendChild(el("button", { type: "button", text: "Throw in the " + which + " hand", onclick: function () { enqueue(T, "action", { action: "discard", seat: a.seat, hand: which }, who + " throws in the " + which + " hand"); } }));
      });
    });
    bar.appendChild(row);
    return;
  }
  if (h.phase === "choosing") {
    legal.filter(function (a) { return a.allowed && a.action === "discard"; }).forEach(function (a) {
      var chooser = seatLabel(h, a.seat);
      bar.appendChild(el("h2", { text: chooser + ": which hand to throw in?" }));
      var row2 = el("div", { class: "row" });
      (a.hands || []).forEach(function (which) {
        row2.appendChild(el("button", { type: "button", text: "Throw in the " + which + " hand", onclick: function () { enqueue(T, "action", { action: "discard", seat: a.seat, hand: which }, chooser + " throws in the " + which + " hand"); } }));
      });
      bar.appendChild(row2);
    });
    return;
  }
  // Who looked (any player may look, one tap each).
  var looks = legal.filter(function (a) { return a.action === "look" && a.allowed; });
  if (looks.length) {
    var lookRow = el("div", { class: "row looks" }, el("span", { class: "row-label", text: "Looked:" }));
    looks.forEach(function (a) {
      var name = seatLabel(h, a.seat);
      if (a.hands && a.hands.length) {
        a.hands.forEach(function (which) {
          lookRow.appendChild(el("button", { type: "button", class: "small", text: name + " (" + which + ")", onclick: function () { enqueue(T, "action", { action: "look", seat: a.seat, hand: which }, name + " looks at the " + which + " hand"); } }));
        });
      } else {
        lookRow.appendChild(el("button", { type: "button", class: "small", text: name, onclick: function () { enqueue(T, "action", { action: "look", seat: a.seat }, name + " looks"); } }));
      }
    });
    var simple = looks.filter(function (a) { return !(a.hands && a.hands.length); });
    if (simple.length > 1) {
      lookRow.appendChild(el("button", {
        type: "button", class: "small", text: "Everyone looked", onclick: function () {
          simple.forEach(function (a) { enqueue(T, "action", { action: "look", seat: a.seat }, seatLabel(h, a.seat) + " looks"); });
        }
      }));
    }
    bar.appendChild(lookRow);
  }
  // The player to act.
  var seat = h.to_act;
  if (seat === null || seat === undefined) return;
  var name = seatLabel(h, seat);
  bar.appendChild(el("h2", { class: "to-act-title", text: name + " to act" }));
  var mine = {};
  legal.forEach(function (a) { if (a.seat === seat || (a.seat === null && a.action === "showdown")) mine[a.action] = a; });
  var row3 = el("div", { class: "row" });
  if (mine.fold && mine.fold.allowed) {
    row3.appendChild(el("button", { type: "button", class: "danger", text: "Fold", onclick: function () { enqueue(T, "action", { action: "fold", seat: seat }, name + " folds"); } }));
  }
  if (mine.see) {
    if (mine.see.allowed) {
      row3.appendChild(el("button", { type: "button", text: "See for " + mine.see.cost, onclick: function () { enqueue(T, "action", { action: "see", seat: seat, amount: mine.see.cost }, name + " sees for " + mine.see.cost); } }));
    } else {
      row3.appendChild(el("button", { type: "button", disabled: true, "aria-disabled": "true", title: mine.see.reason, text: "See" }));
      row3.appendChild(el("span", { class: "reason", text: mine.see.reason }));
    }
  }
  if (mine.cover && mine.cover.allowed) {
    row3.appendChild(el("button", { type: "button", text: "Cover for " + mine.cover.cost, onclick: function () { enqueue(T, "action", { action: "cover", seat: seat, amount: mine.cover.cost }, name + " covers for " + mine.cover.cost); } }));
  }
  if (mine.showdown && mine.showdown.allowed && showdownSensible(h)) {
    var agreeing = (h.players || []).filter(function (p) { return p.status === "active"; }).map(function (p) { return seatLabel(h, p.seat); });
    row3.appendChild(el("button", {
      type: "button", id: "agreed-showdown", text: "Agreed showdown\u2026", onclick: function () {
        agreedShowdown(agreeing, function () { enqueue(T, "action", { action: "showdown" }, "agreed showdown"); });
      }
    }));
  }
  bar.appendChild(row3);
  var bet = mine.bet;
  if (bet && bet.allowed) bar.appendChild(betControl(T, h, seat, name, bet));
  else if (bet && bet.reason) bar.appendChild(el("p", { class: "reason", text: "Bet: " + bet.reason }));
  if (isSupervisor(T) && h.actions && h.actions.length) {
    bar.appendChild(el("div", { class: "row" }, el("button", { type: "button", class: "link", text: "Undo the last action…", onclick: function () { undo(T); } })));
  }
}

/* The bet: a stepper and quick chips in units of the day's minimum bet, up to the most the
 * engine allows. What the dealer types is never changed: an amount out of the legal range
 * is refused in place, with the range, and cannot be entered. */
function betChips(lo, hi, unit) {
  var chips = [lo];
  for (var v = (Math.floor(lo / unit) + 1) * unit; v < hi; v += unit) chips.push(v);
  if (hi > lo) chips.push(hi);
  return chips;
}

function betControl(T, h, seat, name, bet) {
  var lo = bet.min_amount, hi = bet.max_amount;
  var unit = Math.max(1, Number(h.rules && h.rules.min_bet) || 1);
  // Each player starts from their own least legal amount: an amount chosen for the player
  // before (say 10 open) is not carried over to the next (a blind player's least may be 5).
  var who = h.id + ":" + seat;
  if (T.betFor !== who) { T.betFor = who; T.betAmount = null; T.betText = null; }
  if (T.betAmount === null || T.betAmount < lo || T.betAmount > hi) T.betAmount = lo;
  var input = el("input", { type: "text", id: "bet-amount", value: T.betText !== null ? T.betText : T.betAmount, inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", "aria-describedby": "bet-range bet-error" });
  var submit = el("button", { type: "button", class: "primary", id: "bet-submit" });
  var problem = el("p", { id: "bet-error", class: "error", role: "alert" });
  var range = "from " + lo + " to " + hi;
  function check(text) {
    text = String(text).trim();
    if (!/^[0-9]+$/.test(text)) return "Enter a whole amount " + range + ".";
    var v = Number(text);
    if (v < lo) return v + " is less than the least bet: bet " + range + ".";
    if (v > hi) return v + " is more than the most: bet " + range + ".";
    return "";
  }
  function show(v) {
    var wrong = check(input.value);
    problem.textContent = wrong;
    input.setAttribute("aria-invalid", wrong ? "true" : "false");
    submit.disabled = !!wrong;
    submit.textContent = wrong ? "Bet" : "Bet " + v + (bet.blind ? " blind (stake " + 2 * v + ")" : "");
  }
  function set(v) {
    T.betAmount = v;
    T.betText = null;
    input.value = v;
    show(v);
  }
  input.addEventListener("input", function () {
    T.betText = input.value;
    if (!check(input.value)) T.betAmount = Number(input.value);
    show(Number(input.value));
  });
  show(check(input.value) ? input.value : Number(input.value));
  submit.addEventListener("click", function () {
    if (check(input.value)) return;
    var v = Number(input.value);
    T.betAmount = null;
    T.betText = null;
    enqueue(T, "action", { action: "bet", seat: seat, amount: v }, name + " bets " + v + (bet.blind ? " blind" : ""));
  });
  var chips = betChips(lo, hi, unit);
  var quick = el("div", { class: "row quick", role: "group", "aria-label": "Quick amounts" });
  chips.forEach(function (v) {
    quick.appendChild(el("button", { type: "button", class: "chip", "data-amount": v, text: String(v), onclick: function () { set(v); } }));
  });
  function step(dir) {
    var now = check(input.value) ? T.betAmount : Number(input.value);
    var next = dir > 0 ? (Math.floor(now / unit) + 1) * unit : (Math.ceil(now / unit) - 1) * unit;
    set(Math.max(lo, Math.min(hi, next)));
  }
  return el("div", { class: "bet" },
    el("div", { class: "bet-head" },
      el("label", { for: "bet-amount", text: "Bet amount" }),
      el("span", { id: "bet-range", class: "muted", text: "from " + lo + " to " + hi + (bet.blind ? " (blind: the stake becomes twice the bet)" : "") })),
    el("div", { class: "row bet-row" },
      el("div", { class: "row stepper" },
        el("button", { type: "button", "aria-label": unit + " less", text: "\u2212", onclick: function () { step(-1); } }),
        input,
        el("button", { type: "button", "aria-label": unit + " more", text: "+", onclick: function () { step(1); } })),
      quick),
    problem,
    submit);
}

function usedCards(h) {
  var used = {};
  (h.actions || []).forEach(function (a) {
    if (a.cards) a.cards.split(" ").forEach(function (c) { used[c] = true; });
  });
  return used;
}

function renderShowdown(T) {
  var box = clear($("#showdown"));
  var h = hand(T);
  if (!h || h.status !== "in_progress" || h.phase !== "showing" || (T.queue.length && !h.offline) || keptOnly(T)) { box.hidden = true; return; }
  box.hidden = false;
  var seat = h.cards_needed[0];
  var name = seatLabel(h, seat);
  var used = usedCards(h);
  box.appendChild(el("h2", { text: "Showdown: enter " + name + "'s three cards" }));
  if (h.cards_needed.length > 1) box.appendChild(el("p", { class: "muted", text: "Then: " + h.cards_needed.slice(1).map(function (s) { return seatLabel(h, s); }).join(", ") }));
  var grid = el("div", { class: "cards", role: "group", "aria-label": "Cards" });
  SUITS.forEach(function (suit) {
    var row = el("div", { class: "card-row suit-" + suit[0] });
    RANKS.forEach(function (rank) {
      var code = rank + suit[0];
      var chosen = T.picked.indexOf(code) >= 0;
      row.appendChild(el("button", {
        type: "button",
        class: "card" + (chosen ? " chosen" : ""),
        "data-card": code,
        disabled: used[code] ? true : false,
        "aria-pressed": chosen ? "true" : "false",
        "aria-label": cardText(code) + (used[code] ? " (already shown)" : ""),
        text: cardText(code),
        onclick: function () {
          if (chosen) T.picked.splice(T.picked.indexOf(code), 1);
          else if (T.picked.length < 3) T.picked.push(code);
          renderShowdown(T);
        }
      }));
    });
    grid.appendChild(row);
  });
  box.appendChild(grid);
  box.appendChild(el("p", { class: "picked", text: "Picked: " + (T.picked.length ? T.picked.map(cardText).join(" ") : "none") }));
  box.appendChild(el("button", {
    type: "button", class: "primary", id: "show-submit", disabled: T.picked.length !== 3 ? true : false,
    text: "Show " + name + "'s cards", onclick: function () {
      enqueue(T, "cards", { seat: seat, cards: T.picked.join(" ") }, name + " shows " + T.picked.map(cardText).join(" "));
    }
  }));
  // A player who saw, or covered, may give up once the hand against them is shown: the
  // engine offers it only then (RULES: a seer who cannot win need not show).
  legalFor(h, function (a) { return a.allowed && a.action === "concede"; }).forEach(function (a) {
    var who = seatLabel(h, a.seat);
    box.appendChild(el("button", {
      type: "button", class: "give-up", "data-seat": a.seat, text: who + " gives up (cards stay hidden)",
      onclick: function () { enqueue(T, "action", { action: "concede", seat: a.seat }, who + " gives up without showing"); }
    }));
  });
}

function renderResult(T) {
  var box = clear($("#result"));
  var h = hand(T);
  if (!h || h.status !== "settled" || !h.result) { box.hidden = true; return; }
  box.hidden = false;
  box.appendChild(el("h2", { text: "Hand " + h.number + " result" }));
  var shown = h.result.shown || {};
  Object.keys(shown).forEach(function (seat) {
    box.appendChild(el("p", null, seatLabel(h, Number(seat)) + " showed ",
      el("span", { class: "nowrap", text: shown[seat].cards.split(" ").map(cardText).join(" ") }), " \u2014 ",
      el("span", { class: "nowrap", text: shown[seat].hand })));
  });
  (h.result.conceded || []).forEach(function (seat) {
    box.appendChild(el("p", { text: seatLabel(h, seat) + " gave up without showing" }));
  });
  potsToShow(h.result.pots || []).forEach(function (pot) {
    var winners = Object.keys(pot.shares || {}).filter(function (s) { return pot.shares[s] > 0; });
    if (!winners.length) {
      // A carried pot or a misdeal: the engine's sentence says it all.
      box.appendChild(el("p", { class: "win", text: pot.explanation || (pot.how === "misdeal" ? "Misdeal" : "The pot of " + pot.amount + " is carried to the next hand.") }));
      return;
    }
    var names = winners.map(function (s) { return seatLabel(h, Number(s)); });
    var won = winners.map(function (s, i) { return names[i] + " wins " + pot.shares[s]; }).join(", ");
    box.appendChild(el("p", { class: "win", text: won + (pot.rake ? " (house fee " + pot.rake + ")" : "") }));
    var why = resultReason(h, pot, names);
    if (why) box.appendChild(el("p", { class: "why", text: why }));
  });
}

/* Why a pot was won: the engine's explanation less what the line above it says. The
 * explanation ends with who wins what ("… Anna (seat 4) wins 58.", engine/state.py _pay),
 * and a fold win starts with it too ("Anna (seat 4) wins: everyone else folded."). */
function resultReason(h, pot, names) {
  var text = pot.explanation || "";
  var order = (pot.winners || []).map(function (s) { return seatLabel(h, Number(s)); });
  var summary = order.join(", ") + (order.length > 1 ? " win " : " wins ") + (pot.amount - (pot.rake || 0)) +
    (pot.rake ? " (rake " + pot.rake + ")" : "") + ".";
  if (text.slice(-summary.length) === summary) text = text.slice(0, -summary.length).trim();
  // An agreed showdown's explanation lists every hand again: the lines above show them.
  text = text.replace(/^Agreed showdown \(.*\): best hand /, "Agreed showdown: the best hand is ");
  names.forEach(function (name) {
    var head = name + " wins: ";
    if (text.indexOf(head) === 0) text = text.charAt(head.length).toUpperCase() + text.slice(head.length + 1);
  });
  return text;
}

function renderBetween(T) {
  var box = clear($("#between"));
  var next = clear($("#next"));
  var h = hand(T);
  if (h && h.status === "in_progress") { box.hidden = true; next.hidden = true; return; }
  box.hidden = false;
  // Above the result, so that a long showdown never pushes it out of sight.
  next.hidden = false;
  var t = view(T);
  if (T.queue.length && (!T.projected || T.projected.kept)) {
    // Settled on the tablet, but its engine is not loaded: wait for it, or for the queue to be sent.
    next.appendChild(el("p", { class: "muted", text: T.projected
      ? "The hand is settled on the tablet; the next hand can be started once offline entry has started (a few seconds)."
      : "The hand is settled on the tablet; the next hand starts once the queued actions are sent." }));
    return;
  }
  if (h && h.award && h.award.status === "waiting") {
    // A large pot (the day's second confirmation): no next hand until another member of staff
    // confirms it — on the floor board, or signing in here (floor.awards on the server).
    next.appendChild(el("div", { class: "award-wait", role: "alert", id: "award-wait" },
      el("h2", { text: h.award.message }),
      el("p", { text: "The next hand starts once a supervisor who did not deal this hand confirms it: on the floor board, or by signing in on this tablet." }),
      el("button", { type: "button", class: "primary", id: "confirm-here", text: "Confirm here\u2026", onclick: function () { confirmHere(T); } })));
    box.hidden = true; // no seat changes either: the pot stays at the table until confirmed
    return;
  }
  if (h && h.award && h.award.status === "confirmed") next.appendChild(el("p", { class: "muted award-done", text: h.award.message }));
  if (T.relieved) {
    // Relieved here (shift.js): the next dealer starts the next hand, not this tablet's dealer.
    next.appendChild(el("p", { class: "relieved", id: "relieved-note", text: "You no longer deal here: the next hand is the next dealer's." }));
    return;
  }
  if (t.shuffle_next) next.appendChild(el("p", { class: "reminder", role: "note", text: "Shuffle the deck before dealing this hand." }));
  if (t.carried && t.carried.pot) next.appendChild(el("p", { class: "muted", text: "Carried to the next hand: a pot of " + t.carried.pot + "." }));
  next.appendChild(el("button", { type: "button", class: "primary", id: "start-hand", text: "Start the next hand", onclick: function () { startHand(T); } }));
  if (T.queue.length) {
    // Seats change through the server alone: not while entries wait to be sent.
    box.appendChild(el("p", { class: "muted", text: "Stacks as the tablet computed them. Seats can be changed once the queued entries are sent." }));
    var plain = el("ul", { class: "seat-admin" });
    t.seats.forEach(function (s) {
      plain.appendChild(el("li", null, el("span", { text: "Seat " + s.number + ": " + s.player.name + " · " + s.stack + (s.sitting_out ? " · sitting out" : "") })));
    });
    box.appendChild(plain);
    return;
  }
  var list = el("ul", { class: "seat-admin" });
  var taken = {};
  T.table.seats.forEach(function (s) {
    taken[s.number] = s;
    var row = el("li", null, el("span", { text: "Seat " + s.number + ": " + s.player.name + " · " + s.stack + (s.sitting_out ? " · sitting out" : "") }));
    row.appendChild(el("button", { type: "button", class: "small", text: s.sitting_out ? "Back in" : "Sit out", onclick: function () { write(T, "/seats/" + s.id + "/sit-out/", { sitting_out: !s.sitting_out }); } }));
    row.appendChild(el("button", { type: "button", class: "small", text: "Leave", onclick: function () { leave(T, s); } }));
    if (runOut(T, s)) row.appendChild(el("button", { type: "button", class: "small", text: "Re-buy…", onclick: function () { rebuy(T, s); } }));
    list.appendChild(row);
  });
  for (var n = 1; n <= 6; n++) {
    if (taken[n]) continue;
    (function (number) {
      list.appendChild(el("li", null, el("span", { text: "Seat " + number + ": empty" }),
        el("button", { type: "button", class: "small", text: "Buy in…", onclick: function () { buyIn(T, number); } })));
    })(n);
  }
  box.appendChild(list);
}

function renderLog(T) {
  var list = clear($("#log-list"));
  var h = hand(T);
  ((h && h.actions) || []).forEach(function (a) {
    var who = a.seat ? seatLabel(h, a.seat) + " " : "";
    var what = (a.action === "concede" ? "gives up" : a.action) + (a.amount !== undefined && a.amount !== null ? " " + a.amount : "") + (a.hand ? " (" + a.hand + ")" : "") + (a.cards ? " " + a.cards.split(" ").map(cardText).join(" ") : "");
    list.appendChild(el("li", { text: who + what }));
  });
}
