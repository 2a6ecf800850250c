#!/usr/bin/env bash
# Installs what is missing (Debian 12), then configures and builds ssdvp.
#   BUILD_DIR (default: build) and BUILD_TYPE (default: Release) may be set;
#   BUILD_TARGETS (default: all) limits the build to these targets;
#   extra arguments go to cmake's configure step (e.g. -DSSDVP_SANITIZE=ON).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/install-deps.sh"
build=${BUILD_DIR:-$root/build}
# ccache, when installed, makes rebuilds in several work trees cheap; it is optional.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "${launcher[@]}" "$@" >/dev/null
# shellcheck disable=SC2086  # BUILD_TARGETS is a list
cmake --build "$build" -j"$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS}
