#!/usr/bin/env bash
# fidelity.sh - regenerates docs/results/fidelity.md: the firmware's steady-
# state WAF against analytic models and an independent page-level simulator
# (uniform and two-temperature workloads), and the queueing checks
# (saturation bounds, Little's law, M/D/1).
#
#   bash scripts/fidelity.sh [--quick]
#
# Builds first (scripts/build.sh with tests; BUILD_DIR, default build/;
# BUILD_TARGETS may limit it to ssdvp, ssdvp_fw, fidelity_table and
# fidelity_queueing_test). One process at a time; each part's wall time goes to
# runs.csv beside the data, and the page states the cost.
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
# the uniform points, the skewed points and the queueing test, one after the other, each timed
echo "part,wall_s" > "$out/runs.csv"
timed() {  # timed PART OUTFILE COMMAND...: runs COMMAND > OUTFILE and appends PART's wall seconds to runs.csv
  local part=$1 file=$2 t0
  shift 2
  t0=$(date +%s.%N)
  "$@" > "$file"
  echo "$part,$(echo "$(date +%s.%N) - $t0" | bc | awk '{printf "%.1f", $1}')" >> "$out/runs.csv"
}
timed uniform "$out/uniform.csv" "$build/testbench/reference/fidelity_table" --sim --part uniform
timed skewed "$out/skewed.csv" "$build/testbench/reference/fidelity_table" --sim --part skewed
cat "$out/uniform.csv" "$out/skewed.csv" > "$out/fidelity.csv"
timed queueing "$out/queueing.txt" "$build/testbench/fidelity/fidelity_queueing_test"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3  # Debian's, with matplotlib (scripts/python-deps.txt)
exec "$py" "$root/scripts/fidelity.py" "$out/fidelity.csv" "$out/queueing.txt" "$root/docs/results"
