#!/usr/bin/env bash
# The main job: install, build, and replay the bundled MSR trace on the default
# configuration (configs/default.yaml); prints a summary and writes
# out/default/summary.json and out/default/timeseries.csv.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" -DSSDVP_TESTS=OFF -DSSDVP_BENCHMARKS=OFF
cd "$root"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
exec "${BUILD_DIR:-$root/build}/platform/ssdvp" run -c configs/default.yaml -o out/default "$@"
