#!/usr/bin/env bash
# Small jobs, logs to finished report as one command (`tlscope report LOGS --db NEW -o DIR`), for
# two tlscope binaries run alternately (old, new, old, new, ...) so that both see the same load:
# the least wall time and the least CPU time (user + sys) of --runs runs each, in milliseconds
# (bash's `time`, 1 ms resolution), with the load average before and after. --callgrind adds the
# instruction count of one run of each (valgrind's callgrind, all threads): the figure a shared
# machine does not disturb. Not part of the test suite.
# Usage: bench/small_jobs.sh [--runs N] [--logs DIR] [--out DIR] [--callgrind] OLD NEW
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
logs="${TLSCOPE_SHARED_LOGS:-$root/../shared/logs/torch}"
out=/tmp/tlscope-bench/small-jobs
runs=10
callgrind=0
bins=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --callgrind) callgrind=1; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    -*) echo "bench/small_jobs.sh: unknown argument $1" >&2; exit 2 ;;
    *) bins+=("$1"); shift ;;
  esac
done
[[ ${#bins[@]} -eq 2 ]] || { echo "bench/small_jobs.sh: give two tlscope binaries, OLD NEW" >&2; exit 2; }
[[ -d "$logs" ]] || logs=/work/shared/logs/torch
for b in "${bins[@]}"; do [[ -x "$b" ]] || { echo "bench/small_jobs.sh: no $b" >&2; exit 2; }; done
if ((callgrind)) && ! command -v valgrind >/dev/null; then
  echo "bench/small_jobs.sh: --callgrind needs valgrind" >&2
  exit 2
fi
mkdir -p "$out"
export TLSCOPE_COMMAND_LOG=off  # the same work for both binaries, and no user history written

# One run: prints "wall_ms cpu_ms".
one_run() {
  local bin=$1
  shift
  rm -rf "$out/site" "$out/job.db" "$out"/job.db.*
  local TIMEFORMAT='%3R %3U %3S' t
  t=$( { time "$bin" report "$@" --db "$out/job.db" -o "$out/site" >/dev/null 2>&1; } 2>&1 )
  awk '{ printf "%.0f %.0f\n", $1 * 1000, ($2 + $3) * 1000 }' <<<"$t"
}

instructions() {
  local bin=$1
  shift
  rm -rf "$out/site" "$out/job.db" "$out"/job.db.*
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" report "$@" --db "$out/job.db" \
    -o "$out/site" 2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}

measure() {
  local name=$1
  shift
  local load_before load_after
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  local -a wall=(999999 999999) cpu=(999999 999999)
  for ((i = 0; i < runs; ++i)); do
    for k in 0 1; do
      read -r w c <<<"$(one_run "${bins[$k]}" "$@")"
      ((w < wall[k])) && wall[k]=$w
      ((c < cpu[k])) && cpu[k]=$c
    done
  done
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)
  local ir_old="-" ir_new="-"
  if ((callgrind)); then
    ir_old=$(instructions "${bins[0]}" "$@")
    ir_new=$(instructions "${bins[1]}" "$@")
  fi
  printf '%-8s old %5d ms wall %5d ms CPU | new %5d ms wall %5d ms CPU | instructions old %s new %s | load %s -> %s\n' \
    "$name" "${wall[0]}" "${cpu[0]}" "${wall[1]}" "${cpu[1]}" "$ir_old" "$ir_new" "$load_before" \
    "$load_after"
}

echo "least of $runs runs each, binaries alternating: old ${bins[0]}, new ${bins[1]}"
measure simple "$logs/simple.log"
measure 4-rank "$logs/multi_rank_logs"
measure 7-rank "$logs/multi_rank_logs" "$logs/multi_rank_schedule"
rm -rf "$out/site" "$out/job.db" "$out"/job.db.*
