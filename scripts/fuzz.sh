#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/: parser_fuzz, store_fuzz) with clang-14, ASan and UBSan in
# their own build directory and runs each for SECONDS (default 60), seeded with the real PyTorch
# logs cut into small pieces. The corpus grows in BUILD/corpus/ from run to run; a crash leaves
# its input in BUILD/crashes/<target>/ and fails the script (docs/fuzzing.md: what to do next).
# Usage: scripts/fuzz.sh [SECONDS] [--build DIR] [--target parser_fuzz|store_fuzz]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
build="$root/build-fuzz"
targets=(parser_fuzz store_fuzz)
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --target) targets=("$2"); shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    [0-9]*) seconds=$1; shift ;;
    *) echo "scripts/fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
logs="${TLSCOPE_SHARED_LOGS:-$root/../shared/logs/torch}"
command -v clang++-14 >/dev/null ||
  { echo "scripts/fuzz.sh: needs clang-14 and libfuzzer-14-dev (scripts/setup.sh)" >&2; exit 2; }

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" "${launcher[@]}" \
  -DTLSCOPE_FUZZ=ON -DTLSCOPE_TESTS=OFF -DTLSCOPE_BENCH=OFF -DTLSCOPE_GUI=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

# Seeds: every real log cut at line ends into pieces of at most 8 KB (whole logs would make each
# execution slow), and the inputs that once crashed (tests/fuzz_regressions/).
seeds="$build/seeds"
if [[ ! -d "$seeds" ]]; then
  mkdir -p "$seeds.tmp"
  for log in "$logs"/*.log "$logs"/*/*.log; do
    [[ -f "$log" ]] || continue
    split -C 8192 -d -a 4 "$log" "$seeds.tmp/$(basename "$log" .log)."
  done
  mv "$seeds.tmp" "$seeds"
fi

export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The targets run side by side, one core each: the test command's budget is wall time.
run_target() {
  local target=$1 corpus="$build/corpus/$1" crashes="$build/crashes/$1"
  mkdir -p "$corpus" "$crashes"
  local rc=0
  "$build/fuzz/$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -dict="$root/fuzz/trace.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$corpus" "$seeds" "$root/tests/fuzz_regressions" >"$build/$target.txt" 2>&1 || rc=$?
  echo "$rc" >"$build/$target.rc"
}
for target in "${targets[@]}"; do run_target "$target" & done
wait

failed=0
for target in "${targets[@]}"; do
  out="$build/$target.txt"
  rc=$(cat "$build/$target.rc")
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$out" | tail -1 || true)
  echo "fuzz: $target: $runs executions in ${seconds} s, ${cov:-cov: ?}," \
    "corpus $(ls "$build/corpus/$target" | wc -l) inputs, exit $rc"
  if [[ $rc -ne 0 ]]; then
    failed=1
    grep -E 'ERROR|SUMMARY|invariant|Test unit written' "$out" | head -20 >&2 || true
    echo "fuzz: $target failed; full output in $out, inputs in $build/crashes/$target" >&2
  fi
done
exit $failed
