// tlscope report: the provenance page. Selecting a node or kernel (a line that defines it, or a
// kernel button) highlights every line it maps to in the three panes. The line sets were computed
// by tlscope (views::ProvenanceView) and sit in #prov-items as data attributes; this only applies
// them. Text from the log is only ever set through textContent.
(function () {
  "use strict";
  function parseRanges(text) {
    var out = [];
    (text || "").split(" ").forEach(function (part) {
      if (!part) return;
      var dash = part.indexOf("-");
      var a = parseInt(dash < 0 ? part : part.slice(0, dash), 10);
      var b = dash < 0 ? a : parseInt(part.slice(dash + 1), 10);
      for (var i = a; i <= b; i++) out.push(i);
    });
    return out;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var host = document.getElementById("provenance");
    var list = document.getElementById("prov-items");
    if (!host || !list) return;
    var items = Array.prototype.slice.call(list.children);
    var marked = [];
    var lastLine = null, lastPick = 0;
    function select(index, fromLine) {
      marked.forEach(function (e) { e.classList.remove("hl", "sel"); });
      marked = [];
      var item = items[index];
      if (!item) return;
      var counts = [];
      for (var pane = 0; pane < 3; pane++) {
        var lines = parseRanges(item.getAttribute("data-l" + pane));
        var first = null;
        lines.forEach(function (n) {
          var e = document.getElementById("l" + pane + "-" + n);
          if (!e) return;
          e.classList.add("hl");
          marked.push(e);
          if (!first) first = e;
        });
        counts.push(lines.length);
        if (first) {
          var box = document.getElementById("pane-" + pane);
          box.scrollTop = Math.max(0, first.offsetTop - box.offsetTop - 40);
        }
      }
      if (fromLine) { fromLine.classList.add("sel"); marked.push(fromLine); }
      host.setAttribute("data-selected", item.getAttribute("data-name"));
      host.setAttribute("data-highlighted", counts.join(","));
      document.getElementById("prov-name").textContent =
          item.getAttribute("data-kind") + " " + item.getAttribute("data-name");
      var links = [];
      [["pre", "pre-grad"], ["post", "post-grad"], ["kernels", "kernels"]].forEach(function (k) {
        var v = item.getAttribute("data-" + k[0]);
        if (v) links.push(k[1] + ": " + v);
      });
      document.getElementById("prov-links").textContent = links.join(" \u00b7 ");
      var stack = document.getElementById("prov-stack");
      stack.textContent = item.textContent;
      stack.hidden = item.textContent.length === 0;
    }
    host.addEventListener("click", function (ev) {
      var line = ev.target.closest ? ev.target.closest(".pl[data-items]") : null;
      if (!line) return;
      var choices = line.getAttribute("data-items").split(" ");
      // A line shared by several items (one kernel called for two handles) cycles through them.
      lastPick = line === lastLine ? (lastPick + 1) % choices.length : 0;
      lastLine = line;
      select(parseInt(choices[lastPick], 10), line);
    });
    document.getElementById("prov-kernels").addEventListener("click", function (ev) {
      var b = ev.target.closest ? ev.target.closest("button.prov-item") : null;
      if (b) select(parseInt(b.getAttribute("data-item"), 10), null);
    });
  });
})();
