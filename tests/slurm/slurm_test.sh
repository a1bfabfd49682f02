#!/usr/bin/env bash
# The Slurm recipe (scripts/slurm/) on a real single-node Slurm: installs Debian's slurm-wlm and
# munge when missing, starts munged, slurmctld and slurmd on private sockets, ports and state
# under a temporary directory, submits the map array + dependent merge/report job for a 12-rank
# sample job, and checks that the report exists and its findings equal a direct ingest + report
# of the same logs. The daemons it started are stopped on exit (trap), whatever happened.
#
#   tests/slurm/slurm_test.sh BUILD_DIR SOURCE_DIR
#
# Prints "TLSCOPE-SKIP: ..." (ctest reports the test skipped) only when it cannot install or run
# the daemons: not root, or no apt-get.
set -euo pipefail

build=$(cd "${1:?usage: slurm_test.sh BUILD_DIR SOURCE_DIR}" && pwd)
src=$(cd "${2:?usage: slurm_test.sh BUILD_DIR SOURCE_DIR}" && pwd)
tlscope=$build/cli/tlscope
sample=$build/samples/runtime/tlscope-sample
start=$SECONDS

fail() {
  echo "slurm_test: FAIL: $*" >&2
  exit 1
}

[ -x "$tlscope" ] || fail "$tlscope not built"
[ -x "$sample" ] || fail "$sample not built"

need_install=0
for cmd in munged mungekey slurmctld slurmd sbatch scontrol sinfo; do
  command -v "$cmd" > /dev/null || need_install=1
done
if [ "$need_install" -eq 1 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get > /dev/null; then
    echo "TLSCOPE-SKIP: slurm-wlm/munge missing and cannot be installed (needs root and apt-get)"
    exit 0
  fi
  echo "slurm_test: installing slurm-wlm munge" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null 2>&1; then
    apt-get update -qq > /dev/null
    apt-get install -y -qq --no-install-recommends slurm-wlm munge > /dev/null
  fi
  echo "slurm_test: installed in $((SECONDS - start)) s" >&2
fi
if [ "$(id -u)" -ne 0 ]; then
  # slurmd must run as root to launch jobs; a user build still runs the rest of the suite.
  echo "TLSCOPE-SKIP: slurmd needs root"
  exit 0
fi

tmp=$(mktemp -d /tmp/tlscope-slurm.XXXXXX)
pids=()
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2> /dev/null || true
  done
  if [ "$rc" -ne 0 ]; then
    for f in "$tmp"/*.log "$tmp"/work/*.out; do
      [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }
    done
  fi
  rm -rf "$tmp"
  exit "$rc"
}
trap cleanup EXIT INT TERM

# munge: its own key, socket and state, so a munged already running elsewhere is left alone.
mkdir -p "$tmp/munge"
chmod 711 "$tmp/munge"  # clients reach the socket; only root reads the key
mungekey --create --keyfile="$tmp/munge/munge.key" > /dev/null 2>&1 ||
  dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$tmp/munge/munge.key"
munged --force --foreground --key-file="$tmp/munge/munge.key" \
  --socket="$tmp/munge/munge.socket" --pid-file="$tmp/munge/munged.pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munge/munge.seed" > "$tmp/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.05; done
[ -S "$tmp/munge/munge.socket" ] || fail "munged did not start"

# A one-node cluster on 127.0.0.1; ports picked from the pid so parallel runs do not collide.
port=$((20000 + ($$ % 5000) * 2))
node=tlscope1
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
cat > "$tmp/slurm.conf" << CONF
ClusterName=tlscope
SlurmctldHost=$(hostname)(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool/%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
SchedulerParameters=sched_interval=1
MessageTimeout=10
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$(hostname) CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" > "$tmp/slurmctld.stdout.log" 2>&1 &
pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" > "$tmp/slurmd.stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 150); do
  state=$(sinfo -h -n "$node" -o %t 2> /dev/null || true)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 0.2
done
case "$state" in idle*|mix*|alloc*) ;; *) fail "node $node not up (state '$state')" ;; esac
echo "slurm_test: cluster up after $((SECONDS - start)) s" >&2

# A 12-rank job with a desync on rank 2: the logs the recipe maps over.
"$sample" desync --ranks 12 --out "$tmp/logs" > /dev/null
read -r map_job reduce_job < <(TLSCOPE=$tlscope "$src/scripts/slurm/submit.sh" "$tmp/logs" "$tmp/work")
[ -n "$reduce_job" ] || fail "submit.sh printed no job ids"
echo "slurm_test: map array $map_job, reduce $reduce_job" >&2

job_state() { scontrol show job "$1" 2> /dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
for _ in $(seq 600); do
  state=$(job_state "$reduce_job")
  case "$state" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) break ;; esac
  sleep 0.1
done
[ "$state" = COMPLETED ] || fail "reduce job $reduce_job ended $state"
# Every array task ran and succeeded (the dependency only admits that, checked here too).
[ "$(ls "$tmp/work/shards" | wc -l)" -eq 12 ] || fail "expected 12 shards"
[ -f "$tmp/work/reduce.done" ] || fail "reduce job did not finish its script"
[ -f "$tmp/work/report/index.html" ] || fail "no report/index.html"

# The same logs ingested and reported directly must give the same findings.
"$tlscope" ingest "$tmp/logs" --db "$tmp/direct.db" > /dev/null
"$tlscope" report "$tmp/direct.db" -o "$tmp/direct-report" > /dev/null
findings="SELECT kind, severity, ranks, other_ranks, pg_name, seq, compile_id, frame, file, line, detail
          FROM findings ORDER BY kind, ranks, pg_name, seq, compile_id, frame, detail"
"$tlscope" query "$tmp/work/all.db" "$findings" > "$tmp/slurm-findings.txt"
"$tlscope" query "$tmp/direct.db" "$findings" > "$tmp/direct-findings.txt"
grep -q desync "$tmp/direct-findings.txt" || fail "the direct run found no desync"
diff "$tmp/direct-findings.txt" "$tmp/slurm-findings.txt" > "$tmp/findings.diff" ||
  fail "findings differ: $(head -20 "$tmp/findings.diff")"
for page in "$tmp"/direct-report/*.html; do
  name=$(basename "$page")
  [ -f "$tmp/work/report/$name" ] || fail "the Slurm report has no $name"
done
echo "slurm_test: OK in $((SECONDS - start)) s ($(wc -l < "$tmp/direct-findings.txt") finding lines)"
