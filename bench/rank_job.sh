#!/usr/bin/env bash
# A 1,024-rank desync job from its logs to a finished report, step by step (not part of the test
# suite): tlscope-sample writes the logs (timed apart: it is the job, not tlscope), then
# `tlscope ingest --no-analyze`, `tlscope analyze` and `tlscope report` each print wall, CPU and
# peak RSS (/usr/bin/time); "total" is the three tlscope steps. Target: total <= 10 s.
# Usage: bench/rank_job.sh [--build DIR] [--out DIR] [--ranks N] [--jobs N] [scenario options...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out=/tmp/tlscope-rank-job
ranks=1024
jobs=2
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "bench/rank_job.sh: needs /usr/bin/time" >&2; exit 2; }
sample="$build/samples/runtime/tlscope-sample"
tlscope="$build/cli/tlscope"
for b in "$sample" "$tlscope"; do
  [[ -x "$b" ]] || { echo "bench/rank_job.sh: $b not built" >&2; exit 2; }
done

rm -rf "$out"
mkdir -p "$out"
step() {  # step NAME COMMAND...: runs it, prints one line, adds its wall time to $out/total
  local name=$1
  shift
  /usr/bin/time -o "$out/$name.time" -f "%e %U %S %M" "$@" > "$out/$name.out" 2>&1 ||
    { cat "$out/$name.out" >&2; exit 1; }
  read -r wall user sys rss < "$out/$name.time"
  printf '%-8s %7.2f s wall %7.2f s user %6.2f s sys  peak RSS %7.1f MiB\n' "$name" "$wall" \
    "$user" "$sys" "$(echo "$rss / 1024" | bc -l)"
  [[ "$name" == sample ]] || echo "$wall" >> "$out/total"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) cores)"
step sample "$sample" desync --ranks "$ranks" --out "$out/logs" "$@"
echo "logs: $(ls "$out"/logs/*.log | wc -l) files, $(du -sm "$out/logs" | cut -f1) MB"
step ingest "$tlscope" ingest "$out/logs" --db "$out/job.db" --no-analyze --jobs "$jobs"
step analyze "$tlscope" analyze "$out/job.db" --timings
step report env TLSCOPE_REPORT_TIMES=1 "$tlscope" report "$out/job.db" -o "$out/report"
printf 'total    %7.2f s wall (ingest + analyze + report; target <= 10 s)\n' \
  "$(paste -sd+ "$out/total" | bc -l)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "report: $(du -sm "$out/report" | cut -f1) MB in $out/report"
# Where the time went inside each step: ingest's own summary, every analysis pass and every
# report page family (wall seconds, as tlscope measured them).
echo "ingest:"; grep -i "ingested\|index" "$out/ingest.out" | sed 's/^/  /' || true
echo "analysis passes:"; grep '^  pass ' "$out/analyze.out" | sed 's/^  pass /  /'
echo "report pages:"; grep -v '^wrote\|note:' "$out/report.out" || true
