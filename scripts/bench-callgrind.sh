#!/usr/bin/env bash
# bench-callgrind.sh - instructions per host I/O of case (a), scaled down, under
# valgrind's callgrind: a figure that does not depend on the machine's load
# (docs/performance.md, "Instructions per host I/O").
#
#   scripts/bench-callgrind.sh [SSDVP_BINARY] [REQUESTS] [--set key=value ...]
#
# Runs configs/bench32g.yaml shrunk to 1 GiB of flash (32 blocks per die,
# 768 MiB exported, so GC is in steady state after the functional
# preconditioning) with REQUESTS (default 20000) closed-loop 4 KiB random
# writes at QD64, and counts instructions only inside the timed sc_start()
# (--toggle-collect), so set-up and preconditioning are left out. Prints
# instructions per host I/O, delta cycles per host I/O and the instructions by
# layer (kernel, models, firmware, runtime; further arguments
# go to `ssdvp run`, e.g. --set host.coalesce.entries=8); the callgrind
# output stays in OUT_DIR (default /tmp/ssdvp-callgrind) for callgrind_annotate.
#
# With TRACE=FILE, case (b) instead: the trace replayed open loop on
# configs/small.yaml without its workload section, LOOPS times (default 2;
# REQUESTS is then ignored and the I/Os are the host's commands), e.g.
#   TRACE=traces/msr_heimdall_rw20_80_105.ascii scripts/bench-callgrind.sh build/platform/ssdvp
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${1:-$ROOT/build/platform/ssdvp}
REQ=${2:-20000}
shift $(($# < 2 ? $# : 2))
OUT_DIR=${OUT_DIR:-/tmp/ssdvp-callgrind}
command -v valgrind >/dev/null || { echo "bench-callgrind.sh: valgrind is not installed" >&2; exit 2; }
mkdir -p "$OUT_DIR"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
if [ -n "${TRACE:-}" ]; then
  awk '/^[^ #]/{skip=($0 ~ /^workload:/)} !skip' "$ROOT/configs/small.yaml" >"$OUT_DIR/small_trace.yaml"
  job=(-c "$OUT_DIR/small_trace.yaml" --trace "$TRACE" --set host.mode=open --set workload.loops="${LOOPS:-2}")
else
  job=(-c "$ROOT/configs/bench32g.yaml" --set flash.blocks_per_plane=32 --set nvme.namespace_size=768MiB
       --set dram.size=16MiB --set workload.synthetic.requests="$REQ")
fi
valgrind --tool=callgrind --callgrind-out-file="$OUT_DIR/callgrind.out" --collect-atstart=no \
  --toggle-collect='sc_core::sc_start()' "$BIN" run "${job[@]}" -o "$OUT_DIR/run" -q "$@" 2>"$OUT_DIR/valgrind.log"
ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$OUT_DIR/valgrind.log")
python3 - "$ir" "$REQ" "$OUT_DIR/run/summary.json" <<'PY'
import json, sys
ir, s = int(sys.argv[1]), json.load(open(sys.argv[3]))
req = s["host"]["commands"]  # the workload's requests (case a: REQUESTS)
print(f"instructions in the timed part: {ir:,}")
print(f"instructions per host I/O: {ir / req:,.0f}")
print(f"delta cycles per host I/O: {s['run']['delta_cycles'] / req:.1f}  (whole run)")
print(f"interrupts per host I/O: {s['nvme'].get('interrupts', s['nvme']['completions']) / req:.2f}, firmware wake-ups per host I/O: {s['cpu']['wakeups'] / req:.2f}  (whole run)")
print(f"WAF {s['ftl']['waf']}, flash programs {s['flash']['programs']}, reads {s['flash']['reads']}, erases {s['flash']['erases']}")
PY
# Where the instructions go: callgrind's self cost per function, summed by layer
# (the simulator binary's C functions are the firmware, its C++ ones the models
# and platform; then the SystemC library and the C/C++ runtime).
callgrind_annotate --threshold=100 "$OUT_DIR/callgrind.out" 2>/dev/null | python3 -c '
import re, sys
req = float(sys.argv[1]); total = {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \([ \d.]+%\)\s+(.*)\[(.*)\]\s*$", line)
    if not m or "PROGRAM TOTALS" in line:
        continue
    ir, fn, obj = int(m.group(1).replace(",", "")), m.group(2), m.group(3)
    if "libsystemc" in obj: k = "SystemC kernel"
    elif "/lib" in obj: k = "C/C++ runtime (libc, libm, libstdc++)"
    elif "::" in fn: k = "models and platform (C++)"
    else: k = "firmware (C)"
    total[k] = total.get(k, 0) + ir
all_ = sum(total.values())
for k, v in sorted(total.items(), key=lambda kv: -kv[1]):
    print(f"  {k}: {v / req:,.0f} per host I/O ({100 * v / all_:.0f} %)")
' "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['host']['commands'])" "$OUT_DIR/run/summary.json")"
