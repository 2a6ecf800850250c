#!/usr/bin/env bash
# flash-features.sh - regenerates docs/results/flash-features.md: read tails
# with program/erase suspend and read priority, and latency per cell type
# (issue 21). Every run is the default job with --set overrides; runs are
# written to out/flash-features/<name>/.
#
#   bash scripts/flash-features.sh [--section suspend|cells|multiplane|pairing|sameblock|copyback|partial] [--jobs N]
#
# Builds first (scripts/build.sh; BUILD_DIR, default build/). About a minute
# of CPU in all.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
BUILD_DIR=$build bash "$root/scripts/build.sh"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with matplotlib (scripts/python-deps.txt)
exec "$py" "$root/scripts/flash_features.py" "$build" "$@"
