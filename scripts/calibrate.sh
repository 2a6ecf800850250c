#!/usr/bin/env bash
# calibrate.sh - measures the firmware's operations on the ISS (cpu.mode: iss)
# against the native CPU's cycle-cost table in force (configs/cpu_cost.yaml)
# and compares the CPU modes on other workloads: the data in
# docs/results/calibration/ and the page docs/results/calibration.md.
# Changes nothing the simulator uses; --apply rewrites the table instead.
#
#   bash scripts/calibrate.sh [--jobs N]    measure, the data and the page
#   bash scripts/calibrate.sh --apply       measure, rewrite the table, rebuild
#
# Installs and builds first (scripts/build.sh; BUILD_DIR, default build/).
# About 5 minutes on 2 cores. Details: scripts/calibrate.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with the packages of scripts/python-deps.txt
exec "$py" "$root/scripts/calibrate.py" --build-dir "${BUILD_DIR:-$root/build}" "$@"
