/* Brag Event — the tablet's small helpers for the page: finding and making elements, the
 * words for cards and seats, and the two lines every page speaks through (#net, #notice). */

export var SUITS = [["s", "\u2660"], ["h", "\u2665"], ["d", "\u2666"], ["c", "\u2663"]];
export var RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];

export function $(sel, root) { return (root || document).querySelector(sel); }

export function el(tag, attrs) {
  var node = document.createElement(tag);
  var key;
  for (key in attrs || {}) {
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
    var value = attrs[key];
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (var i = 2; i < arguments.length; i++) {
    var child = arguments[i];
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

export function cookie(name) {
  var parts = document.cookie ? document.cookie.split("; ") : [];
  for (var i = 0; i < parts.length; i++) {
    var eq = parts[i].indexOf("=");
    if (parts[i].slice(0, eq) === name) return decodeURIComponent(parts[i].slice(eq + 1));
  }
  return "";
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  var bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}

export function announce(text) {
  var live = $("#announce");
  if (!live) return;
  live.textContent = "";
  window.setTimeout(function () { live.textContent = text; }, 30);
}

/* A time of day as HH:MM in the event's time zone (the table's event.time_zone); the
 * device's own zone only when the event names none. */
export function hhmm(ms, zone) {
  var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  if (zone) options.timeZone = zone;
  try {
    return new Intl.DateTimeFormat("en-GB", options).format(new Date(ms));
  } catch (e) {
    return new Date(ms).toTimeString().slice(0, 5);
  }
}

export function setNet(text, state) {
  var net = $("#net");
  if (!net) return;
  net.textContent = text;
  net.className = "net" + (state ? " " + state : "");
  // Whether entries go on without the network (offline/offline.js) matters only without it.
  // Until it is ready it is said all along (offline/offline.js status).
  var entry = $("#engine-status");
  if (entry) entry.hidden = !entry.textContent || (state !== "offline" && entry.getAttribute("data-state") === "ready");
}

/* Who is signed in, said once: the name, and the role only where it is not a dealer's and
 * not the name already (a supervisor called "supervisor" is not said twice). */
export function whoText(me) {
  var name = me.username;
  if (me.role === "dealer" || me.role === String(name).toLowerCase()) return name;
  return name + " (" + me.role + ")";
}

export function seatLabel(hand, seat) {
  var players = (hand && hand.players) || [];
  for (var i = 0; i < players.length; i++) {
    if (players[i].seat === seat) return players[i].player + " (seat " + seat + ")";
  }
  return "seat " + seat;
}

export function cardText(code) {
  var rank = code.slice(0, -1), suit = code.slice(-1);
  var symbol = "";
  SUITS.forEach(function (s) { if (s[0] === suit) symbol = s[1]; });
  return (rank === "T" ? "10" : rank) + symbol;
}

/* An "info" notice (what was done: "Taken back: …", "The hand moved on…") is read by the time
 * the dealer enters the next thing: it goes then (noticeRead), so that it does not hold the
 * controls down the screen for the rest of the hand. Warnings and errors stay until dismissed
 * or replaced. */
export function noticeRead() {
  var box = $("#notice");
  if (box && !box.hidden && box.classList.contains("info")) notice("");
}

export function notice(text, kind) {
  var box = $("#notice");
  box.hidden = !text;
  box.className = "notice" + (kind ? " " + kind : "");
  clear(box);
  if (text) {
    box.appendChild(el("span", { text: text }));
    box.appendChild(el("button", { type: "button", class: "link", text: "Dismiss", onclick: function () { notice(""); } }));
    announce(text);
  }
}
