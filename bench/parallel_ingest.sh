#!/usr/bin/env bash
# Parallel-ingest benchmark (not part of the test suite): a 64-rank sample job (tlscope-sample ddp
# --ranks 64) ingested with --jobs 1 and --jobs 2, and merged from per-rank databases, timed with
# hyperfine; then the CPU split (writer thread against the whole process) and the cost of the
# cheapest possible serial merge (SQLite's transfer copy of every ingest table, sqlite3 CLI).
# Usage: bench/parallel_ingest.sh [--build DIR] [--out DIR] [--ranks N] [--runs N]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out=/tmp/tlscope-parallel-bench
ranks=64
runs=10
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "bench/parallel_ingest.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v hyperfine >/dev/null || { echo "bench/parallel_ingest.sh: needs hyperfine" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench/parallel_ingest.sh: needs /usr/bin/time" >&2; exit 2; }
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$build/CMakeCache.txt" ||
  { echo "bench/parallel_ingest.sh: $build is not a Release build" >&2; exit 2; }
cmake --build "$build" -j2 --target tlscope tlscope-sample >/dev/null
tlscope="$build/cli/tlscope"

rm -rf "$out" && mkdir -p "$out/shards"
cd "$out"
"$build/samples/runtime/tlscope-sample" ddp --ranks "$ranks" --out logs >/dev/null
echo "input: $(ls logs/*.log | wc -l) rank logs, $(du -sb logs | cut -f1) bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"

hyperfine -w 1 -r "$runs" -p 'rm -f j1.db j2.db' \
  "$tlscope ingest logs --db j1.db --jobs 1 --no-analyze" \
  "$tlscope ingest logs --db j2.db --jobs 2 --no-analyze"

i=0
for f in logs/*.log; do
  "$tlscope" ingest "$f" --db "shards/$(printf %04d $i).db" --no-analyze >/dev/null
  i=$((i + 1))
done
hyperfine -w 1 -r "$runs" -p 'rm -f merged.db' \
  "$tlscope merge shards/*.db --db merged.db --no-analyze"

echo "--- CPU split of one --jobs 1 ingest (user+sys of the process; the writer thread's own CPU):"
rm -f j1.db
/usr/bin/time -f "process: %U s user, %S s system, %e s wall" \
  "$tlscope" ingest logs --db j1.db --jobs 1 --no-analyze

if command -v sqlite3 >/dev/null; then
  # The floor of any merge: rows that already carry their final ids, copied table by table with
  # INSERT INTO t SELECT * FROM s.t (SQLite's transfer optimisation copies records undecoded).
  sqlite3 j1.db .schema | grep -v '^CREATE INDEX' | grep -v '^CREATE VIEW' >schema.sql
  {
    echo "PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
    cat schema.sql
    echo "ATTACH 'j1.db' AS s; BEGIN;"
    for t in $(sqlite3 j1.db "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'meta'"); do
      echo "INSERT INTO main.$t SELECT * FROM s.$t;"
    done
    echo "COMMIT;"
  } >xfer.sql
  rm -f xfer.db
  /usr/bin/time -f "transfer copy of every ingest table: %U s user, %S s system, %e s wall" \
    sqlite3 xfer.db <xfer.sql >/dev/null
fi
