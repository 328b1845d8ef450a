/* Brag Event — the console's navigation menu (templates/organiser/base.html). Loaded right
 * after the menu, not deferred, so the folded menu is decided before the page is drawn. */
(function () {
  /* A narrow screen starts with the menu folded; a wide one always shows it. */
  /* Inside the folded menu the account's entries are listed open. */
  var menu = document.getElementById("navmenu");
  var account = menu.querySelector(".account");
  var narrow = window.matchMedia("(max-width: 900px)");
  function fit() {
    menu.open = !narrow.matches;
    account.open = narrow.matches;
  }
  fit();
  narrow.addEventListener("change", fit);
  /* On a wide screen the account menu closes when one clicks elsewhere. */
  document.addEventListener("click", function (e) {
    if (!narrow.matches && account.open && !account.contains(e.target)) account.open = false;
  });
})();
