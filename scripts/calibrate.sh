#!/usr/bin/env bash
# calibrate.sh - measures the firmware's operations on the ISS (cpu.mode: iss)
# and regenerates the native CPU's cycle-cost table configs/cpu_cost.yaml,
# then compares both modes on other workloads in docs/results/calibration.md.
#
#   bash scripts/calibrate.sh [--no-validate]
#
# Installs and builds first (scripts/build.sh; BUILD_DIR, default build/).
# About 5 minutes on 2 cores. Details: scripts/calibrate.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with the packages of scripts/python-deps.txt
exec "$py" "$root/scripts/calibrate.py" --build-dir "${BUILD_DIR:-$root/build}" "$@"
