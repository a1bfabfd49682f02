#!/usr/bin/env bash
# The README's main command: installs what is missing, builds (Release), runs a bundled sample
# program of the tensor runtime (4 ranks, one of which issues the wrong collective), ingests its logs, writes
# the HTML report and prints where it is.
#   scripts/demo.sh [SCENARIO]   (default desync; `build/samples/runtime/tlscope-sample --list`)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scenario=${1:-desync}
# Only what building and running needs (the compilers, the report's and the viewer's libraries):
# no test tools, Chromium or fuzzing compiler (scripts/setup.sh lists the groups).
"$root/scripts/setup.sh" build viewer
# A new build folder gets tlscope, its viewer and the sample runtime, without the test suites
# and the benchmarks (scripts/test.sh builds those in folders of its own); a build folder that
# exists keeps its own choice.
options=(-DCMAKE_BUILD_TYPE=Release)
if [[ ! -f "$root/build/CMakeCache.txt" ]]; then options+=(-DTLSCOPE_TESTS=OFF -DTLSCOPE_BENCH=OFF); fi
"$root/scripts/build.sh" "$root/build" "${options[@]}" >/dev/null

out="$root/out/$scenario"
rm -rf "$out"
mkdir -p "$out"
sample=$(find "$root/build/samples" -name tlscope-sample -type f -perm -u+x | head -n 1)
"$sample" "$scenario" --out "$out/logs" >/dev/null
"$root/build/cli/tlscope" ingest "$out/logs" --db "$out/tlscope.db"
"$root/build/cli/tlscope" summary "$out/tlscope.db"
"$root/build/cli/tlscope" report "$out/tlscope.db" -o "$out/report" >/dev/null
echo
echo "logs:     $out/logs  (ground truth: $out/logs/truth.json)"
echo "database: $out/tlscope.db"
echo "report:   $out/report/index.html"
