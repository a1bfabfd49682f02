#!/usr/bin/env bash
# Logs to finished report, step by step (not part of the test suite): for simple.log, the 4-rank
# and 7-rank real directories and the ~1 GB make_big_log output, times `tlscope ingest
# --no-analyze`, `tlscope analyze` and `tlscope report DB` one after the other under
# /usr/bin/time (Debian package `time`) and prints wall, CPU (user + sys) and peak RSS per step
# with the load average before it, then the same job as one `tlscope report LOGS` command.
# Small inputs: best (least wall) of --repeat runs per step.
# Usage: bench/report_bench.sh [--out DIR] [--build DIR] [--logs DIR] [--big LOG] [--repeat N]
# (SKIP_BIG=1 in the environment leaves the 1 GB log out.)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=/tmp/tlscope-bench
build="$root/build-release"
logs="${TLSCOPE_SHARED_LOGS:-$root/../shared/logs/torch}"
big=""
repeat=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --big) big=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "bench/report_bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -d "$logs" ]] || logs=/work/shared/logs/torch
[[ -x /usr/bin/time ]] || { echo "bench/report_bench.sh: needs /usr/bin/time" >&2; exit 2; }
tlscope="$build/cli/tlscope"
[[ -x "$tlscope" ]] || { echo "bench/report_bench.sh: no $tlscope (build Release first)" >&2; exit 2; }
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" ||
  { echo "bench/report_bench.sh: $build is not a Release build" >&2; exit 2; }
[[ -n "$big" ]] || big="$out/big.log"
[[ -s "$big" ]] || { echo "bench/report_bench.sh: no $big (bench/run.sh makes it)" >&2; exit 2; }
mkdir -p "$out"

# One step under /usr/bin/time: prints "wall user sys rss_kb" for the run with the least wall.
timed() {
  local n=$1 best="" line
  shift
  for ((i = 0; i < n; ++i)); do
    local args=("$@")
    [[ "$1" == ingest || "$1" == ingest-then-report ]] && rm -f "$db" "$db"-*
    [[ "$1" == ingest-then-report ]] && args[0]=report
    /usr/bin/time -f "%e %U %S %M" -o "$out/step-time.txt" "$tlscope" "${args[@]}" >/dev/null 2>&1
    line=$(tail -1 "$out/step-time.txt")
    if [[ -z "$best" ]] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best=$line
    fi
  done
  echo "$best"
}

printf '%-10s %-8s %-16s %8s %18s %10s\n' input step "load (1/5/15)" wall "CPU (user+sys)" "peak RSS"
run_input() {
  local name=$1 n=$2
  shift 2
  db="$out/report-bench-$name.db"
  local site="$out/report-bench-$name"
  local total_wall=0 total_cpu=0 max_rss=0
  for step in ingest analyze report; do
    local load
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    local r
    case $step in
      ingest) r=$(timed "$n" ingest "$@" --db "$db" --jobs 1 --no-analyze) ;;
      analyze) r=$(timed "$n" analyze "$db") ;;
      report) rm -rf "$site"; r=$(timed "$n" report "$db" -o "$site") ;;
    esac
    read -r wall user sys rss <<<"$r"
    printf '%-10s %-8s %-16s %7.2fs %7.2fs (%.2f+%.2f) %7.1f MiB\n' "$name" "$step" "$load" \
      "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$user" "$sys" \
      "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
    total_wall=$(awk -v a="$total_wall" -v b="$wall" 'BEGIN { print a + b }')
    total_cpu=$(awk -v a="$total_cpu" -v u="$user" -v s="$sys" 'BEGIN { print a + u + s }')
    (( rss > max_rss )) && max_rss=$rss
  done
  printf '%-10s %-8s %-16s %7.2fs %7.2fs %14s %7.1f MiB\n' "$name" total "" "$total_wall" \
    "$total_cpu" "" "$(awk -v r="$max_rss" 'BEGIN { print r / 1024 }')"
  # The same job as one command (what a user runs): ingest, analyze and report in one process.
  local load
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  rm -rf "$site"
  read -r wall user sys rss <<<"$(timed "$n" ingest-then-report "$@" --db "$db" -o "$site")"
  printf '%-10s %-8s %-16s %7.2fs %7.2fs (%.2f+%.2f) %7.1f MiB\n' "$name" "one cmd" "$load" \
    "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$user" "$sys" \
    "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
  rm -rf "$db" "$db"-* "$site"
}

run_input simple "$repeat" "$logs/simple.log"
run_input 4-rank "$repeat" "$logs/multi_rank_logs"
run_input 7-rank "$repeat" "$logs/multi_rank_logs" "$logs/multi_rank_schedule"
[[ -n "${SKIP_BIG:-}" ]] || run_input 1gb 1 "$big"
echo "input bytes: 1gb $(stat -L -c %s "$big"); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
