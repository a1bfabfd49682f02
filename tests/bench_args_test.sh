#!/bin/sh
# Every bench tool: --help prints its usage and writes nothing, an unknown option exits 2
# (issue 12, 19: make_big_log --help once wrote a 1 GB file named "--help"). Each call is cut
# off after 20 s so the old behaviour fails fast instead of filling the disk.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail=0
for tool in "$@"; do
  name=$(basename "$tool")
  timeout 20 "$tool" --help >help.txt 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || { echo "$name --help exited $rc"; fail=1; }
  grep -q -- "--help" help.txt || { echo "$name --help printed no usage"; fail=1; }
  timeout 20 "$tool" --no-such-option >/dev/null 2>&1
  rc=$?
  [ "$rc" -eq 2 ] || { echo "$name --no-such-option exited $rc, not 2"; fail=1; }
  leftovers=$(ls -A | grep -v '^help.txt$')
  [ -z "$leftovers" ] || { echo "$name left files: $leftovers"; fail=1; rm -rf -- ./-* ; }
done
exit $fail
