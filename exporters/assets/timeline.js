// tlscope report: a canvas timeline with lanes, bars, links between bars, zoom (wheel) and pan
// (drag). Data comes from window.TLSCOPE_TIMELINE, set by a data/*.js file loaded before this:
//   { lanes: [label...], colors: {cls: "#rrggbb", ...},              // one colour per kind
//     bars: [[lane, depth, start, end, label, cls, group, detail], ...],
//     links: [[barIndex, barIndex], ...],                           // matched bars across lanes
//     markers: [[lane, time, cls, text], ...] }                     // problems on their ranks
(function () {
  "use strict";
  var COLORS = { ok: "#6b8fd6", phase: "#6b8fd6", desync: "#d63b3b", straggler: "#e59a1c",
                 hang: "#8e24aa", fail: "#d63b3b", cache: "#2e9d5b" };
  var PROBLEMS = { desync: 1, hang: 1, straggler: 1, fail: 1 };
  var LANE_LABEL_W = 170, ROW_H = 18, LANE_PAD = 6, AXIS_H = 22;

  function init() {
    var data = window.TLSCOPE_TIMELINE;
    var host = document.getElementById("timeline");
    if (!host || !data) return;
    var bars = data.bars, lanes = data.lanes, markers = data.markers || [];
    var colors = data.colors || {};
    function colorOf(cls) { return colors[cls] || COLORS[cls] || COLORS.ok; }
    var laneDepth = lanes.map(function () { return 1; });
    var t0 = Infinity, t1 = -Infinity;
    bars.forEach(function (b) {
      laneDepth[b[0]] = Math.max(laneDepth[b[0]], b[1] + 1);
      t0 = Math.min(t0, b[2]); t1 = Math.max(t1, b[3]);
    });
    if (!bars.length) { t0 = 0; t1 = 1; }
    if (t1 <= t0) t1 = t0 + 1;
    var laneTop = [], y = AXIS_H;
    lanes.forEach(function (_, i) { laneTop.push(y); y += laneDepth[i] * ROW_H + LANE_PAD; });
    var height = y + 4;
    // Bars per lane sorted by start so each frame culls with a binary search.
    var byLane = lanes.map(function () { return []; });
    bars.forEach(function (b, i) { byLane[b[0]].push(i); });
    var maxDur = lanes.map(function () { return 0; });
    byLane.forEach(function (list, lane) {
      list.sort(function (a, b) { return bars[a][2] - bars[b][2]; });
      list.forEach(function (i) { maxDur[lane] = Math.max(maxDur[lane], bars[i][3] - bars[i][2]); });
    });
    var linksOf = {};
    (data.links || []).forEach(function (l) {
      (linksOf[l[0]] = linksOf[l[0]] || []).push(l[1]);
      (linksOf[l[1]] = linksOf[l[1]] || []).push(l[0]);
    });

    var canvas = document.createElement("canvas");
    var tip = document.createElement("div");
    tip.className = "tip";
    host.appendChild(canvas);
    host.appendChild(tip);
    var ctx = canvas.getContext("2d");
    var view = { a: t0 - (t1 - t0) * 0.01, b: t1 + (t1 - t0) * 0.01 };
    var selected = -1, drawn = 0, dpr = window.devicePixelRatio || 1;

    function width() { return host.clientWidth || 1200; }
    function xOf(t) { return LANE_LABEL_W + (t - view.a) / (view.b - view.a) * (width() - LANE_LABEL_W); }
    function tOf(x) { return view.a + (x - LANE_LABEL_W) / (width() - LANE_LABEL_W) * (view.b - view.a); }
    function barRect(i) {
      var b = bars[i], x0 = xOf(b[2]), x1 = xOf(b[3]);
      return { x: x0, y: laneTop[b[0]] + b[1] * ROW_H + 1, w: Math.max(1, x1 - x0), h: ROW_H - 2 };
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
      canvas.width = w * dpr; canvas.height = height * dpr;
      canvas.style.height = height + "px";
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, w, height);
      ctx.font = "11px sans-serif";
      // Time axis: the views' rule (views::ruler_step_us, views::ruler_ticks_us): 1-2-5 steps,
      // offsets from the run's start, none before it, so the padding left of the first bar
      // shows no negative label.
      ctx.fillStyle = "#667085";
      var a = view.a - t0, b = view.b - t0, step = rulerStep(b - a, 8);
      var labels = [];
      for (var k = Math.ceil(Math.max(0, a) / step); k * step <= b && labels.length <= 200; k++) {
        var t = k * step, x = xOf(t0 + t);
        ctx.fillRect(x, AXIS_H - 6, 1, 6);
        ctx.fillText(fmt(t), x + 2, AXIS_H - 9);
        labels.push(fmt(t));
      }
      host.setAttribute("data-ruler", labels.join("|"));
      drawn = 0;
      lanes.forEach(function (label, lane) {
        var top = laneTop[lane], h = laneDepth[lane] * ROW_H;
        ctx.fillStyle = lane % 2 ? "#f7f8fb" : "#fff";
        ctx.fillRect(0, top - 2, w, h + 4);
        ctx.fillStyle = "#1d2330";
        ctx.fillText(String(label).slice(0, 28), 4, top + 13);
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
          ctx.fillStyle = colorOf(b[5]);
          ctx.globalAlpha = selected >= 0 && i !== selected && (linksOf[selected] || []).indexOf(i) < 0 ? 0.35 : 1;
          ctx.fillRect(Math.max(r.x, LANE_LABEL_W), r.y, Math.min(r.w, w), r.h);
          if (r.w > 40) {
            ctx.fillStyle = "#fff";
            ctx.fillText(String(b[4]).slice(0, Math.floor(r.w / 6)), Math.max(r.x, LANE_LABEL_W) + 3, r.y + 12);
          }
          drawn++;
        }
        ctx.globalAlpha = 1;
      });
      drawLinks(w);
      drawMarkers();
      host.setAttribute("data-drawn-bars", String(drawn));
    }

    function drawLinks(w) {
      var links = data.links || [];
      if (!links.length) return;
      ctx.lineWidth = 1;
      var shown = 0;
      for (var k = 0; k < links.length && shown < 5000; k++) {
        var a = bars[links[k][0]], b = bars[links[k][1]];
        if (Math.max(a[3], b[3]) < view.a || Math.min(a[2], b[2]) > view.b) continue;
        var ra = barRect(links[k][0]), rb = barRect(links[k][1]);
        var bad = PROBLEMS[a[5]] || PROBLEMS[b[5]];
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
        var x = xOf(m[1]), y = laneTop[m[0]];
        ctx.fillStyle = colorOf(m[2]);
        ctx.beginPath();
        ctx.moveTo(x - 6, y - 2); ctx.lineTo(x + 6, y - 2); ctx.lineTo(x, y + 8);
        ctx.fill();
      });
    }
    function markerAt(x, y) {
      for (var k = 0; k < markers.length; k++) {
        var m = markers[k], mx = xOf(m[1]), my = laneTop[m[0]];
        if (Math.abs(x - mx) <= 6 && y >= my - 3 && y <= my + 9) return m;
      }
      return null;
    }

    function hit(x, y) {
      for (var lane = 0; lane < lanes.length; lane++) {
        if (y < laneTop[lane] || y > laneTop[lane] + laneDepth[lane] * ROW_H) continue;
        var t = tOf(x), best = -1, list = byLane[lane], slack = (view.b - view.a) / width() * 2;
        for (var j = 0; j < list.length; j++) {
          var b = bars[list[j]];
          if (b[2] - slack <= t && t <= b[3] + slack && laneTop[lane] + b[1] * ROW_H <= y &&
              y < laneTop[lane] + (b[1] + 1) * ROW_H) best = list[j];
        }
        return best;
      }
      return -1;
    }

    var drag = null;
    canvas.addEventListener("mousedown", function (e) { drag = { x: e.offsetX, a: view.a, b: view.b, moved: false }; });
    window.addEventListener("mouseup", function (e) {
      if (drag && !drag.moved && e.target === canvas) { selected = hit(e.offsetX, e.offsetY); draw(); }
      drag = null;
    });
    canvas.addEventListener("mousemove", function (e) {
      if (drag) {
        var dt = (e.offsetX - drag.x) / (width() - LANE_LABEL_W) * (drag.b - drag.a);
        if (Math.abs(e.offsetX - drag.x) > 2) drag.moved = true;
        view.a = drag.a - dt; view.b = drag.b - dt; draw();
        return;
      }
      var mk = markerAt(e.offsetX, e.offsetY), i = hit(e.offsetX, e.offsetY);
      if (mk) {
        tip.textContent = mk[2] + " on " + lanes[mk[0]] + "\n" + mk[3];
        tip.style.left = Math.min(e.offsetX + 12, width() - 300) + "px";
        tip.style.top = (e.offsetY + 14) + "px";
        tip.style.display = "block";
        return;
      }
      if (i < 0) { tip.style.display = "none"; return; }
      var b = bars[i];
      tip.textContent = b[4] + "\n" + lanes[b[0]] + "  start " + fmt(b[2] - t0) + "  duration " + fmt(b[3] - b[2]) +
        (b[7] ? "\n" + b[7] : "");
      tip.style.left = Math.min(e.offsetX + 12, width() - 300) + "px";
      tip.style.top = (e.offsetY + 14) + "px";
      tip.style.display = "block";
    });
    canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
    canvas.addEventListener("wheel", function (e) {
      e.preventDefault();
      var t = tOf(e.offsetX), f = e.deltaY > 0 ? 1.25 : 0.8;
      view.a = t - (t - view.a) * f; view.b = t + (view.b - t) * f;
      if (view.b - view.a < 1e-3) view.b = view.a + 1e-3;
      draw();
    }, { passive: false });
    var reset = document.getElementById("timeline-reset");
    if (reset) reset.addEventListener("click", function () {
      view.a = t0 - (t1 - t0) * 0.01; view.b = t1 + (t1 - t0) * 0.01; selected = -1; draw();
    });
    window.addEventListener("resize", draw);
    draw();
    host.setAttribute("data-bars", String(bars.length));
    host.setAttribute("data-lanes", String(lanes.length));
    host.setAttribute("data-links", String((data.links || []).length));
    host.setAttribute("data-markers", String(markers.length));
  }
  document.addEventListener("DOMContentLoaded", init);
})();
