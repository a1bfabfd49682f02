#!/usr/bin/env bash
# The Slurm recipe (scripts/slurm/) against hostile names (issue 27, item 17), with a stand-in
# `sbatch` on PATH that runs each array task and then the dependent job in this shell, so it needs
# no Slurm daemons (slurm_test.sh runs the recipe on a real one-node cluster). A LOGDIR named
# "-Plogs" (cd read it as an option), a rank file with a newline in its name (the one-name-a-line
# list split it in two), a .log.gz rank file (dropped), and a .log that is not a rank file (taken
# as one): the shards must hold exactly the files `tlscope ingest LOGDIR` reads, with its events.
#
#   tests/slurm/slurm_names_test.sh BUILD_DIR SOURCE_DIR LOGS_DIR
set -euo pipefail

build=$(cd "${1:?usage: slurm_names_test.sh BUILD_DIR SOURCE_DIR LOGS_DIR}" && pwd)
src=$(cd "${2:?}" && pwd)
logs=$(cd "${3:?}" && pwd)
tlscope=$build/cli/tlscope

fail() {
  echo "slurm_names_test: FAIL: $*" >&2
  exit 1
}
[ -x "$tlscope" ] || fail "$tlscope not built"

tmp=$(mktemp -d /tmp/tlscope-slurm-names.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache

# The stand-in: `sbatch --parsable [--array=0-N] [options] SCRIPT ARGS...` runs SCRIPT now, once
# per array index, and prints a job id; a failing task fails it (as afterok would hold the reduce).
mkdir -p "$tmp/bin"
cat > "$tmp/bin/sbatch" << 'SBATCH'
#!/usr/bin/env bash
set -euo pipefail
array=""
while [ $# -gt 0 ]; do
  case "$1" in
    --array=*) array=${1#--array=}; shift ;;
    --*) shift ;;
    *) break ;;
  esac
done
script=$1
shift
if [ -n "$array" ]; then
  for ((i = ${array%-*}; i <= ${array#*-}; i++)); do
    SLURM_ARRAY_TASK_ID=$i bash "$script" "$@" > /dev/null
  done
else
  bash "$script" "$@" > /dev/null
fi
echo $((RANDOM + 1))
SBATCH
chmod +x "$tmp/bin/sbatch"

cd "$tmp"
mkdir -- -Plogs
schedule=$logs/multi_rank_schedule
cp -- "$schedule/dedicated_log_torch_trace_rank_0_6u3fubwl.log" "-Plogs/dedicated_log_torch_trace_rank_0_a.log"
cp -- "$schedule/dedicated_log_torch_trace_rank_1_n8zycf07.log" "-Plogs/dedicated_log_torch_trace_rank_1_x
y.log"
gzip -c "$schedule/dedicated_log_torch_trace_rank_2.log" > "-Plogs/dedicated_log_torch_trace_rank_2_z.log.gz"
echo "not a trace, and not named like one" > "-Plogs/notes.log"

read -r map_job reduce_job < <(PATH=$tmp/bin:$PATH TLSCOPE=$tlscope "$src/scripts/slurm/submit.sh" -Plogs -Pwork)
[ -n "$reduce_job" ] || fail "submit.sh printed no job ids"
[ -f "-Pwork/reduce.done" ] || fail "the reduce job did not finish"
[ "$(ls -- -Pwork/shards | wc -l)" -eq 3 ] || fail "expected 3 shards, got: $(ls -- -Pwork/shards)"

"$tlscope" ingest ./-Plogs --db direct.db > /dev/null
files="SELECT count(*), sum(events) FROM files"
"$tlscope" query ./-Pwork/all.db "$files" > slurm.txt
"$tlscope" query direct.db "$files" > direct.txt
diff direct.txt slurm.txt > files.diff || fail "files/events differ from ingest: $(cat files.diff)"
grep -qw 3 direct.txt || fail "the direct ingest did not read 3 files: $(cat direct.txt)"
"$tlscope" query ./-Pwork/all.db "SELECT path FROM files WHERE path LIKE '%x_y.log' OR path LIKE '%x
y.log'" | grep -q "rank_1_x" || fail "the rank file with a newline in its name is not in all.db"
"$tlscope" query ./-Pwork/all.db "SELECT count(*) FROM files WHERE path LIKE '%notes.log'" | grep -qw 0 ||
  fail "notes.log was ingested"
echo "slurm_names_test: OK"
