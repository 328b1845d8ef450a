/* Brag Event — the dealer's tablet. No libraries, no build step: browser ES modules served from
 * static/ (and kept by the service worker, /tablet/sw.js, for a start-up with no network).
 *
 * Everything shown comes from the API, and every button comes from the engine's legal actions
 * (hand.legal_actions): an illegal entry is not offered. Actions go through a queue kept in
 * IndexedDB (queue.js, offline/store.js): each gets its Idempotency-Key and expected_seq when
 * tapped, is stored before it is sent, and is sent in order when the network allows; a reload
 * loses nothing, a retry never enters twice, and a refusal is shown, not swallowed. The last
 * table the tablet saw is kept there too, and a service worker keeps the pages, Pyodide and the
 * engine: a tablet that reloads offline opens its table as it last saw it and keeps playing, the
 * engine in the browser computing each hand (offline/offline.js, through offline-glue.js).
 *
 * The modules: dom.js (elements, words), api.js (the API), login.js, tables.js (the two small
 * pages); for the table page, state.js (its one state object, handed to every function),
 * table.js (the server's table, writes, start-up), queue.js (entries sent in order), render.js,
 * dialogs.js, wake.js (the screen stays on) and offline-glue.js (IndexedDB, the engine in the
 * browser, the service worker). */
import { loginPage } from "./login.js";
import { tablesPage } from "./tables.js";
import { tablePage } from "./table.js";
import { registerServiceWorker } from "./offline-glue.js";

var page = document.body.getAttribute("data-page");
// The table page registers it once the table is drawn (table.js).
if (page === "tables") registerServiceWorker();
if (page === "login") loginPage();
else if (page === "tables") tablesPage();
else if (page === "table") tablePage();
