#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/: parser_fuzz, store_fuzz) with clang-16, ASan and UBSan in
# their own build directory and runs each for SECONDS (default 60), seeded with the real PyTorch
# logs cut into small pieces. The corpus grows in BUILD/corpus/ from run to run; a crash leaves
# its input in BUILD/crashes/<target>/ and fails the script (docs/fuzzing.md: what to do next).
# --seed N --runs TARGET=N make a run repeatable: that many executions from that random seed
# (SECONDS is then only a cap), and --fresh-corpus starts from the seeds alone (the corpus that
# earlier runs grew is left in place, unused), as the test command does. The per-target lines it prints are also
# written to BUILD/summary.txt, with the exit status in BUILD/summary.rc.
# Usage: scripts/fuzz.sh [SECONDS] [--build DIR] [--target parser_fuzz|store_fuzz]
#                        [--seed N] [--runs TARGET=N]... [--fresh-corpus]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
build="$root/build-fuzz"
targets=(parser_fuzz store_fuzz)
seed=0  # libFuzzer's default: a new random seed each run
declare -A runs=()
corpus_root=corpus
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --target) targets=("$2"); shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs)
      [[ "$2" =~ ^(parser_fuzz|store_fuzz)=[0-9]+$ ]] ||
        { echo "scripts/fuzz.sh: --runs wants TARGET=N, not $2" >&2; exit 2; }
      runs[${2%%=*}]=${2#*=}; shift 2 ;;
    --fresh-corpus) corpus_root=corpus-fresh; shift ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    [0-9]*) seconds=$1; shift ;;
    *) echo "scripts/fuzz.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
logs="${TLSCOPE_SHARED_LOGS:-$root/../shared/logs/torch}"
command -v clang++-16 >/dev/null ||
  { echo "scripts/fuzz.sh: needs clang-16 and libfuzzer-16-dev (scripts/setup.sh)" >&2; exit 2; }

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" "${launcher[@]}" \
  -DTLSCOPE_FUZZ=ON -DTLSCOPE_TESTS=OFF -DTLSCOPE_BENCH=OFF -DTLSCOPE_GUI=OFF \
  -DCMAKE_UNITY_BUILD=ON >/dev/null
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
if [[ -z "$(ls -A "$seeds")" ]]; then
  echo "scripts/fuzz.sh: warning: no logs under $logs to seed from (TLSCOPE_SHARED_LOGS names" \
    "another folder); fuzzing from tests/fuzz_regressions/ alone" >&2
fi

export ASAN_OPTIONS="abort_on_error=0:detect_leaks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The targets run side by side, one core each: the test command's budget is wall time.
run_target() {
  local target=$1 corpus="$build/$corpus_root/$1" crashes="$build/crashes/$1"
  mkdir -p "$corpus" "$crashes"
  local rc=0 limit=()
  if [[ -n "${runs[$target]:-}" ]]; then limit=(-runs="${runs[$target]}"); fi
  "$build/fuzz/$target" -seed="$seed" "${limit[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -dict="$root/fuzz/trace.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$corpus" "$seeds" "$root/tests/fuzz_regressions" >"$build/$target.txt" 2>&1 || rc=$?
  echo "$rc" >"$build/$target.rc"
}
if [[ "$corpus_root" = corpus-fresh ]]; then rm -rf "${build:?}/corpus-fresh"; fi
for target in "${targets[@]}"; do run_target "$target" & done
wait

failed=0
: >"$build/summary.txt"
for target in "${targets[@]}"; do
  out="$build/$target.txt"
  rc=$(cat "$build/$target.rc")
  executed=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out" | grep -o '[0-9]*$' || echo "?")
  cov=$(grep -o 'cov: [0-9]*' "$out" | tail -1 || true)
  echo "fuzz: $target: $executed executions (seed $seed, at most ${seconds} s), ${cov:-cov: ?}," \
    "corpus $(ls "$build/$corpus_root/$target" | wc -l) inputs, exit $rc" | tee -a "$build/summary.txt"
  if [[ $rc -ne 0 ]]; then
    failed=1
    { grep -E 'ERROR|SUMMARY|invariant|Test unit written' "$out" | head -20 || true
      echo "fuzz: $target failed; full output in $out, inputs in $build/crashes/$target"
    } | tee -a "$build/summary.txt" >&2
  fi
done
echo "$failed" >"$build/summary.rc"
exit $failed
