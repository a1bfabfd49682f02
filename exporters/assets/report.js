// tlscope report: shared page behaviour. Loaded first on every page, so it also reports any
// script error on the page as a visible element (the browser tests look for it).
(function () {
  "use strict";
  function showError(text) {
    var add = function () {
      var div = document.createElement("div");
      div.className = "tlscope-js-error";
      div.textContent = "Script error: " + text;
      (document.querySelector("main") || document.body).prepend(div);
    };
    if (document.body) add(); else document.addEventListener("DOMContentLoaded", add);
  }
  window.addEventListener("error", function (e) {
    showError((e.message || "error") + (e.filename ? " at " + e.filename + ":" + e.lineno : ""));
  });
  var originalError = console.error;
  console.error = function () {
    showError(Array.prototype.join.call(arguments, " "));
    originalError.apply(console, arguments);
  };

  // Filters a table's rows by the text typed into <input class="filter" data-table="ID">.
  function wireFilters() {
    document.querySelectorAll("input.filter").forEach(function (input) {
      var table = document.getElementById(input.dataset.table);
      if (!table) return;
      input.addEventListener("input", function () {
        var needle = input.value.toLowerCase();
        table.querySelectorAll("tbody tr").forEach(function (row) {
          row.style.display = row.textContent.toLowerCase().indexOf(needle) >= 0 ? "" : "none";
        });
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    wireFilters();
    document.body.setAttribute("data-ready", "1");
  });
})();
