// vigueur — the only script of the interface, and none of the pages needs it: it adds a print button's action,
// scrolls a cited paragraph into view, and gives the keyboard a way to close a quote's tooltip (Escape).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target instanceof Element && target.closest("[data-print]")) {
      window.print();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && document.activeElement && document.activeElement.matches("mark.q")) {
      document.activeElement.blur();
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var cited = document.getElementById("cited");
    if (cited && location.hash === "#cited") {
      cited.scrollIntoView({ block: "center" });
    }
  });
})();
