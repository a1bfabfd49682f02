#!/usr/bin/env bash
# The README's test command: installs what is missing, builds with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs every test through ctest (GUI tests in a real window under
# Xvfb, HTML tests in headless Chromium). Set TLSCOPE_TEST_SANITIZE=0 for a plain Release build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fuzz_group=fuzz
if [ "${TLSCOPE_TEST_FUZZ_RUNS:-1}" = "0" ]; then fuzz_group=; fi
"$root/scripts/setup.sh" build viewer test $fuzz_group

# A short fuzz run of the parser and the store (docs/fuzzing.md) runs before ctest, and ctest's
# "fuzz:" test reports its outcome. It is a fixed search, not a new random one each run: one seed
# and execution count from the seeds alone (docs/fuzzing.md says how close to identical the
# runs come), and a crash's input is kept for replay in build-fuzz/crashes/. TLSCOPE_TEST_FUZZ_RUNS=0
# skips it.
fuzz_runs="${TLSCOPE_TEST_FUZZ_RUNS:-1}"
fuzz_build="$root/build-fuzz"
fuzz_option="-DTLSCOPE_FUZZ_RESULTS="
if [ "$fuzz_runs" != "0" ]; then fuzz_option="-DTLSCOPE_FUZZ_RESULTS=$fuzz_build"; fi

if [ "${TLSCOPE_TEST_SANITIZE:-1}" = "1" ]; then
  # Clang 16 compiles this build in about two thirds of GCC's time (10.3 s -> 6.8 s for views' compare.cpp
  # at -O1 with ASan and UBSan; 3.2 s -> 2.2 s for a test file): the build was half of the test
  # command's wall time. The Release build (scripts/build.sh, scripts/demo.sh) stays with GCC.
  # A unity build, test files included (CMakeLists.txt and tests/CMakeLists.txt say why). LLVM's
  # linker: the suites' 50-60 MB instrumented binaries link in 1.6 s instead of 5.9 s with GNU
  # ld, and their links are the build's last, least parallel steps.
  build="$root/build-test-asan"
  # Without lld-16 (setup.sh installs it) the build links with GNU ld, only slower.
  lld=""
  if command -v ld.lld-16 >/dev/null; then lld="--ld-path=$(command -v ld.lld-16)"; fi
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 "-DCMAKE_EXE_LINKER_FLAGS=$lld" \
    "-DCMAKE_SHARED_LINKER_FLAGS=$lld" "-DCMAKE_MODULE_LINKER_FLAGS=$lld" \
    -DTLSCOPE_SANITIZE=ON -DTLSCOPE_BENCH=OFF -DCMAKE_UNITY_BUILD=ON "$fuzz_option"
  # A freed block stays poisoned until 32 MB more has been freed (256 MB by default): past that
  # window every allocation in a long test touched fresh pages, 15% of a suite's page faults.
  export ASAN_OPTIONS="abort_on_error=0:strict_string_checks=1:quarantine_size_mb=32"
  export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
else
  build="$root/build-test"
  "$root/scripts/build.sh" "$build" -DCMAKE_BUILD_TYPE=Release -DTLSCOPE_BENCH=OFF "$fuzz_option"
fi

if [ "$fuzz_runs" != "0" ]; then
  # About 25-30 s per target side by side on two idle cores; 300 s caps a slow machine.
  rm -f "$fuzz_build/summary.rc"
  "$root/scripts/fuzz.sh" 300 --build "$fuzz_build" --seed 1 --fresh-corpus \
    --runs parser_fuzz=35000 --runs store_fuzz=2500 || true
fi

# The MCP test drives `tlscope mcp` with the official MCP TypeScript SDK client, from npm.
# Debian's nodejs comes without npm (NodeSource's bundles it): install Debian's npm when missing.
if ! command -v npm >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if [ ! -d "$build/mcp-client/node_modules/@modelcontextprotocol/sdk" ]; then
  npm install --prefix "$build/mcp-client" --no-audit --no-fund --silent \
    @modelcontextprotocol/sdk@1.32.2 >/dev/null
fi

cd "$build"
# One X server for the whole run: the GUI suite opens real windows on it (scripts/with_xvfb.sh,
# which returns the runner's own status). The suite runs in three parts, each under a hostile
# state condition (HOME unset, HOME read-only, state folders of another user: issue 27), so tests
# that do not set HOME or XDG_*_HOME for themselves see those; with HOME unset tlscope's state goes
# to the password database's home (~ of this user), as it would for a user.
exec "$root/scripts/with_xvfb.sh" "$root/scripts/ctest_conditions.sh" --output-on-failure \
  -j "$(nproc)" --timeout 600
