#!/usr/bin/env bash
# Issue 27, must hold: the main commands run under a HOME that is unset, a HOME that is read-only,
# and state folders (XDG_*_HOME) owned by another user, and write nothing outside the user's own
# folders or the output the command names.
#
# How "nothing elsewhere" is checked: the commands run as a user created for this test (useradd),
# so every file they create is owned by that user; after each condition, `find -user U -newer
# MARKER` over every folder such a user can write (/tmp, /var/tmp, /dev/shm, /run/user and this
# test's scratch folder) must list only the places allowed for that condition. The OS keeps the
# user out of the rest. Needs root (useradd, runuser); without it the test says so and is skipped.
#
#   home_conditions_test.sh TLSCOPE SAMPLE LOGS SCRATCH
set -uo pipefail
tlscope=${1:?usage: home_conditions_test.sh TLSCOPE SAMPLE LOGS SCRATCH}
sample=${2:?}
logs=${3:?}
scratch=${4:?}

if [ "$(id -u)" != 0 ] || ! command -v useradd >/dev/null || ! command -v runuser >/dev/null; then
  echo "TLSCOPE-SKIP: needs root with useradd and runuser, to run the commands as a user of their own"
  exit 0
fi

user=tlscope-home-$$
failures=0
rm -rf "$scratch"
mkdir -p "$scratch"
chmod 755 "$scratch"
cleanup() {
  userdel "$user" >/dev/null 2>&1
  rm -rf "$scratch"
}
trap cleanup EXIT
# The password database's home: where HOME unset falls back to (model::user_folder).
useradd --no-create-home --home-dir "$scratch/pwhome" --shell /bin/sh "$user" || {
  echo "FAIL: useradd $user"
  exit 1
}
mkdir -p "$scratch/pwhome" && chown "$user:" "$scratch/pwhome" && chmod 700 "$scratch/pwhome"
# The inputs, readable by the user and not writable: nothing may be written beside them.
mkdir -p "$scratch/logs"
cp "$logs/simple.log" "$logs/comp_failure.log" "$scratch/logs/"
cp -r "$logs/multi_rank_logs" "$scratch/logs/ranks"
chmod -R a+rX,go-w "$scratch/logs"
# The tools must be reachable by the user: their folders may be private to root.
tools=$scratch/tools
mkdir -p "$tools"
cp "$tlscope" "$sample" "$tools/"
[ -f "$(dirname "$tlscope")/tlscope-viewer.so" ] && cp "$(dirname "$tlscope")/tlscope-viewer.so" "$tools/"
chmod -R a+rX "$tools"
t=$tools/tlscope
s=$tools/$(basename "$sample")

fail() {
  echo "FAIL [$condition]: $*"
  failures=$((failures + 1))
}

# One command as the user, in its work folder, with the condition's environment. A crash (signal)
# or a hang is a failure whatever the command; an exit status other than `expect` too.
run_as_user() {
  local expect=$1
  shift
  local out=$work/last.out err=$work/last.err
  (cd "$work" && runuser -u "$user" -- env -i PATH=/usr/bin:/bin TLSCOPE_OPEN_COMMAND=true \
    "${env[@]}" timeout -k 5 120 "$@") >"$out" 2>"$err" </dev/null
  local status=$?
  if [ "$status" -ge 124 ]; then
    fail "$* ended with status $status (killed, crashed or hung): $(head -c 600 "$err")"
  elif [ "$expect" != any ] && [ "$status" != "$expect" ]; then
    fail "$* exited $status, expected $expect: $(head -c 600 "$err")"
  fi
}

# The test's commands: ingest, summary, report -o, compare, run, runs, rage, query, export.
run_commands() {
  local L=$scratch/logs
  run_as_user 0 "$t" --version
  run_as_user 0 "$t" ingest "$L/simple.log" --db "$work/run.db"
  run_as_user 0 "$t" summary "$work/run.db"
  run_as_user 0 "$t" summary "$L/ranks"
  run_as_user 0 "$t" summary --format json "$L/comp_failure.log"
  run_as_user 0 "$t" report "$L/simple.log" -o "$work/site"
  run_as_user 0 "$t" compare "$L/simple.log" "$L/comp_failure.log"
  run_as_user 0 "$t" query "$work/run.db" "SELECT count(*) FROM events"
  run_as_user 0 "$t" export chrome-trace "$work/run.db" -o "$work/trace.json"
  run_as_user 0 "$t" run -o "$work/run-report" --keep-trace "$work/trace" -- "$s" graph-breaks
  # Without --keep-trace the trace goes to the run history, when the data folder can hold it.
  run_as_user any "$t" run -o "$work/run-report2" -- "$s" graph-breaks
  echo "[$condition] run without --keep-trace: $(tr '\n' ' ' <"$work/last.err" | head -c 400)"
  run_as_user "$runs_expect" "$t" runs
  run_as_user 0 "$t" rage "$L/simple.log" -o "$work/bug.tar.gz" --no-probe --no-report
  run_as_user any "$t" rage --commands
  run_as_user any "$t" rage --command 0 -o "$work/cmd.tar.gz" --no-probe --no-report
}

# What the user created or changed since the marker, outside the allowed folders.
check_writes() {
  local allowed=("$@") path ok a
  while IFS= read -r -d '' path; do
    ok=0
    for a in "${allowed[@]}"; do
      case "$path" in "$a" | "$a"/*) ok=1 ;; esac
    done
    [ "$ok" = 1 ] || fail "wrote outside the user's folders and the named outputs: $path"
  done < <(find /tmp /var/tmp /dev/shm /run/user "$scratch" -xdev -user "$user" -newer "$marker" \
             -print0 2>/dev/null)
}

begin() {
  condition=$1
  work=$scratch/work-$condition
  mkdir -p "$work" && chown "$user:" "$work"
  marker=$scratch/marker-$condition
  touch "$marker"
  sleep 1  # -newer compares mtimes; a second apart so nothing of before counts
}

# 1. HOME unset, no XDG folder named: state goes to the password database's home, never to a
#    folder shared with other users (/tmp/.cache was the bug).
begin home-unset
env=()
runs_expect=0
run_commands
check_writes "$work" "$scratch/pwhome"
[ -d "$scratch/pwhome/.local/state/tlscope" ] || fail "the command log is not in the user's home"
# tlscope's own folders are private (0700): what is inside them is nobody else's to read.
for dir in "$scratch"/pwhome/.cache/tlscope "$scratch"/pwhome/.local/state/tlscope \
  "$scratch"/pwhome/.local/share/tlscope; do
  [ ! -e "$dir" ] || [ "$(stat -c %a "$dir")" = 700 ] ||
    fail "$dir is open to other users (mode $(stat -c %a "$dir"))"
done

# 2. HOME read-only (a home on a read-only mount, or a locked-down account): the commands that
#    need no state still work, and nothing is written anywhere else instead.
mkdir -p "$scratch/rohome" && chown "$user:" "$scratch/rohome" && chmod 555 "$scratch/rohome"
begin home-readonly
env=(HOME="$scratch/rohome")
# No run history can exist: `runs` refuses (exit 2), naming the folder it cannot use.
runs_expect=2
run_commands
check_writes "$work"

# 3. State folders owned by another user (planted, or a shared account's leftovers): refused,
#    never written through, and the commands still work.
for kind in cache state data config; do
  mkdir -p "$scratch/foreign/$kind/tlscope"
done
chmod -R 755 "$scratch/foreign"  # root's, readable by everyone, writable by root alone
begin foreign-state
env=(HOME="$scratch/pwhome" XDG_CACHE_HOME="$scratch/foreign/cache"
  XDG_STATE_HOME="$scratch/foreign/state" XDG_DATA_HOME="$scratch/foreign/data"
  XDG_CONFIG_HOME="$scratch/foreign/config")
run_commands
check_writes "$work"
# The same with the folders writable by the user too (another user's folder the user may write):
# tlscope refuses it by its owner, not by a failed write.
chmod -R 777 "$scratch/foreign"
begin foreign-state-writable
env=(HOME="$scratch/pwhome" XDG_CACHE_HOME="$scratch/foreign/cache"
  XDG_STATE_HOME="$scratch/foreign/state" XDG_DATA_HOME="$scratch/foreign/data"
  XDG_CONFIG_HOME="$scratch/foreign/config")
run_commands
check_writes "$work"
[ -z "$(find "$scratch/foreign" -user "$user" -print -quit)" ] ||
  fail "wrote into another user's state folder: $(find "$scratch/foreign" -user "$user" | head -3)"

if [ "$failures" -gt 0 ]; then
  echo "home conditions: $failures failure(s)"
  exit 1
fi
echo "home conditions: HOME unset, HOME read-only and state folders of another user: every command ran and wrote only its own folders and named outputs"
