#!/usr/bin/env bash
# The report step alone (`tlscope report DB -o DIR`) for two binaries run alternately (old, new,
# old, new, ...) on one database, so that both see the same load: wall, CPU (user + sys) and peak
# RSS of each run (/usr/bin/time) with the 1-minute load average before it. The folder is
# prepared outside the timing: --fresh removes it before each run (the file system then allocates
# every inode anew), otherwise each run overwrites the previous run's files in place. --out puts
# the folders elsewhere (e.g. under /dev/shm, to leave a busy disk out). Not part of the tests.
# Usage: bench/report_step_ab.sh [--runs N] [--fresh] [--out DIR] OLD NEW DB
set -euo pipefail

runs=3
fresh=0
out=/tmp/tlscope-bench/report-step
bins=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    -*) echo "bench/report_step_ab.sh: unknown argument $1" >&2; exit 2 ;;
    *) bins+=("$1"); shift ;;
  esac
done
[[ ${#bins[@]} -eq 3 ]] || { echo "bench/report_step_ab.sh: give OLD NEW DB" >&2; exit 2; }
db=${bins[2]}
[[ -x /usr/bin/time ]] || { echo "bench/report_step_ab.sh: needs /usr/bin/time" >&2; exit 2; }
mkdir -p "$out"
export TLSCOPE_COMMAND_LOG=off
for ((i = 0; i < runs; ++i)); do
  for which in old new; do
    bin=${bins[0]}
    [[ $which == new ]] && bin=${bins[1]}
    dir="$out/$which"
    ((fresh)) && rm -rf "$dir"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t=$({ /usr/bin/time -f '%e %U %S %M' "$bin" report "$db" -o "$dir" >/dev/null; } 2>&1 | tail -1)
    read -r wall user sys rss <<<"$t"
    printf '%s load %s  wall %5.2f s  cpu %5.2f s (user %.2f + sys %.2f)  peak %d MB\n' \
      "$which" "$load" "$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" $((rss / 1024))
  done
done
