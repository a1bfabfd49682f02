#!/usr/bin/env bash
# tlscope on Slurm: the per-rank map is a job array that ingests each rank's log where it sits into
# a shard database; merge + analyse + report is one job that runs only when every array task has
# succeeded (--dependency=afterok). Slurm does all the scheduling; these scripts only submit.
#
#   scripts/slurm/submit.sh LOGDIR WORKDIR [extra sbatch options...]
#
# LOGDIR holds the job's TORCH_TRACE files (one per rank); WORKDIR (on storage every node sees)
# receives ranks.txt, shards/shard-NNNNN.db, all.db, report/ and the jobs' output files.
# TLSCOPE names the tlscope binary (default: tlscope on PATH). Prints "MAP_JOB REDUCE_JOB".
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 LOGDIR WORKDIR [sbatch options...]" >&2
  exit 2
fi
logdir=$1
workdir=$2
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tlscope=${TLSCOPE:-tlscope}

if [ ! -d "$logdir" ]; then
  echo "$0: $logdir: not a directory" >&2
  exit 2
fi
mkdir -p "$workdir/shards"
workdir=$(cd "$workdir" && pwd)
# One line per rank file; array task i ingests line i+1. Sorted, so task numbers are stable.
find "$(cd "$logdir" && pwd)" -maxdepth 1 -type f -name '*.log' | LC_ALL=C sort > "$workdir/ranks.txt"
count=$(wc -l < "$workdir/ranks.txt")
if [ "$count" -eq 0 ]; then
  echo "$0: $logdir: no .log files" >&2
  exit 2
fi

export TLSCOPE="$tlscope"
map_job=$(sbatch --parsable --job-name=tlscope-map --array="0-$((count - 1))" \
  --output="$workdir/map-%a.out" --export=ALL "$@" "$here/map.sbatch" "$workdir")
map_job=${map_job%%;*}  # --parsable prints "id;cluster" on multi-cluster setups
reduce_job=$(sbatch --parsable --job-name=tlscope-reduce --dependency="afterok:$map_job" \
  --kill-on-invalid-dep=yes --output="$workdir/reduce.out" --export=ALL "$@" \
  "$here/reduce.sbatch" "$workdir")
reduce_job=${reduce_job%%;*}
echo "$map_job $reduce_job"
