#!/usr/bin/env bash
# Power cuts at random instants across GC-heavy runs, each followed by
# recovery and the host's check of every LBA (docs/results/reliability.md).
#
#   scripts/power-cuts.sh [N] [SEED] [OUT.csv]     (defaults: 1000, 1, out/power-cuts.csv)
#
# Cut i runs configs/small.yaml (aged: one drive write of random overwrites)
# with power.cut_at uniform in [0.05 s, 6 s) of the timed part, on one of eight
# set-ups in turn: a synthetic hot/cold workload (GC relocating all the
# time) or the varmail file workload (a flush after every few writes), each
# with and without power-loss protection (without it, with ftl.gc.durable: 1),
# each without and with checkpoints (power.checkpoint.interval CKPT, default
# 250ms: recovery from the newest complete one). One row per cut; the last
# lines count the cuts during GC, during a checkpoint, the torn programs and
# erases, and total the violations (must be 0; exit 1 otherwise).
# Environment: SSDVP (the binary), CKPT (the checkpoint interval).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-1000}"
seed="${2:-1}"
out="${3:-$root/out/power-cuts.csv}"
bin="${SSDVP:-$root/build/platform/ssdvp}"
[ -x "$bin" ] || { echo "power-cuts: no ssdvp binary at $bin" >&2; exit 2; }
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$(dirname "$out")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ckpt="${CKPT:-250ms}"
echo "cut,setup,plp,checkpoints,cut_at_s,gc_runs,flushes,torn_programs,torn_erases,older_allowed,durable_lost,foreign,unreadable,violations,recovery_pages,recovery_time_s,during_gc,during_checkpoint,checkpoint_generation,checkpoint_pages_read,checkpoints_torn" > "$out"
RANDOM="$seed"
total=0
for ((i = 0; i < n; i++)); do
  setup=$(( i % 4 ))
  with_ckpt=$([ $(( (i / 4) % 2 )) -eq 1 ] && echo true || echo false)
  plp=$([ $(( setup % 2 )) -eq 0 ] && echo true || echo false)
  durable=$([ $plp = true ] && echo 0 || echo 1)  # without PLP, GC erases a victim only once its data is programmed
  cut_ms=$(( 50 + (RANDOM * 32768 + RANDOM) % 5950 ))
  sets=(--set power.cut_at=${cut_ms}ms --set power.plp=$plp --set ftl.gc.durable=$durable --set precondition.random_drive_writes=1.0
        --set workload.synthetic.seed=$((seed * 100000 + i)) --set flash.fault.seed=$((seed * 100000 + i)))
  [ "$with_ckpt" = true ] && sets+=(--set power.checkpoint.interval="$ckpt")
  if [ $setup -lt 2 ]; then
    sets+=(--set workload.synthetic.pattern=hotcold --set workload.synthetic.requests=400000)
    name=hotcold
  else
    sets+=(--set workload.source=files --set host.files.personality=varmail --set host.files.fill=0.6
           --set host.files.loops=0 --set host.time_limit=10s)
    name=varmail
  fi
  if ! "$bin" run -q -c "$root/configs/small.yaml" -o "$tmp/run" "${sets[@]}" > "$tmp/log" 2>&1; then
    echo "power-cuts: cut $i ($name, plp $plp, ${cut_ms} ms) failed:" >&2
    tail -5 "$tmp/log" >&2
  fi
  row=$(python3 - "$tmp/run/summary.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
p = j.get("power")
if p is None:
    print("nan,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0")
else:
    c = p["check"]
    print(",".join(str(x) for x in [p["cut_at_s"], j["ftl"]["gc_runs"], j["host"]["flushes"], p["torn_programs"], p["torn_erases"],
          c["older_allowed"], c["durable_lost"], c["foreign"], c["unreadable"], p["violations"],
          p["recovery"]["pages_read"], p["recovery"]["time_s_estimate"], int(p["during_gc"]), int(p["during_checkpoint"]),
          p["recovery"]["checkpoint_generation"], p["recovery"]["checkpoint_pages_read"],
          p["recovery"]["checkpoints_torn"]]))
PY
)
  echo "$i,$name,$plp,$with_ckpt,$row" >> "$out"
  v=$(echo "$row" | cut -d, -f10)
  total=$(( total + v ))
done
python3 - "$out" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["cut_at_s"] != "nan"]
s = lambda k, rs=rows: sum(int(float(r[k])) for r in rs)
ck = [r for r in rows if r["checkpoints"] == "true"]
print(f"power-cuts: {len(rows)} cuts happened ({sum(r['plp'] == 'true' for r in rows)} with PLP, {len(ck)} with checkpoints); "
      f"{s('during_gc')} during GC, {s('during_checkpoint')} during a checkpoint; "
      f"{s('torn_programs')} programs and {s('torn_erases')} erases torn; {s('checkpoints_torn')} newest checkpoints torn")
for label, rs in (("without checkpoints", [r for r in rows if r["checkpoints"] == "false"]), ("with checkpoints", ck)):
    if rs:
        print(f"power-cuts: {label}: recovery reads {sum(float(r['recovery_pages']) + float(r['checkpoint_pages_read']) for r in rs) / len(rs):.0f} pages, "
              f"{sum(float(r['recovery_time_s']) for r in rs) / len(rs) * 1e3:.1f} ms estimated, on average")
PY
echo "power-cuts: $n cuts, $total violations ($out)"
[ "$total" -eq 0 ]
