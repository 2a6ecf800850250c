#!/usr/bin/env bash
# flash-features.sh - regenerates docs/results/flash-features/ (results.csv,
# provenance.json) and docs/results/flash-features.md: read tails with
# program/erase suspend and read priority, latency per cell type, multi-plane,
# copyback. Every run is the default job (or configs/small.yaml) with --set
# overrides; runs are written to out/flash-features/<name>/.
#
#   bash scripts/flash-features.sh [--jobs N]     (one run at a time by default)
#
# Builds first (scripts/build.sh; BUILD_DIR, default build/). The page states
# the measured cost.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
BUILD_DIR=$build bash "$root/scripts/build.sh"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with matplotlib (scripts/python-deps.txt)
exec "$py" "$root/scripts/flash_features.py" "$build" "$@"
