#!/usr/bin/env bash
# Power cuts at random instants across GC-heavy runs, each followed by
# recovery in simulated time, the host's check of every LBA, and the run
# going on (power.cuts; docs/results/reliability.md).
#
#   scripts/power-cuts.sh [N] [SEED] [OUT.csv]     (defaults: 1000, 1, out/power-cuts.csv)
#
# The N cuts are made PER_RUN at a time (default 20) in runs of
# configs/small.yaml (aged: one drive write of random overwrites), with
# power.cuts = PER_RUN at instants uniform in [0, SPAN) of the time powered up
# (power.seed differs per run), on one of eight set-ups in turn: a synthetic
# hot/cold workload (GC relocating all the time) or the varmail file workload
# (a flush after every few writes, a deallocation at every file deleted:
# host.trim.policy discard), each with and without power-loss
# protection (without it, with ftl.gc.durable: 1), each without and with
# checkpoints (power.checkpoint.interval CKPT, default 250ms: recovery from
# the newest complete one). One row per cut; the last lines count the cuts
# during GC, during a checkpoint, the torn programs and erases, and total the
# violations and the host's integrity mismatches between cuts (both must be
# 0; exit 1 otherwise). scripts/reliability.py runs it for docs/results/reliability.md.
# Environment: SSDVP (the binary), CKPT (the checkpoint interval; 0s: no run
# has checkpoints), PER_RUN, EXTRA (more --set options for every run, e.g.
# "--set ftl.gc.copyback=1", or "--set power.trim_log.mode=on" with CKPT=0s:
# deallocations persistent without checkpoints, checked strictly),
# CPU (cpu.mode of every run: native, the default, or iss), SPAN (the
# instants' span, default 6s), LIMIT (host.time_limit of every run, default:
# the hot/cold runs end with their 600,000 requests, varmail at 18s). iss mode
# retires every firmware instruction, about 12x slower than native per host
# I/O, so a short run suits it: CPU=iss SPAN=1s LIMIT=4s (each run still
# ages the drive, functionally on the ISS).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-1000}"
seed="${2:-1}"
out="${3:-$root/out/power-cuts.csv}"
per="${PER_RUN:-20}"
bin="${SSDVP:-$root/build/platform/ssdvp}"
[ -x "$bin" ] || { echo "power-cuts: no ssdvp binary at $bin" >&2; exit 2; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$(dirname "$out")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ckpt="${CKPT:-250ms}"
span="${SPAN:-6s}"
cpu="${CPU:-native}"
echo "cut,run,setup,plp,checkpoints,cut_at_s,gc_runs,flushes,torn_programs,torn_erases,older_allowed,durable_lost,foreign,unreadable,violations,recovery_pages,recovery_time_s,recovery_cpu_s,during_gc,during_checkpoint,checkpoint_generation,checkpoint_pages_read,checkpoints_torn,host_mismatches,free_blocks,blocks_reopened,trim_log_lbas_unmapped,deallocated_latest,torn_copybacks,copybacks,deallocated_unchecked,deallocations_persistent" > "$out"
done_cuts=0
failed_runs=0
for ((run = 0; done_cuts < n; run++)); do
  k=$(( n - done_cuts < per ? n - done_cuts : per ))
  setup=$(( run % 4 ))
  with_ckpt=$([ $(( (run / 4) % 2 )) -eq 1 ] && echo true || echo false)
  case "$ckpt" in 0 | 0s | 0ms) with_ckpt=false ;; esac  # CKPT=0s: never checkpoints
  plp=$([ $(( setup % 2 )) -eq 0 ] && echo true || echo false)
  durable=$([ $plp = true ] && echo 0 || echo 1)  # without PLP, GC erases a victim only once its data is programmed
  rs=$(( seed * 100000 + run ))
  sets=(--set cpu.mode="$cpu" --set power.cuts=$k --set power.cuts_span="$span" --set power.seed=$rs --set power.plp=$plp --set ftl.gc.durable=$durable
        --set precondition.random_drive_writes=1.0 --set workload.synthetic.seed=$rs --set flash.fault.seed=$rs)
  [ "$with_ckpt" = true ] && sets+=(--set power.checkpoint.interval="$ckpt")
  [ -n "${EXTRA:-}" ] && read -ra extra <<< "$EXTRA" && sets+=("${extra[@]}")
  if [ $setup -lt 2 ]; then
    sets+=(--set workload.synthetic.pattern=hotcold --set workload.synthetic.requests=600000)
    name=hotcold
  else
    sets+=(--set workload.source=files --set host.files.personality=varmail --set host.files.fill=0.6
           --set host.files.loops=0 --set host.time_limit=18s --set host.trim.policy=discard)
    name=varmail
  fi
  [ -n "${LIMIT:-}" ] && sets+=(--set host.time_limit="$LIMIT")
  rm -rf "$tmp/run"
  if ! "$bin" run -q -c "$root/configs/small.yaml" -o "$tmp/run" "${sets[@]}" > "$tmp/log" 2>&1; then
    echo "power-cuts: run $run ($name, plp $plp, checkpoints $with_ckpt, power.seed $rs) failed:" >&2
    tail -5 "$tmp/log" >&2
    failed_runs=$(( failed_runs + 1 ))
  fi
  python3 - "$tmp/run/summary.json" "$out" "$done_cuts" "$run" "$name" "$plp" "$with_ckpt" <<'PY'
import json, sys
path, out, first, run, name, plp, ck = sys.argv[1:]
try:
    j = json.load(open(path))
except (OSError, ValueError):
    sys.exit(0)
p = j.get("power", {})
with open(out, "a") as f:
    for i, c in enumerate(p.get("each", [])):
        r, k = c["recovery"], c["check"]
        f.write(",".join(str(x) for x in [int(first) + i, run, name, plp, ck, c["cut_at_s"], j["ftl"]["gc_runs"], j["host"]["flushes"],
                c["torn_programs"], c["torn_erases"], k["older_allowed"], k["durable_lost"], k["foreign"], k["unreadable"],
                c["violations"], r["pages_read"], r["time_s"], r["cpu_s"], int(c["during_gc"]), int(c["during_checkpoint"]),
                r["checkpoint_generation"], r["checkpoint_pages_read"], r["checkpoints_torn"],
                j["integrity"]["mismatches"] if i == 0 else 0, r["free_blocks"], r.get("blocks_reopened", 0),
                r.get("trim_log_lbas_unmapped", 0), k.get("deallocated_latest", 0), c.get("torn_copybacks", 0),
                j["flash"].get("copybacks", 0) if i == 0 else 0, k.get("deallocated_unchecked", 0),
                int(c.get("deallocations_persistent", False))]) + "\n")
PY
  done_cuts=$(( done_cuts + k ))
done
python3 - "$out" "$n" "$failed_runs" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
s = lambda k, rs=rows: sum(int(float(r[k])) for r in rs)
ck = [r for r in rows if r["checkpoints"] == "true"]
print(f"power-cuts: {len(rows)} of {sys.argv[2]} cuts happened ({sum(r['plp'] == 'true' for r in rows)} with PLP, {len(ck)} with checkpoints; "
      f"{sys.argv[3]} runs failed); {s('during_gc')} during GC, {s('during_checkpoint')} during a checkpoint; "
      f"{s('torn_programs')} programs and {s('torn_erases')} erases torn; {s('checkpoints_torn')} newest checkpoints torn")
for label, rs in (("without checkpoints", [r for r in rows if r["checkpoints"] == "false"]), ("with checkpoints", ck)):
    if rs:
        print(f"power-cuts: {label}: recovery reads {sum(float(r['recovery_pages']) + float(r['checkpoint_pages_read']) for r in rs) / len(rs):.0f} pages, "
              f"{sum(float(r['recovery_time_s']) for r in rs) / len(rs) * 1e3:.1f} ms simulated "
              f"(CPU {sum(float(r['recovery_cpu_s']) for r in rs) / len(rs) * 1e3:.1f} ms), on average")
print(f"power-cuts: after recovery {min(int(r['free_blocks']) for r in rows) if rows else 0} free blocks at least, "
      f"{s('blocks_reopened')} partly written blocks reopened; {s('trim_log_lbas_unmapped')} LBAs unmapped from the trim log, "
      f"{s('deallocated_latest')} LBAs read deallocated as expected; {s('deallocated_unchecked')} LBAs left unchecked "
      f"(deallocations not persistent: {sum(r['deallocations_persistent'] == '0' for r in rows)} cuts)")
print(f"power-cuts: {s('violations')} violations, {s('host_mismatches')} host integrity mismatches ({sys.argv[1]})")
sys.exit(0 if s("violations") == 0 and s("host_mismatches") == 0 and sys.argv[3] == "0" else 1)
PY
