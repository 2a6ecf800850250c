#!/usr/bin/env bash
# fidelity.sh - regenerates docs/results/fidelity.md: the firmware's steady-
# state WAF against analytic models and an independent page-level simulator
# (uniform and two-temperature workloads), and the queueing checks
# (saturation bounds, Little's law, M/D/1).
#
#   bash scripts/fidelity.sh [--quick]
#
# Builds first (scripts/build.sh with tests; BUILD_DIR, default build/).
# About 6 minutes on two cores;
# --quick is a smoke run of a few minutes whose figures are not for the page
# (it writes out/fidelity/ only).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
BUILD_DIR=$build bash "$root/scripts/build.sh" -DSSDVP_TESTS=ON
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
out=$root/out/fidelity
mkdir -p "$out"
if [ "${1:-}" = --quick ]; then
  "$build/testbench/reference/fidelity_table" --quick > "$out/fidelity.csv"
  echo "quick run: $out/fidelity.csv (docs/results/fidelity.md unchanged)"
  exit 0
fi
# the uniform and the skewed points in two processes
"$build/testbench/reference/fidelity_table" --sim --part uniform > "$out/uniform.csv" &
uniform=$!
"$build/testbench/reference/fidelity_table" --sim --part skewed > "$out/skewed.csv"
wait "$uniform"
cat "$out/uniform.csv" "$out/skewed.csv" > "$out/fidelity.csv"
"$build/testbench/fidelity/fidelity_queueing_test" > "$out/queueing.txt"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with matplotlib (scripts/python-deps.txt)
exec "$py" "$root/scripts/fidelity.py" "$out/fidelity.csv" "$out/queueing.txt" "$root/docs/results"
