/* Brag Event — the error pages' "Back to the previous page" button (templates/errors/base.html):
 * shown only where there is a page to go back to, and only with scripts. */
(function () {
  "use strict";
  var button = document.querySelector("[data-back]");
  if (!button || window.history.length < 2) return;
  button.hidden = false;
  button.addEventListener("click", function () { window.history.back(); });
})();
