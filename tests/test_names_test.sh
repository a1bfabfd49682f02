#!/bin/sh
# Fails when a Catch2 test case name holds ';': ctest would register it cut short, and the cut
# name runs nothing (tests/CMakeLists.txt). Usage: test_names_test.sh TEST_BINARY...
status=0
for binary in "$@"; do
  # Catch2 2.x exits with the number of tests listed, so the output is what tells success.
  names=$("$binary" --list-test-names-only)
  [ -n "$names" ] || { echo "$binary: lists no tests"; exit 1; }
  bad=$(printf '%s\n' "$names" | grep ';')
  if [ -n "$bad" ]; then
    printf '%s: test names with a ;\n%s\n' "$binary" "$bad"
    status=1
  fi
done
[ "$#" -gt 0 ] || { echo "no test binaries given"; exit 1; }
exit $status
