#!/usr/bin/env bash
# Installs, builds and runs the whole test suite (ctest). Extra arguments go to
# ctest (e.g. -R Waf, -L bench). SANITIZE=1 builds with ASan+UBSan in
# build-asan/ instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ "${SANITIZE:-0}" = 1 ]; then
  export BUILD_DIR=${BUILD_DIR:-$root/build-asan} BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
  bash "$root/scripts/build.sh" -DSSDVP_SANITIZE=ON -DSSDVP_BENCHMARKS=OFF
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
else
  export BUILD_DIR=${BUILD_DIR:-$root/build}
  bash "$root/scripts/build.sh" -DSSDVP_TESTS=ON
fi
cd "$BUILD_DIR"
ctest --output-on-failure -j"$(nproc)" --timeout 600 "$@"
