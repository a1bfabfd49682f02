#!/usr/bin/env bash
# Installs the Debian packages of the named groups (default: all of them) that are missing.
# Idempotent: when everything is present it checks with dpkg and returns in well under a second,
# without touching apt.
#   scripts/setup.sh [GROUP...]       build viewer test fuzz; `--list GROUP...` prints the packages
# scripts/demo.sh installs build and viewer only; scripts/test.sh all four.
set -euo pipefail

# One list per group; each package appears in one group only.
declare -A groups=(
  # Compiling tlscope and its sample runtime, and the libraries the report and the CLI link.
  [build]="build-essential cmake pkg-config ninja-build
           libsimdjson-dev libsqlite3-dev libcli11-dev zlib1g-dev nlohmann-json3-dev"
  # The Dear ImGui viewer (tlscope gui): ImGui with its GLFW/OpenGL backends, and stb.
  [viewer]="libimgui-dev libstb-dev libglfw3-dev libgl-dev"
  # The test suites: Catch2; an X server, GL drivers and xdotool for the viewer's tests; Chromium
  # for the HTML report's; curl for the served report's; Node.js for the MCP client test (its
  # SDK comes from npm, scripts/test.sh); time; file, which cpack -G DEB uses to read the
  # binaries' dependencies (dpkg-shlibdeps); clang, which compiles the sanitizer build the test
  # command runs in about two thirds of GCC's time (clang 16: 14 lacks the builtin that
  # libstdc++ 12's std::source_location needs, which the sample runtime uses) and links it with
  # lld (scripts/test.sh says why).
  [test]="catch2 xvfb xauth mesa-utils libgl1-mesa-dri xdotool chromium curl nodejs time file
          clang-16 libclang-rt-16-dev lld-16"
  # The libFuzzer targets (scripts/fuzz.sh): clang's libFuzzer (clang itself is in test).
  [fuzz]="libfuzzer-16-dev"
)
order=(build viewer test fuzz)

list=0
if [[ "${1:-}" = "--list" ]]; then list=1; shift; fi
wanted=("$@")
[[ ${#wanted[@]} -gt 0 ]] || wanted=("${order[@]}")
packages=()
for g in "${wanted[@]}"; do
  [[ -n "${groups[$g]:-}" ]] ||
    { echo "scripts/setup.sh: unknown group $g (groups: ${order[*]})" >&2; exit 2; }
  # shellcheck disable=SC2206  # the lists are words
  packages+=(${groups[$g]})
done
if [[ $list = 1 ]]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done" >&2
