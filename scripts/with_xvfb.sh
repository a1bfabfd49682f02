#!/usr/bin/env bash
# Runs a command with DISPLAY on a private Xvfb server (1280x800x24) and exits with the command's
# own status. Not xvfb-run: its clean-up runs under `set -e`, so when the server has already
# exited by the end (killed or crashed) it exits 1 even though every test passed, and the
# command's status is lost. Usage: scripts/with_xvfb.sh COMMAND [ARGS...]
set -uo pipefail
[[ $# -gt 0 ]] || { echo "usage: scripts/with_xvfb.sh COMMAND [ARGS...]" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "with_xvfb.sh: Xvfb is missing (scripts/setup.sh)" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/tlscope-xvfb.XXXXXX")
xvfb_pid=
stop_server() {
  if [[ -n "$xvfb_pid" ]] && kill -0 "$xvfb_pid" 2>/dev/null; then
    kill "$xvfb_pid" 2>/dev/null
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$dir"
}
trap stop_server EXIT

# -displayfd: the server picks a free display and writes its number once it accepts clients.
# -noreset: by default Xvfb resets when its last client leaves, and a window opened during the
# reset fails ("Failed to open display"), which made back-to-back viewer runs flaky.
Xvfb -displayfd 3 -screen 0 1280x800x24 -noreset -nolisten tcp 3>"$dir/display" \
  </dev/null >"$dir/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 200); do
  [[ -s "$dir/display" ]] && break
  kill -0 "$xvfb_pid" 2>/dev/null || break
  sleep 0.05
done
display=$(tr -dc '0-9' <"$dir/display")
if [[ -z "$display" ]]; then
  echo "with_xvfb.sh: Xvfb did not start:" >&2
  cat "$dir/xvfb.log" >&2
  exit 1
fi

DISPLAY=":$display" "$@"
status=$?
if ! kill -0 "$xvfb_pid" 2>/dev/null; then
  echo "with_xvfb.sh: note: the Xvfb server (display :$display) had exited before the command ended" >&2
  cat "$dir/xvfb.log" >&2
fi
exit "$status"
