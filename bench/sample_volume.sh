#!/usr/bin/env bash
# Log volume of the sample runtime (not part of the test suite): runs
# `tlscope-sample ddp --ranks 8 --steps 200` (or the scenario/options given) and prints its run
# time (wall, CPU, peak RSS via /usr/bin/time) and the records, lines and bytes of its logs.
# Usage: bench/sample_volume.sh [--build DIR] [--out DIR] [scenario options...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out=/tmp/tlscope-sample-volume
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(ddp --ranks 8 --steps 200)
[[ -x /usr/bin/time ]] || { echo "bench/sample_volume.sh: needs /usr/bin/time" >&2; exit 2; }
cmake --build "$build" -j2 --target tlscope-sample >/dev/null

rm -rf "$out"
/usr/bin/time -f "run: %e s wall  %U s user  %S s sys  peak RSS %M KB" \
  "$build/samples/runtime/tlscope-sample" "${args[@]}" --out "$out"
# A record starts with a glog header line ("V..."); payload lines start with a TAB.
records=$(cat "$out"/*.log | grep -c '^V')
lines=$(cat "$out"/*.log | wc -l)
bytes=$(cat "$out"/*.log | wc -c)
files=$(ls "$out"/*.log | wc -l)
echo "logs: $files files  $records records  $lines lines  $bytes bytes" \
     "(truth.json $(stat -c %s "$out/truth.json") bytes)"
