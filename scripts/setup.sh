#!/usr/bin/env bash
# Installs the Debian packages tlscope needs to build and test. Idempotent: when everything is
# present it checks with dpkg and returns in well under a second, without touching apt.
set -euo pipefail

packages=(
  build-essential cmake pkg-config ninja-build
  libsimdjson-dev libsqlite3-dev libcli11-dev catch2 zlib1g-dev nlohmann-json3-dev
  libimgui-dev libstb-dev libglfw3-dev libgl-dev
  xvfb xauth mesa-utils libgl1-mesa-dri xdotool
  chromium
  clang-14 libfuzzer-14-dev
  time
  file  # cpack -G DEB reads the binaries' dependencies (dpkg-shlibdeps, via file)
)

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
