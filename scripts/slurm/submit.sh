#!/usr/bin/env bash
# tlscope on Slurm: the per-rank map is a job array that ingests each rank's log where it sits into
# a shard database; merge + analyse + report is one job that runs only when every array task has
# succeeded (--dependency=afterok). Slurm does all the scheduling; these scripts only submit.
#
#   scripts/slurm/submit.sh LOGDIR WORKDIR [extra sbatch options...]
#
# LOGDIR holds the job's TORCH_TRACE files (one per rank); WORKDIR (on storage every node sees)
# receives ranks.list (the rank files, NUL-separated), shards/shard-NNNNN.db, all.db, report/ and
# the jobs' output files. The rank files are those `tlscope ingest LOGDIR` reads: regular files
# (or links to them) named dedicated_log_torch_trace*.log or *.log.gz; any byte in a name but NUL
# and '/' is fine, so the list is NUL-separated, never one name a line.
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
# `--` everywhere a path is an operand: a LOGDIR or WORKDIR such as "-P" is a path, not an option.
mkdir -p -- "$workdir/shards"
workdir=$(cd -- "$workdir" && pwd)
logdir=$(cd -- "$logdir" && pwd)
# One NUL-terminated entry per rank file; array task i ingests entry i. Sorted, so task numbers
# are stable. find -L sees a link for what it points at, as ingest does.
find -L "$logdir" -mindepth 1 -maxdepth 1 -type f \
  \( -name 'dedicated_log_torch_trace*.log' -o -name 'dedicated_log_torch_trace*.log.gz' \) \
  -print0 | LC_ALL=C sort -z > "$workdir/ranks.list"
count=$(tr -cd '\0' < "$workdir/ranks.list" | wc -c)
if [ "$count" -eq 0 ]; then
  echo "$0: $logdir: no dedicated_log_torch_trace*.log or .log.gz files" >&2
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
