#!/usr/bin/env bash
# `tlscope compare A B` of two large logs from scratch (issue #25: two 1 GB logs, both ingests in
# parallel on the 2 cores, the comparison itself < 1 s after ingest, peak RSS <= 150 MB): makes
# the log with make_big_log (--size-mb, default 1024) and a copy of it as B (another path, so
# another cache entry and another ingest), then, with an empty input cache, times the whole
# command under /usr/bin/time -v (wall, user, sys, peak RSS), the same command again (both
# databases cached), and views::compare_runs alone on the two cached databases.
# Usage: bench/compare_big.sh [--build DIR] [--out DIR] [--size-mb N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out=/tmp/tlscope-compare-big
size=1024
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --size-mb) size=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "bench/compare_big.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "bench/compare_big.sh: needs /usr/bin/time" >&2; exit 2; }
tlscope="$build/cli/tlscope"
bench="$build/bench/views_compare_bench"
make="$build/bench/make_big_log"
for b in "$tlscope" "$bench" "$make"; do
  [[ -x "$b" ]] || { echo "bench/compare_big.sh: $b not built" >&2; exit 2; }
done
mkdir -p "$out"
if [[ ! -s "$out/a.log" ]]; then
  "$make" --size-mb "$size" "$out/a.log"
  cp "$out/a.log" "$out/b.log"
fi
echo "logs: $(stat -c %s "$out/a.log") bytes each"
rm -rf "$out/cache"
export XDG_CACHE_HOME="$out/cache"
# The analysis watchdog stops a statement that runs longer than a database of its size needs; on
# a machine shared with other builds (load 13 on 2 cores) the 1 GB analysis trips it.
export TLSCOPE_STATEMENT_SECONDS=${TLSCOPE_STATEMENT_SECONDS:-900}
measure() {  # measure NAME: the compare command under /usr/bin/time -v
  /usr/bin/time -v "$tlscope" compare "$out/a.log" "$out/b.log" > "$out/$1.out" 2> "$out/$1.err" ||
    { cat "$out/$1.err" >&2; exit 1; }
  printf '%-8s %s; user %s s, sys %s s, peak RSS %s KB\n' "$1" \
    "$(grep 'Elapsed (wall' "$out/$1.err" | sed 's/.*): //') wall" \
    "$(grep 'User time' "$out/$1.err" | sed 's/.*: //')" \
    "$(grep 'System time' "$out/$1.err" | sed 's/.*: //')" \
    "$(grep 'Maximum resident' "$out/$1.err" | sed 's/.*: //')"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) cores)"
measure scratch
grep 'ingested' "$out/scratch.err" || true
measure cached
dbs=("$out"/cache/tlscope/*.db)
"$bench" --a "${dbs[0]}" --b "${dbs[1]}" --repeat 3
echo "verdict:"; sed -n '5,8p' "$out/scratch.out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
