#!/usr/bin/env bash
# Full-ingest benchmark (not part of the test suite): builds Release, makes a ~1 GB TORCH_TRACE
# log with bench/make_big_log, then prints parse-only MB/s (bench/parse_bench) and full
# `tlscope ingest` MB/s and peak RSS (via /usr/bin/time -v, Debian package `time`).
# Usage: bench/run.sh [--out DIR] [--size-mb N] [--build DIR] [--logs DIR] [--jobs N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=/tmp/tlscope-bench
size_mb=1024
build="$root/build-release"
logs="${TLSCOPE_SHARED_LOGS:-$root/../shared/logs/torch}"
jobs=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --size-mb) size_mb=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "bench/run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -d "$logs" ]] || logs=/work/shared/logs/torch
[[ -x /usr/bin/time ]] || { echo "bench/run.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

mkdir -p "$out"
if [[ -f "$build/CMakeCache.txt" ]]; then
  # An existing build directory keeps its options; it must be a Release build.
  grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" ||
    { echo "bench/run.sh: $build is not a Release build" >&2; exit 2; }
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTLSCOPE_GUI=OFF \
    -DTLSCOPE_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j2 --target tlscope make_big_log parse_bench

log="$out/big.log"
want=$((size_mb * 1000000))
if [[ ! -s "$log" ]] || (( $(stat -c %s "$log") < want * 9 / 10 )); then
  "$build/bench/make_big_log" --size-mb "$size_mb" --logs "$logs" "$log"
fi
bytes=$(stat -c %s "$log")
echo "== input: $log ($((bytes / 1000000)) MB)"

echo "== parse only (bench/parse_bench)"
# Best of 3: the first run may still be reading the log from disk.
"$build/bench/parse_bench" --repeat 3 "$log"

echo "== full ingest (tlscope ingest --jobs $jobs --no-analyze)"
db="$out/big.db"
rm -f "$db"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -v "$build/cli/tlscope" ingest "$log" --db "$db" --jobs "$jobs" --no-analyze \
  >"$out/ingest.txt" 2>"$out/time.txt"
cat "$out/ingest.txt"
wall=$(grep 'Elapsed (wall clock)' "$out/time.txt" | awk '{print $NF}')
rss_kb=$(grep 'Maximum resident set size' "$out/time.txt" | awk '{print $NF}')
user=$(grep 'User time' "$out/time.txt" | awk '{print $NF}')
sys=$(grep 'System time' "$out/time.txt" | awk '{print $NF}')
writer=$(grep -o 'writer thread [0-9.]* CPU-s' "$out/ingest.txt" | awk '{print $3}')
secs=$(awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }' <<<"$wall")
awk -v b="$bytes" -v s="$secs" -v r="$rss_kb" -v d="$(stat -c %s "$db")" -v u="$user" \
  -v y="$sys" -v w="${writer:-0}" 'BEGIN {
  printf "ingest: %.2f s wall  %.0f MB/s  peak RSS %.1f MiB  database %.0f MB\n",
         s, b / s / 1e6, r / 1024, d / 1e6
  printf "ingest CPU: %.2f s (user %.2f + sys %.2f) = %.2f CPU-s/GB; writer thread %.2f s = %.2f s/GB\n",
         u + y, u, y, (u + y) / (b / 1e9), w, w / (b / 1e9) }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== analysis of the ingested database (tlscope analyze, timed on its own)"
/usr/bin/time -f "analyze: %e s wall  %U s user  %S s sys  peak RSS %M KB" \
  "$build/cli/tlscope" analyze "$db" | head -1
