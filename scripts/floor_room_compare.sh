#!/usr/bin/env bash
# floor_room_compare.sh - ftl.write.at_floor pass against room on a host that
# saturates the drive: the platform page's sweep (explore/sweeps/platform.yaml:
# configs/small.yaml, a fill and one drive-write of random overwrites, then
# 200 000 requests of 4 KiB, 30 % reads, closed loop at QD 32; uniform and
# hot/cold, every GC policy, seeds 1 and 2) run under each setting. The
# measurement behind docs/results/platform.md's "ftl.write.at_floor: room"
# table (issue 16).
#
#   bash scripts/floor_room_compare.sh [ssdvp binary] [output dir] [extra --set ...]
#
# Prints one CSV row per run:
# pattern,policy,seed,at_floor,iops,waf,die_mean,read_p99_us,write_p9999_us,write_stalls
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/platform/ssdvp}
out=${2:-$root/out/floor_room}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
echo "pattern,policy,seed,at_floor,iops,waf,die_mean,read_p99_us,write_p9999_us,write_stalls"
for pat in uniform hotcold; do
  for pol in greedy fifo random cost_benefit dchoices; do
    for seed in 1 2; do
      for floor in pass room; do
        d="$out/${pat}_${pol}_${seed}_$floor"
        "$bin" run -c "$root/configs/small.yaml" -o "$d" --quiet --set workload.synthetic.pattern=$pat \
          --set ftl.gc.policy=$pol --set workload.synthetic.seed=$seed --set ftl.write.at_floor=$floor \
          --set precondition.random_drive_writes=1.0 --set workload.synthetic.requests=200000 \
          ${extra[@]+"${extra[@]}"}
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1] + '/summary.json'))
lat = d['latency_us']
print(','.join(sys.argv[2:]) + f\",{d['host']['iops']:.0f},{d['ftl']['waf']:.3f},{d['utilization']['die_mean']:.3f}\"
      f\",{lat['read']['p99']:.0f},{lat['write']['p9999']:.0f},{d['ftl']['write_stalls']}\")" \
          "$d" $pat $pol $seed $floor
      done
    done
  done
done
