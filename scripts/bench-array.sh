#!/usr/bin/env bash
# bench-array.sh - the speed of a RAID-5 run against single-device runs of the
# same per-device load (docs/performance.md, "RAID-5 arrays").
#
#   scripts/bench-array.sh [--no-build]
#
# For N = 3, 4, 6, 8 devices (configs/raid.yaml: 16 KiB synthetic requests,
# 30 % reads, 100 IOPS per data device, 20,000 requests): one array run, then
# one single-device run (array.level: none, same device config) replaying the
# mean per-device command stream of that array run (the same command rate,
# read fraction and mean size, as synthetic requests). Reports wall seconds,
# the ratio wall(N-device run) / (N x wall(single-device run)) and the wall
# time per 1000 device commands. One run at a time; the figures include
# preconditioning (functional fill and one array-write), as a user sees them.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-array-out}
[ "${1:-}" = "--no-build" ] || bash "$ROOT/scripts/build.sh" >/dev/null
BIN=$BUILD_DIR/platform/ssdvp
mkdir -p "$OUT_DIR"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd "$ROOT"
echo "| devices | array wall (s) | device commands | single-device wall (s) | ratio wall(N) / (N x wall(1)) | array wall per 1000 device commands (ms) | single per 1000 (ms) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in 3 4 6 8; do
  iops=$(( 100 * (n - 1) ))
  "$BIN" run -q -c configs/raid.yaml --set array.devices=$n --set workload.synthetic.iops=$iops -o "$OUT_DIR/array$n"
  read -r rate rf size <<<"$(python3 - "$OUT_DIR/array$n/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
d = j["devices"]; n = len(d); t = j["array"]["sim_time_s"]
cmds = sum(x["host_commands"] for x in d)
reads = sum(x["io"]["reads"] for x in d); writes = sum(x["io"]["writes"] for x in d)
lbas = sum(x["host_lba_reads"] + x["host_lba_writes"] for x in d)
size = max(1, round(lbas / max(1, reads + writes))) * 4096
print(f"{cmds / n / t:.1f} {reads / max(1, reads + writes):.4f} {size}")
PY
)"
  "$BIN" run -q -c configs/raid.yaml --set array.level=none --set workload.synthetic.iops=$rate \
    --set workload.synthetic.read_fraction=$rf --set workload.synthetic.io_size=$size -o "$OUT_DIR/single$n"
  python3 - "$n" "$OUT_DIR/array$n/summary.json" "$OUT_DIR/single$n/summary.json" <<'PY'
import json, sys
n = int(sys.argv[1]); a = json.load(open(sys.argv[2])); s = json.load(open(sys.argv[3]))
wa, ws = a["run"]["wall_s"], s["run"]["wall_s"]
ca = sum(x["host_commands"] for x in a["devices"]); cs = s["nvme"]["commands"]
print(f"| {n} | {wa:.2f} | {ca} | {ws:.2f} | {wa / (n * ws):.2f} | {1000 * wa / ca * 1000:.2f} | {1000 * ws / cs * 1000:.2f} |")
PY
done
