#!/usr/bin/env bash
# A folder of N empty rank files (default 100,000): ingest, summary (of the database and of the
# folder through the cache) and rage, each timed with /usr/bin/time (wall, user + sys CPU, peak
# RSS). Issue 27 item 14: every step must be linear in the file count.
#
# The warm summary's system calls are counted with strace -c when it is installed (perf is not
# available here): the count per file is the profile that found the repeated stats (issue 27).
#
#   bench/many_files.sh BUILD_DIR [N] [--no-rage]
set -euo pipefail
build=$(cd "${1:?usage: many_files.sh BUILD_DIR [N] [--no-rage]}" && pwd)
n=${2:-100000}
no_rage=${3:-}
tlscope=$build/cli/tlscope
tmp=$(mktemp -d /tmp/tlscope-many-files.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache
mkdir "$tmp/logs"
(cd "$tmp/logs" && seq 0 $((n - 1)) | sed 's/.*/dedicated_log_torch_trace_rank_&_x.log/' |
  xargs touch)
step() {
  local name=$1
  shift
  /usr/bin/time -f "$name: %e s wall, %U + %S s CPU, %M KB" "$@" > /dev/null 2> "$tmp/time.txt" ||
    true
  tail -1 "$tmp/time.txt"
}
echo "$n empty rank files; load $(cut -d' ' -f1-3 /proc/loadavg)"
step "ingest" "$tlscope" ingest "$tmp/logs" --db "$tmp/many.db"
step "summary --db" "$tlscope" summary --db "$tmp/many.db"
step "summary DIR (cold cache)" "$tlscope" summary "$tmp/logs"
step "summary DIR (warm cache)" "$tlscope" summary "$tmp/logs"
if command -v strace >/dev/null; then
  strace -f -c -o "$tmp/calls.txt" "$tlscope" summary "$tmp/logs" >/dev/null 2>&1 || true
  echo "summary DIR (warm cache) system calls: $(awk '$NF == "total" {print $(NF-2)}' "$tmp/calls.txt") in all, $(awk '$NF == "newfstatat" {print $4}' "$tmp/calls.txt") stats"
fi
[ "$no_rage" = --no-rage ] && exit 0
step "rage --list --no-scan" "$tlscope" rage --list "$tmp/logs" --no-scan
step "rage --no-report" "$tlscope" rage "$tmp/logs" -o "$tmp/bug.tar.gz" --no-probe --no-report
