/* Brag Event — the tablet's start page: the dealer's tables today, or, with no network, the
 * tables this tablet kept. */
import { $, el, clear } from "./dom.js";
import { api, whoAmI, NetworkError } from "./api.js";

// An event with no day open, in words: which day closes, which opens next, or that it is over.
export function eventState(event) {
  var days = event.days.slice().sort(function (a, b) { return a.number - b.number; });
  var closing = days.filter(function (d) { return d.status === "closing"; })[0];
  if (closing) return event.name + ": day " + closing.number + " is closing; no more hands today.";
  var next = days.filter(function (d) { return d.status === "scheduled"; })[0];
  var closed = days.filter(function (d) { return d.status === "closed"; });
  var last = closed[closed.length - 1];
  if (!next) return event.name + ": every day has closed; the event is over.";
  return event.name + ": " + (last ? "day " + last.number + " has closed; " : "") +
    "day " + next.number + " has not opened yet.";
}

export function tablesPage() {
  var list = $("#tables");
  var notOpen = [];
  whoAmI().then(function () {
    return api("GET", "/events/");
  }).then(function (res) {
    var days = [];
    ((res.data && res.data.events) || []).forEach(function (event) {
      var open = false;
      event.days.forEach(function (day) {
        if (day.status === "open") { open = true; days.push({ event: event, day: day }); }
      });
      if (!open) notOpen.push(event);
    });
    return Promise.all(days.map(function (d) {
      return api("GET", "/days/" + d.day.id + "/tables/").then(function (r) {
        return { event: d.event, day: d.day, tables: (r.data && r.data.tables) || [] };
      });
    }));
  }).then(function (groups) {
    clear(list);
    list.removeAttribute("aria-busy");
    var count = 0;
    groups.forEach(function (g) {
      g.tables.forEach(function (t) {
        count += 1;
        list.appendChild(el("li", null, el("a", { class: "tile", href: "/tablet/tables/" + t.id + "/" },
          el("strong", { text: "Table " + t.number }),
          el("span", { text: g.event.name + " · day " + g.day.number }),
          el("span", { text: t.seated + " seated · " + t.hands + (t.hands === 1 ? " hand" : " hands") + (t.live_hand ? " · hand in play" : "") }))));
      });
    });
    if (!count) list.appendChild(el("li", { text: "No table is yours to deal at now: at your turn on the rota, your table appears here." }));
    // With no day in play, say each event's state in words (RULES §4b: days follow one another).
    notOpen.forEach(function (event) { list.appendChild(el("li", { class: "day-state", text: eventState(event) })); });
  }).catch(function (err) {
    if (err instanceof NetworkError) keptTables(list);
  });
}

/* No network (a tablet restarted in a dead zone opens here): the tables this tablet kept
 * (IndexedDB), each opening as it was last seen — the service worker keeps their pages. */
export function keptTables(list) {
  clear(list).removeAttribute("aria-busy");
  var store = window.BragStore;
  var none = function () { clear(list).appendChild(el("li", { text: "No network: reload when connected." })); };
  if (!store) { none(); return; }
  store.keys("table-").then(function (keys) {
    return Promise.all(keys.map(function (k) { return store.get(k); }));
  }).then(function (kept) {
    kept = kept.filter(function (k) { return k && k.table; });
    if (!kept.length) { none(); return; }
    list.appendChild(el("li", { class: "day-state", text: "No network: the tables this tablet has kept, as it last saw them." }));
    kept.forEach(function (k) {
      var t = k.table;
      list.appendChild(el("li", null, el("a", { class: "tile", href: "/tablet/tables/" + t.id + "/" },
        el("strong", { text: "Table " + t.number }),
        el("span", { text: "day " + t.day.number + " · seen at " + new Date(k.at).toTimeString().slice(0, 5) }))));
    });
  }, none);
}
