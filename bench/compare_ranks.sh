#!/usr/bin/env bash
# `tlscope compare` of two 1,024-rank runs from their cached databases (issue #25: < 2 s): a
# data-parallel job (`tlscope-sample ddp`) and the same job with a straggler, each written by
# tlscope-sample and ingested + analysed once (timed apart: that is the cache being filled),
# then views::compare_runs alone (views_compare_bench) and the whole command on the two
# databases under /usr/bin/time (wall, user, sys, peak RSS).
# Usage: bench/compare_ranks.sh [--build DIR] [--out DIR] [--ranks N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out=/tmp/tlscope-compare-ranks
ranks=1024
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "bench/compare_ranks.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -x /usr/bin/time ]] || { echo "bench/compare_ranks.sh: needs /usr/bin/time" >&2; exit 2; }
sample="$build/samples/runtime/tlscope-sample"
tlscope="$build/cli/tlscope"
bench="$build/bench/views_compare_bench"
for b in "$sample" "$tlscope" "$bench"; do
  [[ -x "$b" ]] || { echo "bench/compare_ranks.sh: $b not built" >&2; exit 2; }
done
rm -rf "$out"
mkdir -p "$out"
step() {  # step NAME COMMAND...: runs it under /usr/bin/time, prints one line
  local name=$1
  shift
  /usr/bin/time -o "$out/$name.time" -f "%e %U %S %M" "$@" > "$out/$name.out" 2>&1 ||
    { cat "$out/$name.out" >&2; exit 1; }
  read -r wall user sys rss < "$out/$name.time"
  printf '%-10s %7.2f s wall %7.2f s user %6.2f s sys  peak RSS %7.1f MiB\n' "$name" "$wall" \
    "$user" "$sys" "$(echo "$rss / 1024" | bc -l)"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) cores)"
step sample_a "$sample" ddp --ranks "$ranks" --out "$out/a"
step sample_b "$sample" straggler --ranks "$ranks" --out "$out/b"
step ingest_a "$tlscope" ingest "$out/a" --db "$out/a.db"
step ingest_b "$tlscope" ingest "$out/b" --db "$out/b.db"
step compare "$tlscope" compare "$out/a.db" "$out/b.db"
step compare2 "$tlscope" compare "$out/a.db" "$out/b.db"
step json "$tlscope" compare --format json "$out/a.db" "$out/b.db"
"$bench" --a "$out/a.db" --b "$out/b.db" --repeat 5
echo "verdict:"; sed -n '5,12p' "$out/compare.out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
