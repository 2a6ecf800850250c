#!/usr/bin/env bash
# bench.sh - the whole-run speed benchmark of docs/performance.md.
#
#   scripts/bench.sh [--quick] [--no-build]
#
# Builds a Release tree if needed (BUILD_DIR, default <repo>/../build-bench),
# then measures, in this order and one at a time:
#   0. the machine's raw SystemC/TLM speed (ssdvp_bench kernel baselines), so
#      that every figure is also given as a ratio to it;
#   a. configs/bench32g.yaml: 4 KiB uniform random writes, full 32 GiB device,
#      GC active (plus the same run with 1000 requests, to subtract set-up and
#      functional preconditioning from the timed part);
#   b. replays of traces/msr_heimdall_rw20_80_105.ascii and traces/tpcc-small.ascii
#      on configs/small.yaml (its synthetic workload keys removed), open loop,
#      looped so that the run lasts long enough to time;
#   c. the CPU modes against each other: configs/small.yaml (4 KiB uniform
#      random, 30 % reads, QD32) with cpu.mode native and iss (the firmware on
#      the RV32 ISS), each with a 1-request twin to subtract set-up and
#      preconditioning; gives the ISS's instructions per second and its cost
#      as a ratio to native mode measured in the same run.
# Prints a markdown table; raw outputs (summary.json, /usr/bin/time) in
# OUT_DIR (default BUILD_DIR/bench-out). --quick: fewer requests and loops.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$(dirname "$ROOT")/build-bench}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/bench-out}
QUICK=0
BUILD=1
for a in "$@"; do
  case "$a" in
    --quick) QUICK=1 ;;
    --no-build) BUILD=0 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
if [ "$QUICK" = 1 ]; then
  REQ_A=200000; LOOPS=5; BM_MIN=0.2; REQ_C=20000
else
  REQ_A=2000000; LOOPS=40; BM_MIN=1; REQ_C=100000
fi
REQ_P=1000

if [ "$BUILD" = 1 ]; then
  if [ ! -f "$BUILD_DIR/build.ninja" ] || ! grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$BUILD_DIR/CMakeCache.txt"; then
    cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSSDVP_BENCHMARKS=ON >/dev/null
  fi
  cmake --build "$BUILD_DIR" -j2 --target ssdvp ssdvp_bench >/dev/null
fi
SSDVP="$BUILD_DIR/platform/ssdvp"
BENCH="$BUILD_DIR/testbench/bench/ssdvp_bench"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR"
cd "$ROOT"

# run NAME ARGS... : one ssdvp run, its summary in OUT_DIR/NAME, wall/user/sys/maxrss in NAME.time
run() {
  local name=$1
  shift
  echo "bench.sh: $name" >&2
  /usr/bin/time -f '%e %U %S %M' -o "$OUT_DIR/$name.time" "$SSDVP" run "$@" -o "$OUT_DIR/$name" -q
}

echo "bench.sh: kernel baseline" >&2
"$BENCH" --benchmark_filter='BM_Kernel_MethodNextTrigger|BM_Kernel_ThreadWait|BM_Tlm_BTransport/fresh:1' \
  --benchmark_min_time="$BM_MIN" --benchmark_format=json --benchmark_out="$OUT_DIR/baseline.json" \
  --benchmark_out_format=json >/dev/null 2>&1

# (a) and its preconditioning-only twin
run a_bench32g -c configs/bench32g.yaml --set workload.synthetic.requests=$REQ_A
run a_precond -c configs/bench32g.yaml --set workload.synthetic.requests=$REQ_P

# (b) trace replays on small.yaml without its synthetic workload section
TRACE_CFG="$OUT_DIR/small_trace.yaml"
awk '/^[^ #]/{skip=($0 ~ /^workload:/)} !skip' configs/small.yaml >"$TRACE_CFG"
run b_precond -c configs/small.yaml --set workload.synthetic.requests=1
run b_heimdall -c "$TRACE_CFG" --trace traces/msr_heimdall_rw20_80_105.ascii --set host.mode=open --set workload.loops=$LOOPS
run b_tpcc -c "$TRACE_CFG" --trace traces/tpcc-small.ascii --set host.mode=open --set workload.loops=$LOOPS
# (c) native against iss, the same workload (skipped without the ISS build)
if "$SSDVP" params -c configs/small.yaml --set cpu.mode=iss 2>/dev/null | grep "^cpu.iss.firmware" >/dev/null; then  # not -q: SIGPIPE under pipefail
  for m in native iss; do
    run c_${m}_pre -c configs/small.yaml --set cpu.mode=$m --set workload.synthetic.requests=1
    run c_$m -c configs/small.yaml --set cpu.mode=$m --set workload.synthetic.requests=$REQ_C
  done
else
  echo "bench.sh: no iss CPU mode in this build; case (c) skipped" >&2
fi
# the process floor: a 1 GiB device, 1 MiB host memory, one request
run floor -c configs/small.yaml --set workload.synthetic.requests=1 --set host.memory=1MiB

python3 - "$OUT_DIR" "$QUICK" <<'PY'
import json, os, sys, datetime, platform
out, quick = sys.argv[1], sys.argv[2] == "1"

def load(name):
    s = json.load(open(os.path.join(out, name, "summary.json")))
    wall, user, sys_, rss_kb = open(os.path.join(out, name + ".time")).read().split()
    s["_t"] = {"wall": float(wall), "cpu": float(user) + float(sys_), "rss_kb": int(rss_kb)}
    return s

def pages(s):
    c = s["config"]
    g = lambda k: int(float(c[k]))
    return g("flash.channels") * g("flash.dies_per_channel") * g("flash.planes_per_die") * g("flash.blocks_per_plane") * g("flash.pages_per_block")

base = {b["name"]: b["items_per_second"] for b in json.load(open(os.path.join(out, "baseline.json")))["benchmarks"]}
k_method = base["BM_Kernel_MethodNextTrigger"]
k_thread = base["BM_Kernel_ThreadWait"]
k_tlm = base["BM_Tlm_BTransport/fresh:1"]

cpu = "?"
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        cpu = line.split(":", 1)[1].strip()
        break
print(f"## ssdvp speed benchmark ({'quick' if quick else 'full'}), {datetime.datetime.now():%Y-%m-%d %H:%M}")
print(f"\nmachine: {os.cpu_count()} CPUs, {cpu}; load average at the end {os.getloadavg()[0]:.2f}; "
      f"version {load('floor')['ssdvp_version']}\n")
print(f"Kernel baseline (CPU time): {k_method/1e6:.2f} M SC_METHOD activations/s, {k_thread/1e6:.2f} M SC_THREAD "
      f"wait()s/s, {k_tlm/1e6:.2f} M b_transport/s (fresh payload).\n")

rows = []
def row(label, s, pre=None):
    t = s["_t"]
    req = s["workload"]["requests"]
    r = {"label": label, "req": req, "wall": t["wall"], "cpu": t["cpu"], "rss_mb": t["rss_kb"] / 1024.0,
         "pages": pages(s), "iops_run": req / t["wall"], "sim_iops": s["host"]["iops"], "waf": s["ftl"]["waf"],
         "clean": s["integrity"]["mismatches"] == 0 and s["flash"]["violations"] == 0}
    if pre is not None:
        dw = t["wall"] - pre["_t"]["wall"]
        dc = t["cpu"] - pre["_t"]["cpu"]
        dr = req - pre["workload"]["requests"]
        r["iops_wall"] = dr / dw if dw > 0 else float("nan")
        r["iops_cpu"] = dr / dc if dc > 0 else float("nan")
        r["pre_wall"] = pre["_t"]["wall"]
    rows.append(r)
    return r

a = row("(a) bench32g: 4 KiB random writes, 32 GiB, GC", load("a_bench32g"), load("a_precond"))
pb = load("b_precond")
row("(b) msr_heimdall_rw20_80_105 replay, small.yaml", load("b_heimdall"), pb)
row("(b) tpcc-small replay, small.yaml", load("b_tpcc"), pb)
fl = load("floor")

print("| case | host I/Os | wall s (of which set-up + precondition) | host I/O/s, whole run (wall) "
      "| timed part: host I/O/s (wall) | timed part: host I/O/s (CPU) | kernel activations per I/O "
      "| peak RSS MB | physical pages | B of peak RSS per page | simulated IOPS | WAF | clean |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    print(f"| {r['label']} | {r['req']:,} | {r['wall']:.1f} ({r['pre_wall']:.1f}) | {r['iops_run']:,.0f} "
          f"| {r['iops_wall']:,.0f} | {r['iops_cpu']:,.0f} | {k_method / r['iops_cpu']:,.0f} "
          f"| {r['rss_mb']:.0f} | {r['pages']:,} | {r['rss_mb'] * 1048576 / r['pages']:.1f} "
          f"| {r['sim_iops']:,.0f} | {r['waf']:.2f} | {'yes' if r['clean'] else 'NO'} |")

# Memory of (a): what the peak RSS is made of (the DRAM model is an mmap
# NORESERVE store: only touched pages are resident, and they are in the RSS).
s = load("a_bench32g")
c = s["config"]
P = a["pages"]
def size(t):
    t = t.strip()
    for u, m in (("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("TiB", 1 << 40),
                 ("KB", 10**3), ("MB", 10**6), ("GB", 10**9), ("TB", 10**12)):
        if t.endswith(u):
            return int(float(t[:-len(u)]) * m)
    return int(float(t))
lba = size(c["nvme.lba_size"])
slots = max(1, size(c["flash.page_size"]) // lba)
L = size(c["nvme.namespace_size"]) // lba
nand = P * (8 * slots + 4)               # NandDie: token + OOB LPN per slot, sequence number per page
l2p = L * 4                               # FTL L2P in the DRAM model (4 B per LBA)
valid = P * slots / 8                     # FTL validity bitmap in the DRAM model
sb = L * 4                                # host scoreboard (4 B per LBA)
floor_mb = fl["_t"]["rss_kb"] / 1024.0
MB = 1048576
print("\nPeak RSS of (a), broken down (computed from the geometry; the DRAM model's touched pages are in the RSS):\n")
print("| part | MB | B per physical page |\n|---|---:|---:|")
for name, b in [("NAND store (NandDie: 4 B token + 4 B OOB LPN per slot, 4 B seq per page)", nand),
                ("FTL L2P in the DRAM model (4 B per LBA)", l2p), ("FTL validity bitmap in the DRAM model", valid),
                ("host scoreboard (4 B per LBA)", sb)]:
    print(f"| {name} | {b / MB:.1f} | {b / P:.2f} |")
state = nand + l2p + valid + sb
print(f"| sum of the per-page state | {state / MB:.1f} | {state / P:.2f} |")
print(f"| process floor (libraries, SystemC, a 1 GiB device; measured) | {floor_mb:.1f} | {floor_mb * MB / P:.2f} |")
print(f"| measured peak RSS | {a['rss_mb']:.1f} | {a['rss_mb'] * MB / P:.2f} |")
print(f"| measured peak RSS minus process floor | {a['rss_mb'] - floor_mb:.1f} | {(a['rss_mb'] - floor_mb) * MB / P:.2f} |")
if os.path.exists(os.path.join(out, "c_iss", "summary.json")):
    print("\nCPU modes on configs/small.yaml (4 KiB uniform random, 30 % reads, QD32), timed part "
          "(each run minus its 1-request twin), CPU time:\n")
    print("| cpu.mode | host I/Os | host I/O/s (CPU) | firmware instructions | M instructions/s (CPU) "
          "| instructions per I/O | slowdown against native | simulated IOPS | WAF | clean |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    cr = {}
    for m in ("native", "iss"):
        s_, p_ = load(f"c_{m}"), load(f"c_{m}_pre")
        dc = s_["_t"]["cpu"] - p_["_t"]["cpu"]
        dr = s_["workload"]["requests"] - p_["workload"]["requests"]
        ins = s_["cpu"].get("instructions", 0) if s_["cpu"].get("mode") == "iss" else 0
        cr[m] = {"iops": dr / dc if dc > 0 else float("nan"), "ins": ins, "dc": dc, "dr": dr, "s": s_}
    for m in ("native", "iss"):
        r = cr[m]
        clean = r["s"]["integrity"]["mismatches"] == 0 and r["s"]["flash"]["violations"] == 0
        mips = f"{r['ins'] / r['dc'] / 1e6:.1f}" if r["ins"] and r["dc"] > 0 else "-"
        per = f"{r['ins'] / r['dr']:,.0f}" if r["ins"] else "-"
        ins = f"{r['ins']:,}" if r["ins"] else "-"
        print(f"| {m} | {r['dr']:,} | {r['iops']:,.0f} | {ins} | {mips} | {per} "
              f"| {cr['native']['iops'] / r['iops']:.1f}x | {r['s']['host']['iops']:,.0f} "
              f"| {r['s']['ftl']['waf']:.3f} | {'yes' if clean else 'NO'} |")
ok_speed = a["iops_cpu"] >= 500000
ok_mem = a["rss_mb"] * MB / P < 24
print(f"\nGoal 500,000 host I/O/s for (a): {'met' if ok_speed else 'NOT met'} "
      f"({a['iops_cpu']:,.0f} per CPU second, {a['iops_cpu'] / 500000:.1%} of the goal).")
print(f"Goal < 24 B per physical page: {'met' if ok_mem else 'NOT met'} "
      f"({a['rss_mb'] * MB / P:.1f} B of whole-process peak RSS per page).")
PY
