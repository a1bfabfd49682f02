// tlscope report: a canvas timeline with lanes, bars, links between bars, zoom (wheel) and pan
// (drag). Data comes from window.TLSCOPE_TIMELINE, set by a data/*.js file loaded before this:
//   { lanes: [label...], colors: {cls: "#rrggbb", ...},              // one colour per kind
//     styles: [[label, cls, detail], ...],                          // shared by many bars
//     bars: [[lane, depth, start, end, style], ...],
//     links: [[barIndex, barIndex], ...],                           // matched bars across lanes
//     chained: [barIndex, ...],                                     // linked to barIndex - 1
//     markers: [[lane, time, cls, text], ...],                      // problems on their ranks
//     groups: [[label, cls, [lane...]], ...],                       // lanes folded into one
//     problems: [cls, ...] }                                       // classes drawn as problems
// A group of several lanes is drawn as its first lane under the group's label until it is
// opened (a click on its label, or its <details> toggle in #lane-groups), so a job of 1,024
// alike ranks draws a handful of lanes.
(function () {
  "use strict";
  // Colours and which classes are problems come from the data (views' kind tables); this grey
  // is only for a class the data names no colour for.
  var UNKNOWN_COLOR = "#6b7280";
  var LANE_LABEL_W = 190, ROW_H = 18, LANE_PAD = 6, AXIS_H = 22;

  function init() {
    var data = window.TLSCOPE_TIMELINE;
    var host = document.getElementById("timeline");
    if (!host || !data) return;
    var lanes = data.lanes, markers = data.markers || [], styles = data.styles || [];
    // A bar is [lane, depth, start, end, style]; its label, class and detail are its style's
    // (kept shared: a 1,024-rank job has tens of thousands of bars).
    var bars = data.bars, NO_STYLE = ["", "ok", ""];
    function styleOf(b) { return styles[b[4]] || NO_STYLE; }
    var links = (data.links || []).slice();
    (data.chained || []).forEach(function (i) { links.push([i - 1, i]); });
    var colors = data.colors || {};
    function colorOf(cls) { return colors[cls] || UNKNOWN_COLOR; }
    var PROBLEMS = {};
    (data.problems || []).forEach(function (cls) { PROBLEMS[cls] = 1; });
    var laneDepth = lanes.map(function () { return 1; });
    var t0 = Infinity, t1 = -Infinity;
    bars.forEach(function (b) {
      laneDepth[b[0]] = Math.max(laneDepth[b[0]], b[1] + 1);
      t0 = Math.min(t0, b[2]); t1 = Math.max(t1, b[3]);
    });
    if (!bars.length) { t0 = 0; t1 = 1; }
    if (t1 <= t0) t1 = t0 + 1;
    // Lane groups: without any, each lane is a group of its own.
    var groups = data.groups && data.groups.length ? data.groups
      : lanes.map(function (l, i) { return [l, "", [i]]; });
    var groupOf = lanes.map(function () { return -1; });
    groups.forEach(function (g, k) { g[2].forEach(function (lane) { groupOf[lane] = k; }); });
    var open = groups.map(function (g) { return g[2].length < 2; });
    // rows: the lanes drawn, top to bottom; laneTop[lane] is -1 for a lane folded away, and
    // rowLane[lane] the lane drawn in its place (the group's first), where its links end.
    var rows = [], laneTop = [], rowLane = [], height = 0;
    function layout() {
      rows = []; laneTop = lanes.map(function () { return -1; });
      rowLane = lanes.map(function (_, i) { return i; });
      groups.forEach(function (g, k) {
        if (open[k]) { g[2].forEach(function (lane) { rows.push(lane); }); return; }
        rows.push(g[2][0]);
        g[2].forEach(function (lane) { rowLane[lane] = g[2][0]; });
      });
      lanes.forEach(function (_, i) { if (groupOf[i] < 0) rows.push(i); });
      var y = AXIS_H;
      rows.forEach(function (lane) { laneTop[lane] = y; y += laneDepth[lane] * ROW_H + LANE_PAD; });
      height = y + 4;
    }
    layout();
    function rowLabel(lane) {
      var k = groupOf[lane];
      if (k < 0 || groups[k][2].length < 2) return String(lanes[lane]);
      return open[k] ? (groups[k][2][0] === lane ? "\u25be " : "  ") + lanes[lane]
                     : "\u25b8 " + groups[k][0];
    }
    // Bars per lane sorted by start so each frame culls with a binary search.
    var byLane = lanes.map(function () { return []; });
    bars.forEach(function (b, i) { byLane[b[0]].push(i); });
    var maxDur = lanes.map(function () { return 0; });
    byLane.forEach(function (list, lane) {
      list.sort(function (a, b) { return bars[a][2] - bars[b][2]; });
      list.forEach(function (i) { maxDur[lane] = Math.max(maxDur[lane], bars[i][3] - bars[i][2]); });
    });
    // The bars linked to the selected one, found when a bar is selected.
    var linked = {};
    function select(i) {
      selected = i; linked = {};
      if (i < 0) return;
      links.forEach(function (l) { if (l[0] === i) linked[l[1]] = 1; else if (l[1] === i) linked[l[0]] = 1; });
    }

    // The lanes scroll inside the page at most 80% of the window tall; the canvas is only as
    // tall as that window onto them (a 1,024-lane canvas would be 24,000 px of pixels to clear
    // and fill) and sticks to the top of the scrolled area, which draws the rows in view.
    var canvas = document.createElement("canvas");
    var scroller = document.createElement("div"), spacer = document.createElement("div");
    var tip = document.createElement("div");
    tip.className = "tip";
    scroller.style.overflowY = "auto";
    scroller.style.maxHeight = "80vh";
    canvas.style.position = "sticky";
    canvas.style.top = "0";
    spacer.appendChild(canvas);
    scroller.appendChild(spacer);
    host.appendChild(scroller);
    host.appendChild(tip);
    var scrollTop = 0;  // content y at the canvas's top, as of the last draw
    function contentY(e) { return e.offsetY + scrollTop; }
    var ctx = canvas.getContext("2d");
    var view = { a: t0 - (t1 - t0) * 0.01, b: t1 + (t1 - t0) * 0.01 };
    var selected = -1, drawn = 0, dpr = window.devicePixelRatio || 1;

    function width() { return host.clientWidth || 1200; }
    function xOf(t) { return LANE_LABEL_W + (t - view.a) / (view.b - view.a) * (width() - LANE_LABEL_W); }
    function tOf(x) { return view.a + (x - LANE_LABEL_W) / (width() - LANE_LABEL_W) * (view.b - view.a); }
    function barRect(i) {
      var b = bars[i], x0 = xOf(b[2]), x1 = xOf(b[3]);
      return { x: x0, y: laneTop[rowLane[b[0]]] + b[1] * ROW_H + 1, w: Math.max(1, x1 - x0), h: ROW_H - 2 };
    }
    function fmt(us) {
      var a = Math.abs(us);
      return a >= 1e6 ? (us / 1e6).toFixed(3) + " s" : a >= 1e3 ? (us / 1e3).toFixed(2) + " ms" : us.toFixed(0) + " µs";
    }

    function rulerStep(span, maxTicks) {
      if (!(span > 0)) return 1;
      var step = Math.pow(10, Math.floor(Math.log10(span / maxTicks)));
      if (span / step > maxTicks) step *= 2;
      if (span / step > maxTicks) step *= 2.5;
      if (span / step > maxTicks) step *= 2;
      return step;
    }

    function draw() {
      var w = width();
      spacer.style.height = height + "px";
      var viewH = Math.min(height, scroller.clientHeight || height);
      scrollTop = Math.max(0, Math.min(scroller.scrollTop, height - viewH));
      canvas.width = w * dpr; canvas.height = viewH * dpr;
      canvas.style.height = viewH + "px";
      ctx.setTransform(dpr, 0, 0, dpr, 0, -scrollTop * dpr);
      ctx.clearRect(0, scrollTop, w, viewH);
      ctx.font = "11px sans-serif";
      drawn = 0;
      rows.forEach(function (lane, row) {
        var top = laneTop[lane], h = laneDepth[lane] * ROW_H, k = groupOf[lane];
        if (top + h < scrollTop + AXIS_H || top - 2 > scrollTop + viewH) return;  // out of view
        ctx.fillStyle = row % 2 ? "#f7f8fb" : "#fff";
        ctx.fillRect(0, top - 2, w, h + 4);
        ctx.fillStyle = k >= 0 && groups[k][1] ? colorOf(groups[k][1]) : "#1d2330";
        ctx.fillText(rowLabel(lane).slice(0, 32), 4, top + 13);
        var list = byLane[lane];
        // First bar that could be visible: start >= view.a - longest bar of the lane.
        var lo = 0, hi = list.length, from = view.a - maxDur[lane];
        while (lo < hi) { var mid = (lo + hi) >> 1; if (bars[list[mid]][2] < from) lo = mid + 1; else hi = mid; }
        var lastPx = [];
        for (var j = lo; j < list.length; j++) {
          var i = list[j], b = bars[i];
          if (b[2] > view.b) break;
          if (b[3] < view.a) continue;
          var r = barRect(i);
          // Bars narrower than a pixel that land on an already-painted pixel are folded away.
          var px = Math.floor(r.x);
          if (r.w <= 1 && lastPx[b[1]] === px) continue;
          lastPx[b[1]] = px;
          var st = styleOf(b);
          ctx.fillStyle = colorOf(st[1]);
          ctx.globalAlpha = selected >= 0 && i !== selected && !linked[i] ? 0.35 : 1;
          ctx.fillRect(Math.max(r.x, LANE_LABEL_W), r.y, Math.min(r.w, w), r.h);
          if (r.w > 40) {
            ctx.fillStyle = "#fff";
            ctx.fillText(String(st[0]).slice(0, Math.floor(r.w / 6)), Math.max(r.x, LANE_LABEL_W) + 3, r.y + 12);
          }
          drawn++;
        }
        ctx.globalAlpha = 1;
      });
      drawLinks(w);
      drawMarkers();
      // The time axis, pinned above the scrolled lanes.
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, scrollTop, w, AXIS_H - 2);
      ctx.fillStyle = "#667085";
      // The views' rule (views::ruler_step_us, views::ruler_ticks_us): 1-2-5 steps, offsets from
      // the run's start, none before it, so the padding left of the first bar shows no negative
      // label.
      var a = view.a - t0, b = view.b - t0, step = rulerStep(b - a, 8);
      var labels = [];
      for (var k = Math.ceil(Math.max(0, a) / step); k * step <= b && labels.length <= 200; k++) {
        var t = k * step, x = xOf(t0 + t);
        ctx.fillRect(x, scrollTop + AXIS_H - 6, 1, 6);
        ctx.fillText(fmt(t), x + 2, scrollTop + AXIS_H - 9);
        labels.push(fmt(t));
      }
      host.setAttribute("data-ruler", labels.join("|"));
      host.setAttribute("data-drawn-bars", String(drawn));
      host.setAttribute("data-rows", String(rows.length));
    }

    function drawLinks(w) {
      if (!links.length) return;
      ctx.lineWidth = 1;
      var shown = 0;
      for (var k = 0; k < links.length && shown < 5000; k++) {
        var a = bars[links[k][0]], b = bars[links[k][1]];
        if (Math.max(a[3], b[3]) < view.a || Math.min(a[2], b[2]) > view.b) continue;
        if (rowLane[a[0]] === rowLane[b[0]]) continue;  // both folded onto one lane
        var ra = barRect(links[k][0]), rb = barRect(links[k][1]);
        var bad = PROBLEMS[styleOf(a)[1]] || PROBLEMS[styleOf(b)[1]];
        ctx.strokeStyle = bad ? "rgba(214,59,59,0.8)" : "rgba(60,80,120,0.35)";
        ctx.beginPath();
        ctx.moveTo(Math.max(ra.x, LANE_LABEL_W), ra.y + ra.h);
        ctx.lineTo(Math.max(rb.x, LANE_LABEL_W), rb.y);
        ctx.stroke();
        shown++;
      }
    }

    // A problem marker: a triangle on its rank's lane at the time the collective began.
    function drawMarkers() {
      markers.forEach(function (m) {
        if (m[1] < view.a || m[1] > view.b) return;
        var x = xOf(m[1]), y = laneTop[rowLane[m[0]]];
        ctx.fillStyle = colorOf(m[2]);
        ctx.beginPath();
        ctx.moveTo(x - 6, y - 2); ctx.lineTo(x + 6, y - 2); ctx.lineTo(x, y + 8);
        ctx.fill();
      });
    }
    function markerAt(x, y) {
      for (var k = 0; k < markers.length; k++) {
        var m = markers[k], mx = xOf(m[1]), my = laneTop[rowLane[m[0]]];
        if (Math.abs(x - mx) <= 6 && y >= my - 3 && y <= my + 9) return m;
      }
      return null;
    }

    function rowAt(y) {
      for (var r = 0; r < rows.length; r++) {
        var lane = rows[r];
        if (y >= laneTop[lane] && y <= laneTop[lane] + laneDepth[lane] * ROW_H) return lane;
      }
      return -1;
    }
    function hit(x, y) {
      var lane = rowAt(y);
      if (lane < 0) return -1;
      var t = tOf(x), best = -1, list = byLane[lane], slack = (view.b - view.a) / width() * 2;
      for (var j = 0; j < list.length; j++) {
        var b = bars[list[j]];
        if (b[2] - slack <= t && t <= b[3] + slack && laneTop[lane] + b[1] * ROW_H <= y &&
            y < laneTop[lane] + (b[1] + 1) * ROW_H) best = list[j];
      }
      return best;
    }

    var drag = null;
    canvas.addEventListener("mousedown", function (e) {
      drag = { x: e.offsetX, y: e.clientY, top: scroller.scrollTop, a: view.a, b: view.b, moved: false };
    });
    window.addEventListener("mouseup", function (e) {
      if (drag && !drag.moved && e.target === canvas) {
        var lane = e.offsetX < LANE_LABEL_W ? rowAt(contentY(e)) : -1;
        if (lane >= 0 && groups[groupOf[lane]] && groups[groupOf[lane]][2].length > 1) toggle(groupOf[lane]);
        else { select(hit(e.offsetX, contentY(e))); draw(); }
      }
      drag = null;
    });
    canvas.addEventListener("mousemove", function (e) {
      if (drag) {
        var dt = (e.offsetX - drag.x) / (width() - LANE_LABEL_W) * (drag.b - drag.a);
        scroller.scrollTop = drag.top - (e.clientY - drag.y);  // drag up and down scrolls lanes
        if (Math.abs(e.offsetX - drag.x) > 2) drag.moved = true;
        view.a = drag.a - dt; view.b = drag.b - dt; draw();
        return;
      }
      var mk = markerAt(e.offsetX, contentY(e)), i = hit(e.offsetX, contentY(e));
      if (mk) {
        tip.textContent = mk[2] + " on " + lanes[mk[0]] + "\n" + mk[3];
        tip.style.left = Math.min(e.offsetX + 12, width() - 300) + "px";
        tip.style.top = (e.offsetY + 14) + "px";
        tip.style.display = "block";
        return;
      }
      if (i < 0) { tip.style.display = "none"; return; }
      var b = bars[i], st = styleOf(b);
      tip.textContent = st[0] + "\n" + lanes[b[0]] + "  start " + fmt(b[2] - t0) + "  duration " + fmt(b[3] - b[2]) +
        (st[2] ? "\n" + st[2] : "");
      tip.style.left = Math.min(e.offsetX + 12, width() - 300) + "px";
      tip.style.top = (e.offsetY + 14) + "px";
      tip.style.display = "block";
    });
    canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
    canvas.addEventListener("wheel", function (e) {
      if (e.shiftKey) return;  // Shift+wheel scrolls the lanes
      e.preventDefault();
      var t = tOf(e.offsetX), f = e.deltaY > 0 ? 1.25 : 0.8;
      view.a = t - (t - view.a) * f; view.b = t + (view.b - t) * f;
      if (view.b - view.a < 1e-3) view.b = view.a + 1e-3;
      draw();
    }, { passive: false });
    var reset = document.getElementById("timeline-reset");
    if (reset) reset.addEventListener("click", function () {
      view.a = t0 - (t1 - t0) * 0.01; view.b = t1 + (t1 - t0) * 0.01; select(-1); draw();
    });
    // A group opens from its <details> toggle or its label; the two stay in step.
    var toggles = {};
    document.querySelectorAll("#lane-groups details[data-group]").forEach(function (d) {
      var k = Number(d.getAttribute("data-group"));
      toggles[k] = d;
      d.addEventListener("toggle", function () {
        if (open[k] !== d.open) { open[k] = d.open; layout(); draw(); }
      });
    });
    function toggle(k) {
      open[k] = !open[k];
      if (toggles[k]) toggles[k].open = open[k];
      layout(); draw();
    }
    window.addEventListener("resize", draw);
    scroller.addEventListener("scroll", draw);
    draw();
    host.setAttribute("data-bars", String(bars.length));
    host.setAttribute("data-lanes", String(lanes.length));
    host.setAttribute("data-links", String(links.length));
    host.setAttribute("data-markers", String(markers.length));
  }
  document.addEventListener("DOMContentLoaded", init);
})();
