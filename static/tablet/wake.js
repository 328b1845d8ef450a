/* Brag Event — the table page's screen stays on while a hand is in play. */
import { hand } from "./state.js";

/* While a hand is in play the screen must not dim (the Screen Wake Lock API, where the
 * browser has it); released between hands. A lock is lost when the page is hidden: it is
 * asked for again when the page is shown. */
function wantWake(T) {
  var h = hand(T);
  return !!(h && h.status === "in_progress");
}

function holdWake(T) {
  if (!("wakeLock" in navigator) || T.wakeLock || document.visibilityState !== "visible") return;
  T.wakeLock = "asking";
  navigator.wakeLock.request("screen").then(function (lock) {
    T.wakeLock = lock;
    lock.addEventListener("release", function () { if (T.wakeLock === lock) T.wakeLock = null; });
    if (!wantWake(T)) releaseWake(T);
  }, function () { T.wakeLock = null; });
}

export function releaseWake(T) {
  var lock = T.wakeLock;
  if (!lock || lock === "asking") return;
  T.wakeLock = null;
  lock.release().catch(function () {});
}

export function syncWake(T) { if (wantWake(T)) holdWake(T); else releaseWake(T); }

/* The lock is asked for again each time the page is shown. */
export function watchWake(T) {
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") syncWake(T); });
}
