#!/usr/bin/env bash
# Issue 27, must hold: the whole test suite runs with tlscope's per-user state under hostile
# conditions, and no command writes outside the user's own folders. ctest runs three times, each
# time every third test (ctest -I K,,3), so the suite costs what it cost before:
#   1. HOME unset (and no XDG_*_HOME): state goes to the password database's home, never /tmp;
#   2. HOME read-only (a read-only bind mount in a private mount namespace when run as root, for
#      whom permission bits are no barrier; chmod 555 otherwise), no XDG_*_HOME;
#   3. XDG_{CACHE,STATE,CONFIG,DATA}_HOME folders that exist and belong to another user (nobody).
# After each part it checks what must not have been written: no shared /tmp/.cache, /tmp/.local;
# the read-only HOME and the other user's folders still empty. tests/home_conditions_test.sh runs
# every command under all three conditions as an unprivileged user. Tests that set HOME or XDG
# for themselves keep theirs.
# Usage (from the build folder): scripts/ctest_conditions.sh [CTEST ARGS...]
set -uo pipefail
base=$(pwd)/test-home-conditions
rm -rf "$base"
mkdir -p "$base"
failures=0
declare -a summary=()
total_tests=0
total_failed=0

fail() {
  echo "ctest_conditions.sh: FAIL [$1]: $2"
  failures=$((failures + 1))
}

# Places a tlscope of old wrote to when HOME was unset, shared with every user: none may appear.
shared_places=(/tmp/.cache /tmp/.local /tmp/.config /.cache /.local /.config)
declare -A existed=()
for p in "${shared_places[@]}"; do [[ -e "$p" ]] && existed[$p]=1; done
check_shared() {
  for p in "${shared_places[@]}"; do
    if [[ -e "$p" && -z "${existed[$p]:-}" ]]; then
      fail "$1" "$p was created (a folder shared with other users): $(ls -A "$p" | head -5 | tr '\n' ' ')"
      existed[$p]=1  # said once, by the part that made it
    fi
  done
}

# run_part K NAME ENV... -- runs every third test from K with the environment changed.
run_part() {
  local k=$1 name=$2
  shift 2
  local log="$base/part$k.log"
  echo "== ctest part $k of 3: $name"
  "$@" ctest -I "$k,,3" "${ctest_args[@]}" 2>&1 | tee "$log"
  local line
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [[ -z "$line" ]]; then
    fail "$name" "ctest printed no result line"
    summary+=("part $k ($name): no result")
    return
  fi
  local failed count
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  count=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
  total_tests=$((total_tests + count))
  total_failed=$((total_failed + failed))
  summary+=("part $k ($name): $count tests, $failed failed")
}

ctest_args=("$@")
unset_state=(env -u HOME -u XDG_CACHE_HOME -u XDG_STATE_HOME -u XDG_CONFIG_HOME -u XDG_DATA_HOME)

# 1. HOME unset.
run_part 1 "HOME unset" "${unset_state[@]}"
check_shared "HOME unset"

# 2. HOME read-only.
ro_home="$base/read-only-home"
mkdir -p "$ro_home"
chmod 555 "$ro_home"
if [[ "$(id -u)" == 0 ]]; then
  if unshare -m true 2>/dev/null; then
    # The mount lives in the namespace of this one ctest run only.
    run_part 2 "HOME read-only" "${unset_state[@]}" HOME="$ro_home" unshare -m sh -c \
      'mount --bind "$HOME" "$HOME" && mount -o remount,bind,ro "$HOME" && exec "$@"' sh
  else
    echo "ctest_conditions.sh: note: no private mount namespace here (unshare -m); root's HOME is" \
      "read-only by its mode only, which root ignores: the part checks that nothing appears in it"
    run_part 2 "HOME read-only (mode 555)" "${unset_state[@]}" HOME="$ro_home"
  fi
else
  run_part 2 "HOME read-only" "${unset_state[@]}" HOME="$ro_home"
fi
[[ -z "$(ls -A "$ro_home")" ]] || fail "HOME read-only" "written into the read-only HOME: $(ls -A "$ro_home" | head -5 | tr '\n' ' ')"
check_shared "HOME read-only"

# 3. State folders owned by another user.
foreign="$base/foreign"
own_home="$base/own-home"
mkdir -p "$foreign"/{cache,state,config,data} "$own_home"
chmod 755 "$foreign" "$foreign"/*
foreign_env=(env HOME="$own_home" XDG_CACHE_HOME="$foreign/cache" XDG_STATE_HOME="$foreign/state"
  XDG_CONFIG_HOME="$foreign/config" XDG_DATA_HOME="$foreign/data")
if [[ "$(id -u)" == 0 ]] && chown -R 65534:65534 "$foreign" 2>/dev/null; then
  run_part 3 "state folders of another user" "${foreign_env[@]}"
  for d in "$foreign"/*; do
    [[ -z "$(ls -A "$d")" ]] || fail "state folders of another user" "written into $d: $(ls -A "$d" | head -5 | tr '\n' ' ')"
  done
else
  # Not root: the folders cannot be given away; they are made unwritable instead.
  chmod 555 "$foreign"/*
  run_part 3 "state folders not writable" "${foreign_env[@]}"
fi
check_shared "state folders of another user"

# The three parts together are the whole suite: each test ran once.
expected=$(ctest -N "${ctest_args[@]}" | sed -n -E 's/^Total Tests: ([0-9]+)/\1/p')
[[ "$expected" == "$total_tests" ]] || fail "all parts" "the parts ran $total_tests tests, the suite has ${expected:-?}"
for line in "${summary[@]}"; do echo "  $line"; done
if [[ $failures -gt 0 || $total_failed -gt 0 || ${#summary[@]} -ne 3 ]]; then
  echo "ctest under three HOME conditions: $total_tests tests, $total_failed failed, $failures condition checks failed"
  exit 1
fi
echo "ctest under three HOME conditions: 100% of $total_tests tests passed"
