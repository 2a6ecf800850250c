#!/usr/bin/env python3
"""flows_experiment.py - two tenants sharing a drive: the latency-sensitive
reader's p50/p99/p99.9 alone and next to a writer that makes GC run, under
round robin and weighted round robin (reader high or urgent), with and without
flash read priority + program/erase suspend, at the default 256 firmware
command slots and at 8. Keeps what the page needs in docs/results/flows/
(results.csv, one row per run with its wall time, and provenance.json) and
writes docs/results/flows.md and its figure from that data.

    python3 scripts/flows_experiment.py [BUILD_DIR] [--jobs N] [--seeds 3]  runs everything
    python3 scripts/flows_experiment.py --render DATA_DIR --page OUT_MD  runs nothing: the page from data

Every run is `ssdvp run -c configs/flows.yaml` with the --set overrides listed
on the page; each writes out/flows/<name>-s<seed>/summary.json. A point is
--seeds runs (default 3): seed k sets precondition.seed k and the reader's and
writer's workload seeds 2k - 1 and 2k (k = 1 is the config's own).
"""
import os
import sys

from runpoint import (by_point, cell, data_args, figure_lines, flow_named, load_of, load_summary, page_rows, pick,
                      pyplot, run_point, run_rows, runs_block, save_png_svg, seed_arg, seeds_line, ssdvp_run,
                      write_lines)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "explore"))
from ssdvp_explore.stats import mean_ci  # noqa: E402  (standard library only)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "flows")
COMMAND = "python3 scripts/flows_experiment.py"

ALONE = ["flows.1.workload.synthetic.requests=1", "flows.1.host.queue_depth=1"]  # the writer issues one write
WRR = ["nvme.arbitration=wrr"]
URGENT = WRR + ["flows.0.priority=urgent"]
FLASH = ["flash.read_priority=true", "flash.suspend.enable=true"]
RO = ["flows.0.workload.synthetic.read_fraction=1"]  # the reader without its own writes
CASES = [
    ("alone", "reader alone (the writer issues one write)", ALONE),
    ("rr", "shared, round robin", []),
    ("wrr-high", "shared, WRR: reader high (16), writer low (1)", WRR),
    ("wrr-urgent", "shared, WRR: reader urgent", URGENT),
    ("rr+suspend", "shared, round robin, read priority + suspend", FLASH),
    ("wrr-urgent+suspend", "shared, WRR reader urgent, read priority + suspend", URGENT + FLASH),
    ("alone+suspend", "reader alone, read priority + suspend", ALONE + FLASH),
    ("wrr-urgent-ro", "shared, WRR reader urgent, reader 100 % reads", URGENT + RO),
    ("rr+suspend-ro", "shared, round robin, read priority + suspend, reader 100 % reads", FLASH + RO),
]
SLOTS = [256, 8]
# every run sets the write path's floor rule to pass (the default is room)
PIN = ["ftl.write.at_floor=pass"]
KEEP = ["ftl.waf", "ftl.write_stalls", "flash.suspends", "integrity.reads_checked", "integrity.mismatches",
        "utilization.die_mean", "host.sim_time_s"]


def command_for(seeds):
    return COMMAND + (f" --seeds {seeds}" if seeds != 3 else "")


def seed_sets(k):
    """Seed k's settings: the preconditioning's overwrites and each flow's requests (k = 1: the config's own)."""
    return [f"precondition.seed={k}", f"flows.0.workload.synthetic.seed={2 * k - 1}",
            f"flows.1.workload.synthetic.seed={2 * k}"]


def runs(seeds=1):
    for k in range(1, seeds + 1):
        for slots in SLOTS:
            for name, desc, sets in CASES:
                yield f"slots{slots}-{name}", slots, name, desc, [f"ftl.cmd_slots={slots}"] + sets, k


def command(build, name, sets):
    return ssdvp_run(build, "configs/flows.yaml", "flows", name, sets + PIN, quiet=True)


def run_all_points(build, jobs, seeds):
    def one(t):
        name, slots, case, desc, sets, k = t
        wall = run_point(command(build, f"{name}-s{k}", sets + seed_sets(k)), f"{name} seed {k}")
        j = load_summary(OUT, f"{name}-s{k}")
        rd, w = flow_named(j, "reader"), flow_named(j, "writer")
        row = {"name": name, "seed": k, "slots": slots, "case": case, "setting": desc, "wall_s": round(wall, 1),
               "reader.reads": rd["latency_us"]["read"]["count"], "reader.p50": rd["latency_us"]["read"]["p50"],
               "reader.p99": rd["latency_us"]["read"]["p99"], "reader.p999": rd["latency_us"]["read"]["p999"],
               "reader.write_p99": rd["latency_us"].get("write", {}).get("p99"),
               "writer.requests": w["requests"], "writer.iops": w["iops"],
               "writer.write_p99": w["latency_us"].get("write", {}).get("p99")}
        row.update(pick(j, KEEP))
        return row
    return run_rows(jobs, list(runs(seeds)), one)


# --- the page ------------------------------------------------------------------------------------------------

def table_row(r):
    wr = (f"{cell(r, 'writer.iops', ',.0f')} | {cell(r, 'writer.write_p99')}" if r["writer.requests"] > 1
          else "- | -")
    return (f"| {r['name']} | {r['setting']} | {cell(r, 'reader.reads', ',.0f')} | {cell(r, 'reader.p50')} | "
            f"{cell(r, 'reader.p99')} | {cell(r, 'reader.p999')} | {wr} | {cell(r, 'ftl.waf', '.2f')} | "
            f"{cell(r, 'flash.suspends', ',.0f') if r.get('flash.suspends') else 0} | "
            f"{sum(x['integrity.mismatches'] for x in r['runs'])} |")


def plot(by, figs):
    plt = pyplot()
    if plt is None:
        return False
    fig, axes = plt.subplots(1, len(SLOTS), figsize=(12, 4), sharey=True)
    names = [n for n, _, _ in CASES]
    for ax, slots in zip(axes, SLOTS):
        for k, (q, label) in enumerate([("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")]):
            pts = [by[f"slots{slots}-{n}"] for n in names]
            half = [mean_ci([r[f"reader.{q}"] for r in p["runs"]])[1] for p in pts]
            ax.bar([i + k * 0.27 for i in range(len(names))], [p[f"reader.{q}"] for p in pts], 0.27, label=label,
                   yerr=half if any(half) else None, capsize=2)
        ax.set_xticks([i + 0.27 for i in range(len(names))])
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_title(f"ftl.cmd_slots = {slots}", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("reader's read latency (us)")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.tight_layout()
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, title="reader reads")
    save_png_svg(plt, fig, os.path.join(figs, "reader-latency"))
    return True


def same(a, b, keys=("reader.p50", "reader.p99", "reader.p999", "writer.iops", "ftl.waf")):
    """a and b give the same figures on every seed both ran."""
    bs = {r.get("seed") or 1: r for r in b["runs"]}
    return all(r[k] == bs[r.get("seed") or 1][k] for r in a["runs"] if (r.get("seed") or 1) in bs for k in keys)


def ms(us):
    return f"{us / 1000:,.1f} ms" if us >= 1000 else f"{us:,.0f} us"


def findings(by, rows):
    L = []
    A = L.append

    def g(slots, case):
        return by[f"slots{slots}-{case}"]
    al, rr, hi, ur = (g(256, c) for c in ("alone", "rr", "wrr-high", "wrr-urgent"))
    A("## What arbitration can and cannot do against GC")
    A("")
    if same(rr, hi) and same(rr, ur):
        head = "**With 256 command slots, arbitration changes nothing, to the last digit.**"
    else:
        head = (f"**With 256 command slots, arbitration changes little** (reader p50 {ms(rr['reader.p50'])} round robin, "
                f"{ms(hi['reader.p50'])} WRR high, {ms(ur['reader.p50'])} WRR urgent).")
    A(f"- {head} The controller fetches a command as soon as its doorbell arrives as long as the fetched-command "
      "ring has room, and with 8 + 32 commands outstanding it always has: no two SQs hold a command at the same "
      "time for long enough for the arbiter's choice to matter. Sharing the drive costs the reader "
      f"{rr['reader.p50'] / al['reader.p50']:.0f}x at the median ({ms(al['reader.p50'])} to {ms(rr['reader.p50'])}) "
      f"and {rr['reader.p999'] / al['reader.p999']:.0f}x at p99.9 ({ms(al['reader.p999'])} to "
      f"{ms(rr['reader.p999'])}): its reads wait behind the writer's and GC's programs and erases **on the dies**, "
      "which no queue arbitration reorders. GC blocks dies, not queues.")
    rs, ro, als = g(256, "rr+suspend"), g(256, "rr+suspend-ro"), g(256, "alone+suspend")
    A(f"- **Read priority + suspend is what helps at the die**: the reader's median is {ms(rs['reader.p50'])} "
      f"(alone: {ms(al['reader.p50'])}; alone with suspend: {ms(als['reader.p50'])}). Its p99 and p99.9 "
      f"({ms(rs['reader.p99'])} and {ms(rs['reader.p999'])}) stay high for a host-side reason: the reader's own "
      f"10 % writes wait for free blocks like the writer's (their p99 {ms(rs['reader.write_p99'])}; the run "
      f"counts {rs['ftl.write_stalls']:,.0f} retries of waiting writes, `ftl.write_stalls`), and with a host queue "
      "depth of 8 a few stalled writes "
      "leave its reads waiting in the host's software queue. The same run with a read-only reader (`-ro`) has "
      f"p99 {ms(ro['reader.p99'])} and p99.9 {ms(ro['reader.p999'])}. So the tail the reader sees is set by the "
      "free-block pool (GC's rate), not by arbitration.")
    rr8, hi8, ur8 = g(8, "rr"), g(8, "wrr-high"), g(8, "wrr-urgent")
    ro8 = g(8, "rr+suspend-ro")
    A(f"- **With 8 command slots arbitration matters, and is not enough.** Commands now wait in the SQs, and "
      f"weighted round robin takes the reader's p50 from {ms(rr8['reader.p50'])} (round robin) to "
      f"{ms(hi8['reader.p50'])} with the reader high and {ms(ur8['reader.p50'])} urgent (the writer is the only "
      f"other class), its p99.9 from {ms(rr8['reader.p999'])} to {ms(hi8['reader.p999'])} and "
      f"{ms(ur8['reader.p999'])}. But the fetched-command ring is first come first served and the firmware's 8 "
      "slots are held by the writer's writes that wait for free blocks: a read fetched first still waits for a "
      f"slot. With suspend and a read-only reader its median is {ms(ro8['reader.p50'])}. Arbitration decides who "
      "enters the controller; it cannot free a slot that GC keeps busy. A firmware that let reads overtake stalled "
      "writes in its own queues (or reserved slots per queue) would be the next step; it is not modelled.")
    shared = [r for r in rows if r["writer.requests"] > 1]
    wi = [r["writer.iops"] for r in shared]
    mism = sum(r["integrity.mismatches"] for r in rows)
    A(f"- Integrity: {mism} mismatches over all {len(rows)} runs (each flow checks its reads against its own LBAs); "
      f"the writer's throughput spans {min(wi):,.0f} to {max(wi):,.0f} IOPS across the shared settings and seeds "
      f"({100 * (max(wi) - min(wi)) / min(wi):.1f} %), so the reader's gains do not come from starving it.")
    A("")
    return L


STATIC = """Where MQSim's published multi-flow figures would apply, they use other drives and workloads; no
figure here is tuned to them.

What the flows share and do not: every flow's requests feed the device's block-layer counters that
the GC monitor (`host.trim.policy`) samples, and a timeline (`timeline.file`) shows each flow's
requests on a track of its own. The runs above give each flow a disjoint half of the namespace
(`flows.<i>.share`). Flows may also share LBAs (`flows.<i>.offset`: a read that races another flow's
write is checked by the rule in [host_driver.md](../models/host_driver.md#properties)), and a flow
may delete its queue pair at its stop (`flows.<i>.stop_queues: drain` or `abort`); neither is used
here.

## Two flows sharing the cached mapping table

When the mapping is cached (`ftl.mapping: cached`), the flows also share the cache of mapping
entries: a flow that reads at random over most of the drive misses on nearly every read, and each
miss loads an entry that pushes another out, so a second flow whose hot range would fit in the cache
alone loses its entries. [flows-cmt.md](flows-cmt.md) measures it (a 2,048-LBA hot range next to
random reads, caches of half to four times the hot range, LRU and segmented LRU, against the whole
table in DRAM) and holds the hit rates against Che's approximation of LRU:

```sh
python3 scripts/flows_cmt.py      # 14 runs
```
"""


def page(rows, data_dir, figs_rel, figs):
    by = by_point(rows)
    wall = sum(r["wall_s"] for r in rows)
    rr = by["slots256-rr"]
    L = ["# Two tenants sharing a drive: flows, queue pairs and arbitration against GC", ""]
    A = L.append
    cmd = command_for(max(len(p["runs"]) for p in by.values()))
    A(f"Regenerate the data and this page (tables, figure, the commands below; {len(rows)} runs: "
      f"{wall:,.0f} s of wall time summed over the runs as results.csv records it, {load_of(data_dir)}; `--jobs N` "
      "runs N at a time; the figure needs matplotlib):")
    A("")
    A("```sh")
    A("bash scripts/build.sh && " + cmd)
    A("```")
    A("")
    A("Render again from the committed data: `python3 scripts/flows_experiment.py --render docs/results/flows "
      "--page docs/results/flows.md`. Data: [flows/results.csv](flows/results.csv) (one row per run). "
      + seeds_line(by.values()) + " Seed k sets `precondition.seed=k` and the reader's and writer's "
      "`workload.synthetic.seed` 2k - 1 and 2k (k = 1: the config's own). Every run sets "
      "`ftl.write.at_floor: pass` (the default is `room`; the commands below show it); the commands below are "
      "seed 1's.")
    A("")
    A("## Setup")
    A("")
    A("`configs/flows.yaml`: `configs/small.yaml`'s drive (4 channels x 2 dies, 1 GiB of flash, 896 MiB exported, "
      "greedy GC below 16 free blocks), filled and then overwritten at random for half a drive so that GC is at "
      "work from the start. Two flows, each on its own NVMe I/O queue pair created with Create I/O CQ/SQ, each "
      "owning half of the namespace:")
    A("")
    A("- **reader** (qid 1, priority class high unless said otherwise): open loop, 2000 requests/s, 90 % reads of "
      "4 KiB at uniform random LBAs, host queue depth 8, 8000 requests (4 s);")
    A("- **writer** (qid 2, class low): closed loop, 32 writes of 4 KiB outstanding at uniform random LBAs, stops "
      f"issuing at 4 s. Shared with round robin, the dies are {100 * rr['utilization.die_mean']:.0f} % busy on "
      f"average, most of it GC (WAF {rr['ftl.waf']:.2f}).")
    A("")
    A("\"alone\" is the same run with the writer issuing a single write. Arbitration: `rr` round robin (burst 1, "
      "`flows.arbitration_burst: 0`); `wrr` weighted round robin with weights high 16, medium 4, low 1 (Set "
      "Features 01h from `flows.weight_*`), the reader in the high or the urgent class. \"read priority + suspend\" "
      "is the flash scheduler's (`flash.read_priority`, `flash.suspend.enable`; "
      "[flash-features.md](flash-features.md)). Each setting is run with the firmware's default 256 command slots "
      "(`ftl.cmd_slots`, which also sizes the ring the controller fetches into) and with 8. Latencies in us, from "
      "a request's arrival to its completion; the reader's reads only.")
    A("")
    A("## Results")
    A("")
    for slots in SLOTS:
        A(f"### ftl.cmd_slots = {slots}")
        A("")
        A("| run | setting | reader reads | p50 | p99 | p99.9 | writer IOPS | writer write p99 | WAF | suspends | "
          "mismatches |")
        A("|---|---|---|---|---|---|---|---|---|---|---|")
        L += [table_row(r) for r in by.values() if r["slots"] == slots]
        A("")
    L += runs_block(command("build", f"{n}-s1", s + seed_sets(1)) for n, _, _, _, s, _ in runs())
    L += figure_lines(plot(by, figs), figs_rel, "reader-latency", "reader latency")
    L += findings(by, rows)
    L += STATIC.splitlines()
    A("")
    return L


def main():
    a = seed_arg(data_args(__doc__, "flows")).parse_args()
    page_path = os.path.abspath(a.page)
    figs_rel = "flows"
    figs = os.path.join(os.path.dirname(page_path), figs_rel)
    rows, data = page_rows(a, "flows", command_for(a.seeds), lambda build, jobs: run_all_points(build, jobs, a.seeds))
    write_lines(page_path, page(rows, data, figs_rel, figs), data,
                command_for(max(len(p["runs"]) for p in by_point(rows).values())))


if __name__ == "__main__":
    main()
