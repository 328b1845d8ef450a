/* Brag Event — a console page's "Print" button ([data-print]): the browser's print dialog. */
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
})();
