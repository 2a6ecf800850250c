#!/usr/bin/env bash
# nbd-speed.sh - requests per wall second through the NBD export against the
# same requests replayed from a trace (docs/performance.md, "NBD export").
#
#   scripts/nbd-speed.sh [PATH/TO/ssdvp] [IOS]     (default: build/platform/ssdvp, 65536)
#
# 1. `ssdvp serve -c configs/nbd.yaml --record` on a Unix socket; fio
#    (ioengine=nbd) sends IOS 4 KiB random reads and writes (70 % reads) at
#    queue depth 16 over IOS x 4 KiB; fio's own IOPS figure is the NBD rate (wall).
# 2. `ssdvp run` replays the recording (workload.fio_time_unit_ps: 1), and a
#    twin replays its first request only; the difference of their wall times
#    is the replay of the requests alone.
# Prints one markdown table row per path. Needs fio with the nbd engine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-$root/build/platform/ssdvp}"
ios="${2:-65536}"
command -v fio >/dev/null || { echo "nbd-speed: needs fio (scripts/install-deps.sh)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
"$bin" serve -c "$root/configs/nbd.yaml" --listen "unix:$work/s.sock" --set nbd.persistent=true \
  --record rec.iolog -o serve-out --quiet 2>serve.err &
pid=$!
for _ in $(seq 600); do [ -S s.sock ] && break; sleep 0.05; done
fio --name=nbd --ioengine=nbd --uri="nbd+unix:///ssdvp?socket=$work/s.sock" --rw=randrw --rwmixread=70 --bs=4k \
  --iodepth=16 --size=$((ios * 4))k --output-format=json --output=fio.json >/dev/null
kill -TERM $pid
wait $pid
"$bin" run -c "$root/configs/nbd.yaml" --trace rec.iolog --trace-format fio --set workload.fio_time_unit_ps=1 -o full --quiet
head -2 rec.iolog >one.iolog
"$bin" run -c "$root/configs/nbd.yaml" --trace one.iolog --trace-format fio --set workload.fio_time_unit_ps=1 -o one --quiet
python3 - <<'PY'
import json
f = json.load(open("fio.json"))["jobs"][0]
nbd_iops = f["read"]["iops"] + f["write"]["iops"]
s = json.load(open("serve-out/summary.json"))
full = json.load(open("full/summary.json")); one = json.load(open("one/summary.json"))
n = full["workload"]["requests"]
dt = full["run"]["wall_s"] - one["run"]["wall_s"]
same = all(s[k] == full[k] for k in ("ftl", "integrity")) and s["host"]["sim_time_s"] == full["host"]["sim_time_s"]
print("| path | requests | wall s | requests per wall second | simulated IOPS | identical simulated results |")
print("|---|---:|---:|---:|---:|---|")
print(f"| NBD: fio ioengine=nbd, QD 16 (client's wall clock) | {s['nbd']['requests']:,} | {f['job_runtime']/1000:.2f} | {nbd_iops:,.0f} | {s['host']['iops']:,.0f} | |")
print(f"| trace: ssdvp run of the recording (minus a 1-request twin) | {n:,} | {dt:.2f} | {n/dt:,.0f} | {full['host']['iops']:,.0f} | {'yes' if same else 'NO'} |")
PY
