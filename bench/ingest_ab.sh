#!/usr/bin/env bash
# Ingest of one log by two tlscope binaries run alternately (old, new, old, new, ...), so that
# both see the same load on a shared machine: `tlscope ingest --no-analyze --jobs J --db NEW LOG`
# under /usr/bin/time (Debian package `time`). One line per run: the load average before it,
# wall, process CPU (user + sys), peak RSS, and the writer thread's CPU-s and index-build wall as
# tlscope prints them. Not part of the test suite.
# Usage: bench/ingest_ab.sh [--runs N] [--jobs J] [--out DIR] OLD NEW LOG
set -euo pipefail

out=/tmp/tlscope-bench/ingest-ab
runs=3
jobs=1
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    -*) echo "bench/ingest_ab.sh: unknown argument $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ ${#args[@]} -eq 3 ]] || { echo "bench/ingest_ab.sh: give OLD NEW LOG" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench/ingest_ab.sh: needs /usr/bin/time" >&2; exit 2; }
for b in "${args[0]}" "${args[1]}"; do
  [[ -x "$b" ]] || { echo "bench/ingest_ab.sh: no $b" >&2; exit 2; }
done
log=${args[2]}
[[ -e "$log" ]] || { echo "bench/ingest_ab.sh: no $log" >&2; exit 2; }
mkdir -p "$out"

printf '%-4s %-3s %-16s %8s %22s %10s %10s %8s\n' bin run "load (1/5/15)" wall "CPU (user+sys)" \
  "peak RSS" "writer" indexes
for ((i = 1; i <= runs; ++i)); do
  for which in old new; do
    bin=${args[0]}
    [[ $which == new ]] && bin=${args[1]}
    db="$out/$which.db"
    rm -f "$db" "$db"-*
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" \
      "$bin" ingest --no-analyze --jobs "$jobs" --db "$db" "$log" >"$out/stdout.txt" 2>&1
    read -r wall user sys rss <"$out/time.txt"
    writer=$(grep -o 'writer thread [0-9.]*' "$out/stdout.txt" | grep -o '[0-9.]*$' || echo -)
    index=$(grep -o 'indexes [0-9.]*' "$out/stdout.txt" | grep -o '[0-9.]*$' || echo -)
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f (%.2f + %.2f)", u + s, u, s }')
    printf '%-4s %-3s %-16s %7.2fs %22s %7.1f MiB %9ss %7ss\n' "$which" "$i" "$load" "$wall" \
      "$cpu" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$writer" "$index"
  done
done
