#!/usr/bin/env bash
# die_rule_compare.sh - GC policies by IOPS, WAF and die utilization at 1, 2,
# 4 and 8 dies on the small drive (1 GiB, uniform 4 KiB random, 30 % reads,
# closed loop QD 32, 100 000 requests after a fill and one drive-write of
# random overwrites): the measurement behind docs/results/platform.md's
# "Die starvation" section (issue 22).
#
#   bash scripts/die_rule_compare.sh [ssdvp binary] [output dir] [extra --set ...]
#
# Prints one CSV row per run: dies,policy,iops,waf,die_mean.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/platform/ssdvp}
out=${2:-$root/out/die_rule}
shift $(( $# > 2 ? 2 : $# ))
extra=("$@")
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
echo "dies,policy,iops,waf,die_mean"
for g in "1 1 2048" "2 1 1024" "4 1 512" "4 2 256"; do
  set -- $g
  for pol in greedy fifo random cost_benefit dchoices; do
    d="$out/$(( $1 * $2 ))dies_$pol"
    "$bin" run -c "$root/configs/small.yaml" -o "$d" --quiet --set flash.channels=$1 --set flash.dies_per_channel=$2 \
      --set flash.blocks_per_plane=$3 --set ftl.gc.policy=$pol --set precondition.random_drive_writes=1.0 \
      --set workload.synthetic.requests=100000 ${extra[@]+"${extra[@]}"}
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1] + '/summary.json'))
print(f\"{sys.argv[2]},{sys.argv[3]},{d['host']['iops']:.0f},{d['ftl']['waf']:.3f},{d['utilization']['die_mean']:.3f}\")" \
      "$d" $(( $1 * $2 )) $pol
  done
done
