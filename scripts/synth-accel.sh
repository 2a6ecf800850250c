#!/usr/bin/env bash
# Synthesises the accelerator's default configuration with yosys
# (accel/synth/synth.ys) and prints the cell counts and the CMOS transistor
# estimate recorded in docs/models/accel.md. Output: build/accel_synth_stat.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${BUILD_DIR:-$root/build}
mkdir -p "$out"
cd "$root"
command -v yosys >/dev/null || { echo "synth-accel: yosys not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
yosys -q -l "$out/accel_synth.log" -s accel/synth/synth.ys
mv accel_synth_stat.txt "$out/accel_synth_stat.txt"
cat "$out/accel_synth_stat.txt"
