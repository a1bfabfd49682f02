#!/bin/sh
# Passes when the fuzz run that scripts/test.sh made before ctest exited 0; prints its summary
# either way (executions, coverage, and what crashed). Usage: fuzz_result_test.sh FUZZ_BUILD_DIR
dir=$1
if [ ! -f "$dir/summary.rc" ] || [ ! -f "$dir/summary.txt" ]; then
  echo "no fuzz results in $dir: scripts/test.sh runs scripts/fuzz.sh before ctest"
  exit 1
fi
cat "$dir/summary.txt"
[ "$(cat "$dir/summary.rc")" = "0" ]
