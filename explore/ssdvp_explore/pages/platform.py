"""docs/results/platform.md: the GC victim policy on the small configuration."""
from . import Page, register, standard_body

INTRO = """\
The platform's first exploration: the garbage-collection victim policy of the
FTL (`ftl.gc.policy`) on the small configuration (`configs/small.yaml`: 1 GiB
of flash, 12.5 % spare, 64 pages of 8 KiB per block, GC below 16 free
blocks), in steady state (a sequential fill and one drive-write of random
overwrites run functionally first), under a uniform and a hot/cold workload
(80 % of requests on 20 % of the space), two seeds each. Write amplification
and erases show the policy's cost in flash wear; the normalized response time
and the latency tails show what the host sees; the bandwidth timelines show GC
stealing bandwidth.

What the recorded run shows (check the table below after regenerating):

- Random victims double the write amplification (about 8.4, the 1/S_f law)
  and halve the IOPS: the baseline every other policy must beat.
- Under uniform writes greedy and cost-benefit are close (about 4.25); FIFO is
  about 3 % higher, d-choices (d = 10) in between, as the mean-field analysis
  predicts (the firmware-level WAF tests check the same order against the
  formulas).
- Skew hurts greedy: with hot/cold writes its WAF rises (about 4.52) because hot
  and cold LBAs share blocks and cold-heavy blocks are never the emptiest;
  cost-benefit, which weighs age, improves (about 4.23). Separating hot and
  cold data (the HAML issue) is the remedy this platform is built to measure.
- IOPS mostly follow the flash work: FIFO no longer delivers about 30 % more
  IOPS than greedy, but still about 5 % more (uniform 15,840 against 15,080;
  hot/cold 14,920 against 14,160) despite its higher WAF. The 30 % lead was
  GC starving dies, fixed in issue 22; the 5 % left is in line with the
  +6.3 % measured after the die rule began yielding at half the reserve
  (next section).

## Die starvation: before and after

Until issue 22 every policy but FIFO starved dies: a freed block returns to
its own die, a frontier skips a die without a free block, and with the pool
at the reserve (about 4 free blocks for 8 dies) greedy, random, d-choices and
cost-benefit left about a quarter of the dies idle. GC now collects on the
dies with the fewest free blocks ([firmware.md](../firmware.md#victim-policies)).
Policies ranked by IOPS on the small drive (8 dies, one seed, 100 000
requests after a fill and one drive-write of random overwrites; `dies` is
`utilization.die_mean`):

| workload | before (main at e67eeee) | after |
|---|---|---|
| uniform | fifo 16169 (WAF 4.361, dies 0.84) > cost_benefit 12438 (4.177, 0.62) > greedy 12223 (4.174, 0.61) > dchoices 11793 (4.266, 0.60) > random 5887 (8.164, 0.57) | cost_benefit 15995 (4.271, 0.82) ≈ fifo 15978 (4.394, 0.84) ≈ greedy 15918 (4.269, 0.81) > dchoices 15700 (4.387, 0.82) > random 8008 (8.454, 0.81) |
| hot/cold | fifo 14851 (4.724, 0.84) > cost_benefit 11725 (4.193, 0.59) > greedy 11676 (4.335, 0.60) > dchoices 11564 (4.355, 0.60) > random 5893 (8.177, 0.57) | cost_benefit 15893 (4.308, 0.82) > dchoices 15450 (4.460, 0.82) ≈ greedy 15446 (4.418, 0.82) > fifo 14698 (4.778, 0.84) > random 8174 (8.297, 0.81) |

FIFO against greedy by number of dies (same drive size, uniform):

| dies | before: FIFO vs greedy IOPS | after | greedy's flash work per host write vs FIFO's (after) |
|---:|---:|---:|---:|
| 1 | −2.9 % | −3.1 % | −3.1 % |
| 2 | +7.7 % | −2.6 % | −3.2 % |
| 4 | +22.5 % | −0.5 % | −3.5 % |
| 8 | +32.3 % | +0.4 % | −2.8 % |

FIFO no longer leads by more than its flash work allows; at 8 dies it
still keeps its dies a little busier (0.84 against 0.81), so greedy's 3 %
less flash work does not all turn into IOPS. The "after" WAFs also include
issue 22's other change: preconditioning now leaves the free pool at the
reserve for a closed-loop host (`precondition.free_pool`), where the timed
part holds it, so they are about 1 % higher than a run that starts at the
threshold.

**A correction after these figures were taken.** Regenerating the HAML
pages found that the die rule could run the free pool dry during
preconditioning with a frontier per class (`haml` placement,
`ftl.placement.gc: cluster`, 8 dies, reserve 4: "functional drain stuck"):
a short die's victim can hold more valid data than the best elsewhere, and
relocating it may open a block per class. The rule now yields to the
policy's choice across all dies once the free pool is at half the reserve
(regression test `GcDieRule.ClusterPlacementPreconditionDoesNotStall`).
That costs part of the gain on the uniform row at 8 dies: greedy 15,071
IOPS (WAF 4.262, dies busy 0.77) against FIFO 16,020 (4.397, 0.84), FIFO
+6.3 % where the table says −0.4 % (before the rule: +32 %). The other rows
were not re-measured; the first loop below regenerates them.

```sh
for pat in uniform hotcold; do for pol in greedy fifo random cost_benefit dchoices; do
  build/platform/ssdvp run -c configs/small.yaml -o out/rank/${pat}_$pol --set workload.synthetic.pattern=$pat \\
    --set ftl.gc.policy=$pol --set precondition.random_drive_writes=1.0 --set workload.synthetic.requests=100000
done; done
# dies: 1, 2, 4, 8 at 1 GiB (channels x dies_per_channel x blocks_per_plane)
for g in "1 1 2048" "2 1 1024" "4 1 512" "4 2 256"; do set -- $g; for pol in greedy fifo; do
  build/platform/ssdvp run -c configs/small.yaml -o out/dies/$1x$2_$pol --set flash.channels=$1 --set flash.dies_per_channel=$2 \\
    --set flash.blocks_per_plane=$3 --set ftl.gc.policy=$pol --set precondition.random_drive_writes=1.0 \\
    --set workload.synthetic.requests=100000
done; done
```"""

register(Page(name="platform", title="Platform: GC victim policy on the small config",
              sweep="explore/sweeps/platform.yaml", baseline="greedy",
              render=lambda ctx: standard_body(ctx, intro=INTRO)))
