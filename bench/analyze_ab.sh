#!/usr/bin/env bash
# The analysis step alone, two tlscope binaries alternated (old, new, old, new, ...) so both see
# the same load: `tlscope analyze --timings` on a fresh copy (cp --reflink=auto, then read once
# so its pages are in the OS cache, as after an ingest) of one database ingested with
# --no-analyze. Per run: wall, user, sys and peak RSS (/usr/bin/time, 10 ms resolution), the
# 1-minute load average before it, and the passes over 0.05 s. --check compares every table the
# analysis wrote (those DB lacks; SELECT * in row order, sqlite3 CLI) and the index list of the
# last runs of the two. Not part of the test suite.
# Usage: bench/analyze_ab.sh [--runs N] [--out DIR] [--check] OLD NEW DB
set -euo pipefail

out=/tmp/tlscope-bench/analyze-ab
runs=3
check=0
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    -*) echo "bench/analyze_ab.sh: unknown argument $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ ${#args[@]} -eq 3 ]] || { echo "bench/analyze_ab.sh: give OLD NEW DB" >&2; exit 2; }
old=${args[0]} new=${args[1]} db=${args[2]}
for b in "$old" "$new"; do [[ -x "$b" ]] || { echo "bench/analyze_ab.sh: no $b" >&2; exit 2; }; done
[[ -s "$db" ]] || { echo "bench/analyze_ab.sh: no database $db" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench/analyze_ab.sh: needs /usr/bin/time" >&2; exit 2; }
mkdir -p "$out"

# Every analysis table: the tables of the copy that the ingested database does not have.
dump() {
  local copy=$1
  sqlite3 -readonly "$copy" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name" |
    grep -vxF -f <(sqlite3 -readonly "$db" "SELECT name FROM sqlite_master WHERE type = 'table'") |
    while read -r table; do
      echo "== $table"
      sqlite3 -readonly "$copy" "SELECT * FROM \"$table\""
    done
  sqlite3 -readonly "$copy" \
    "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"
}

for ((i = 1; i <= runs; i++)); do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    copy="$out/$which.db"
    rm -f "$copy" "$copy-wal" "$copy-shm"
    cp --reflink=auto "$db" "$copy"
    cat "$copy" >/dev/null
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S %M" -o "$out/time.txt" "$bin" analyze --timings "$copy" >"$out/$which.txt"
    read -r wall user sys rss <"$out/time.txt"
    passes=$(awk '$1 == "pass" && $3 > 0.05 { printf " %s %s", $2, $3 }' "$out/$which.txt")
    printf '%s run %d: load %s, wall %s s, CPU %s + %s s, %s KiB;%s\n' "$which" "$i" "$load" \
      "$wall" "$user" "$sys" "$rss" "$passes"
  done
done
if [[ $check == 1 ]]; then
  dump "$out/old.db" >"$out/old.dump"
  dump "$out/new.db" >"$out/new.dump"
  if cmp -s "$out/old.dump" "$out/new.dump"; then
    echo "every table identical ($(wc -l <"$out/new.dump") lines)"
  else
    echo "tables differ: diff $out/old.dump $out/new.dump"
    exit 1
  fi
fi
