#!/usr/bin/env bash
# Installs what is missing (Debian 12), then configures and builds ssdvp.
#   BUILD_DIR (default: build) and BUILD_TYPE (default: Release) may be set;
#   extra arguments go to cmake's configure step (e.g. -DSSDVP_SANITIZE=ON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >/dev/null
cmake --build "$build" -j"$(nproc)"
