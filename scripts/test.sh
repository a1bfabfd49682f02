#!/usr/bin/env bash
# The README's test command: installs what is missing, builds with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs every test through ctest (GUI tests in a real window under
# Xvfb, HTML tests in headless Chromium). Set TLSCOPE_TEST_SANITIZE=0 for a plain Release build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"

if [ "${TLSCOPE_TEST_SANITIZE:-1}" = "1" ]; then
  build="$root/build-test-asan"
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DTLSCOPE_SANITIZE=ON -DTLSCOPE_BENCH=OFF
  export ASAN_OPTIONS="abort_on_error=0:strict_string_checks=1"
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
else
  build="$root/build-test"
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release -DTLSCOPE_BENCH=OFF
fi

cd "$build"
# Tests run tlscope as a user would; its cache, state and config go to the build folder, not ~.
export XDG_CACHE_HOME="$build/test-home/cache" XDG_STATE_HOME="$build/test-home/state"
export XDG_CONFIG_HOME="$build/test-home/config"
rc=0
# A short bounded fuzz run of the parser and the store (docs/fuzzing.md); 0 skips it. It runs
# first so that ctest's count is the closing line.
fuzz_seconds="${TLSCOPE_TEST_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" != "0" ]; then
  "$root/scripts/fuzz.sh" "$fuzz_seconds" || rc=1
fi
# One X server for the whole run: the GUI suite opens real windows on it. -noreset: by default
# Xvfb resets when its last client leaves, and a window opened during the reset fails ("Failed to
# open display"), which made back-to-back viewer runs flaky.
xvfb-run -a -s "-screen 0 1280x800x24 -noreset" \
  ctest --output-on-failure -j "$(nproc)" --timeout 600 || rc=$?
exit "$rc"
