#!/usr/bin/env bash
# How fast a report's collective page opens in headless Chromium (not part of the test suite):
# a copy of collectives.html, its data file and a timeline.js that records performance.now()
# marks is loaded RUNS times; per run it prints when the data file had been parsed (from
# navigation start), when the folded lanes had been drawn, how long opening every lane group
# and drawing again took, and the rows drawn folded and open. Target: folded <= 1000 ms.
# Usage: bench/collective_page.sh REPORT_DIR [RUNS]
set -euo pipefail

[[ $# -ge 1 && "$1" != "-h" && "$1" != "--help" ]] || { sed -n '2,7p' "$0"; exit 0; }
report=$1
runs=${2:-3}
[[ -f "$report/collectives.html" && -f "$report/data/collectives.js" ]] ||
  { echo "bench/collective_page.sh: $report has no collectives.html and data/collectives.js" >&2; exit 2; }
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -n "$chromium" ]] || { echo "bench/collective_page.sh: needs chromium" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/data" "$work/assets"
cp "$report/collectives.html" "$work/"
cp "$report/data/collectives.js" "$work/data/"
cp "$report"/assets/*.css "$report"/assets/report.js "$work/assets/" 2>/dev/null || true
# The marks: after the data file ran (timeline.js's init starts), after the first draw, and
# after every group is opened and drawn again.
sed -e 's/var data = window.TLSCOPE_TIMELINE;/var T0 = performance.now(); &/' \
    -e 's/^    draw();$/    draw(); var T1 = performance.now(), folded = rows.length;\
    open = open.map(function () { return true; }); layout(); draw();\
    document.body.setAttribute("data-bench", "parsed " + Math.round(T0) + " ms, folded drawn " +\
      Math.round(T1) + " ms (" + folded + " rows), all open " +\
      Math.round(performance.now() - T1) + " ms (" + rows.length + " rows)");/' \
    "$report/assets/timeline.js" > "$work/assets/timeline.js"
grep -q 'data-bench' "$work/assets/timeline.js" ||
  { echo "bench/collective_page.sh: timeline.js no longer has the lines the marks go after" >&2; exit 2; }
echo "$(du -k "$report/data/collectives.js" | cut -f1) KB data/collectives.js, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 1; i <= runs; i++)); do
  rm -rf "$work/profile"
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" --allow-file-access-from-files --dump-dom \
    "file://$work/collectives.html" 2>/dev/null | grep -o 'data-bench="[^"]*"' | sed 's/data-bench=//; s/"//g'
done
