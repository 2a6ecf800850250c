#!/usr/bin/env bash
# Media-fault rates against WAF and latency on one aged, GC-heavy workload
# (the settings of docs/results/reliability.md, whose own runs scripts/reliability.py makes). Prints a
# markdown table.
#
#   scripts/fault-sweep.sh [OUT_DIR]      (default: out/fault-sweep)
# Environment: SSDVP (the binary; default build/platform/ssdvp).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/out/fault-sweep}"
bin="${SSDVP:-$root/build/platform/ssdvp}"
[ -x "$bin" ] || { echo "fault-sweep: no ssdvp binary at $bin" >&2; exit 2; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
base=(--set workload.synthetic.pattern=hotcold --set workload.synthetic.requests=100000
      --set workload.synthetic.read_fraction=0.3 --set precondition.random_drive_writes=1.0)
cases=(
  "none|"
  "program fail 2e-5|flash.fault.program_fail_rate=0.00002"
  "program fail 1e-4|flash.fault.program_fail_rate=0.0001"
  "erase fail 1e-2|flash.fault.erase_fail_rate=0.01"
  "factory bad 5 %|flash.fault.factory_bad_rate=0.05"
  "RBER 1.5e-3|flash.ecc.rber=0.0015"
  "RBER 1.8e-3|flash.ecc.rber=0.0018"
  "RBER 1.8e-3, no retry|flash.ecc.rber=0.0018 flash.ecc.retry_levels=0"
  "RBER 1e-3, aged 4380 h at 2e-7/h|flash.ecc.rber=0.001 flash.ecc.rber_per_hour=0.0000002 flash.ecc.retention_offset=4380h"
  "read disturb, refresh at 20|flash.ecc.rber_per_read=0.000001 ftl.refresh.read_limit=20"
  "read disturb, refresh at 20, pass|flash.ecc.rber_per_read=0.000001 ftl.refresh.read_limit=20 ftl.write.at_floor=pass"
)
echo "| faults | WAF | read mean / p99 (us) | write mean / p99 (us) | blocks retired | reads retried | uncorrectable | refreshes | host errors |"
echo "|---|---|---|---|---|---|---|---|---|"
i=0
for c in "${cases[@]}"; do
  label="${c%%|*}"
  sets=()
  for kv in ${c#*|}; do sets+=(--set "$kv"); done
  dir="$out/$i"
  "$bin" run -q -c "$root/configs/small.yaml" -o "$dir" "${base[@]}" "${sets[@]}" > /dev/null 2>&1 || true
  python3 - "$dir/summary.json" "$label" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r, w, f = j["latency_us"]["read"], j["latency_us"]["write"], j["reliability"]["ftl"]
print(f"| {sys.argv[2]} | {j['ftl']['waf']:.3f} | {r['mean']:.0f} / {r['p99']:.0f} | {w['mean']:.0f} / {w['p99']:.0f} | "
      f"{f['retired_blocks_total']} (+{f['factory_bad_blocks']} factory) | {f['reads_retried']} | {f['uncorrectable_reads']} | "
      f"{f['refreshes']} | {j['host']['errors']} |")
PY
  i=$((i + 1))
done
