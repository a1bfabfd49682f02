#!/bin/sh
# The build's layer check (cmake/layer_check.cmake): it accepts a file that reaches the model only
# in comments and refuses, naming the file and line, each file that includes a model header or
# names model:: in code. Usage: layer_check_test.sh CMAKE SOURCE_DIR SCRATCH_DIR
set -u
cmake=$1 src=$2 scratch=$3
fixtures=$src/tests/fixtures/layer_check
mkdir -p "$scratch"
check() {  # check FILE: runs the check on one file; prints its messages
  printf '%s' "$1" >"$scratch/list"
  rm -f "$scratch/stamp"
  "$cmake" -DLIST="$scratch/list" -DSTAMP="$scratch/stamp" -P "$src/cmake/layer_check.cmake" 2>&1
}
status=0
out=$(check "$fixtures/through_views.cpp") || { echo "refused a clean file: $out"; status=1; }
[ -f "$scratch/stamp" ] || { echo "no stamp for a clean file"; status=1; }
for bad in reaches_model.cpp:6 includes_model.hpp:4; do
  file=${bad%%:*} line=${bad##*:}
  if out=$(check "$fixtures/$file"); then
    echo "accepted $file"; status=1
  fi
  case $out in
    *"$fixtures/$file:$line: a front end reaches the model only through views/"*) ;;
    *) echo "no message naming $file:$line in: $out"; status=1 ;;
  esac
  [ ! -f "$scratch/stamp" ] || { echo "stamp written for $file"; status=1; }
done
exit $status
