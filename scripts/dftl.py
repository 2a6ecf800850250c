#!/usr/bin/env python3
"""dftl.py - the cached mapping table (DFTL, ftl.mapping: cached) against the full
in-DRAM table: runs the experiments, keeps what the page needs in
docs/results/dftl/ (results.csv, one row per run with its wall time, and
provenance.json) and writes docs/results/dftl.md with its figure from that data.

    python3 scripts/dftl.py [BUILD_DIR] [--jobs N] [--seeds N]  runs everything (one at a time by default)
    python3 scripts/dftl.py --render DATA_DIR --page OUT_MD  runs nothing: the page from committed data

Every run is `ssdvp run` with the --set overrides the page lists; each writes
out/dftl/<name>/summary.json. Four studies: "cmt" (three workloads x the full
table and four cache sizes, segmented LRU at 1/64 and 1/16, the translation
pages on one die at 1/64), "protected" (segmented LRU's protected share at 25
and 75 %), "cuts" (twenty power cuts in one run, cached with and without
power-loss protection, and the full table), "iss" (the quiet workload of
testbench/platform/iss_mode_test.cpp natively at several clocks and on the
RV32 ISS).

The "cmt" and "protected" studies run each point --seeds times (default 3): seed k
sets workload.synthetic.seed and precondition.seed to k (the synthetic requests and
the preconditioning's random drive-write; the trace's requests are its own). The
"cuts" and "iss" studies are checks of one run each (no violation at any cut; the
same cache decisions natively and on the ISS), with the workloads' default seeds.
"""
import os

from runpoint import (ISS_QUIET_YAML, by_point, cell, change, data_args, half_width, load_of, load_summary, page_rows, pick,
                      pyplot, run_point, run_rows, save_png_svg, seed_arg, seeds_line, ssdvp_run, write_lines)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "dftl")
COMMAND = "python3 scripts/dftl.py"


def command_for(seeds):
    """The page's regenerate command for a run at --seeds seeds (3, the default, is left out)."""
    return COMMAND + ("" if seeds == 3 else f" --seeds {seeds}")

LBAS = 896 * 1024 * 1024 // 4096

# 200,000 requests: the first half warms the cache functionally (as the
# default job's preconditioning does with half the trace), the second is timed.
SYN = ["workload.source=synthetic", "workload.synthetic.requests=200000", "workload.synthetic.io_size=4KiB",
       "workload.synthetic.read_fraction=0.5", "workload.synthetic.iops=4000", "workload.loops=1"]
WORKLOADS = [
    ("trace", "MSR heimdall excerpt (the default job)", []),
    ("uniform", "uniform random 4 KiB, 50 % reads", SYN + ["workload.synthetic.pattern=uniform"]),
    ("hotcold", "80/20 hot/cold 4 KiB, 50 % reads", SYN + ["workload.synthetic.pattern=hotcold"]),
]
FRACTIONS = [("1/64", 64), ("1/16", 16), ("1/4", 4), ("1", 1)]
# every run but the ISS study's sets the write path's floor rule to pass (the default is room)
PIN = ["ftl.write.at_floor=pass"]
CUTS = ["precondition.random_drive_writes=1.0", "ftl.mapping=cached", "ftl.cmt.entries=3584",
        "workload.synthetic.pattern=hotcold", "workload.synthetic.requests=150000", "workload.synthetic.iops=10000",
        "host.mode=open", "power.cuts=20", "power.cuts_span=14s", "power.seed=3", "ftl.gc.durable=1"]
QUIET_CFG = "out/dftl/quiet.yaml"
CACHED_Q = ["ftl.mapping=cached", "ftl.cmt.entries=4096", "ftl.cmt.tp_entries=256"]
CLOCKS = [1e9, 9e8, 7e8, 5e8, 4e8]
SEED_KEYS = ("workload.synthetic.seed", "precondition.seed")
SEEDED = ("cmt", "protected")   # the studies run at seeds 1..--seeds

# what results.csv keeps of each summary (dotted names; a trailing '.' keeps everything under it)
KEEP = ["mapping.", "latency_us.read.mean", "latency_us.read.p99", "latency_us.write.mean", "latency_us.write.p99",
        "ftl.waf", "ftl.gc_runs", "ftl.erase_count.", "ftl.dram_bytes", "host.iops", "host.sim_time_s",
        "integrity.reads_checked", "integrity.mismatches", "flash.violations", "cpu.mode", "cpu.compute_s",
        "cpu.bus_s", "power.plp", "power.cuts_asked", "power.cuts", "power.during_gc", "power.torn_programs",
        "power.torn_erases", "power.recovery_time_s_mean", "power.recovery_time_s_max", "power.violations"]


def points():
    """(name, study, workload, label, config, sets) of every point, in the page's order."""
    out = []
    for w, _, wsets in WORKLOADS:
        out.append((f"{w}-full", "cmt", w, "full", "configs/default.yaml", wsets))
        for label, div in FRACTIONS:
            out.append((f"{w}-cmt{div}", "cmt", w, label, "configs/default.yaml",
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // div}"]))
        for label, div in FRACTIONS[:2]:  # segmented LRU, half the cache protected (the default)
            out.append((f"{w}-cmt{div}-slru", "cmt", w, f"{label}, slru", "configs/default.yaml",
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // div}", "ftl.cmt.policy=slru"]))
        if w != "hotcold":  # translation pages on one die
            out.append((f"{w}-cmt64-stripe1", "cmt", w, "1/64, one die", "configs/default.yaml",
                        wsets + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // 64}", "ftl.cmt.stripe=1"]))
    wsets = {w: s for w, _, s in WORKLOADS}
    for w, label, div in (("trace", "1/64", 64), ("trace", "1/16", 16), ("hotcold", "1/16", 16)):
        for p in (25, 75):
            out.append((f"{w}-cmt{div}-slru-p{p}", "protected", w, f"{label}, slru, protected {p} %",
                        "configs/default.yaml", wsets[w] + ["ftl.mapping=cached", f"ftl.cmt.entries={LBAS // div}",
                                                            "ftl.cmt.policy=slru", f"ftl.cmt.protected={p}"]))
    out.append(("cuts-noplp", "cuts", "hotcold", "cached, no PLP", "configs/small.yaml", CUTS + ["power.plp=false"]))
    out.append(("cuts-plp", "cuts", "hotcold", "cached, PLP", "configs/small.yaml", CUTS + ["power.plp=true"]))
    out.append(("cuts-noplp-full", "cuts", "hotcold", "full table, no PLP", "configs/small.yaml",
                CUTS + ["power.plp=false", "ftl.mapping=full"]))
    out.append(("iss-iss", "iss", "quiet", "ISS, 1 GHz", QUIET_CFG, CACHED_Q + ["cpu.mode=iss"]))
    for hz in CLOCKS:
        out.append((f"iss-native-{hz / 1e9:g}", "iss", "quiet", f"native, {hz / 1e9:g} GHz", QUIET_CFG,
                    CACHED_Q + ["cpu.mode=native", f"cpu.clock_hz={hz:g}"]))
    for hz in (1e9, 7e8, 4e8):
        out.append((f"iss-slow-{hz / 1e9:g}", "iss", "quiet-slow", f"native, 2 requests/s, {hz / 1e9:g} GHz",
                    QUIET_CFG, CACHED_Q + ["cpu.mode=native", f"cpu.clock_hz={hz:g}", "workload.synthetic.iops=2"]))
    for hz in (1e9, 4e8):
        out.append((f"iss-full-{hz / 1e9:g}", "iss", "quiet", f"full table, native, {hz / 1e9:g} GHz", QUIET_CFG,
                    ["cpu.mode=native", f"cpu.clock_hz={hz:g}"]))
    return out


def runs(seeds):
    """(point, seed) of every run: the seeded studies' points at seeds 1..seeds, the others once (seed 1)."""
    return [(p, k) for p in points() for k in range(1, (seeds if p[1] in SEEDED else 1) + 1)]


def seed_sets(k):
    """The --set overrides of seed k (none for seed 1: the defaults, so seed 1's commands are the plain ones)."""
    return [] if k == 1 else [f"{key}={k}" for key in SEED_KEYS]


def run_name(name, k):
    return name if k == 1 else f"{name}-s{k}"


def command(build, name, config, sets, k=1):
    """The run's command line; the ISS study runs the test's drive as the test does (no PIN)."""
    iss = config == QUIET_CFG
    return ssdvp_run(build, config, "dftl", run_name(name, k), sets + ([] if iss else PIN) + seed_sets(k), quiet=iss)


def run_all_points(build, jobs, seeds):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(ROOT, QUIET_CFG), "w") as f:
        f.write(ISS_QUIET_YAML)

    def one(run):
        (name, study, w, label, config, sets), k = run
        wall = run_point(command(build, name, config, sets, k), run_name(name, k))
        j = load_summary(OUT, run_name(name, k))
        each = [c["recovery"]["pages_read"] for c in (j.get("power") or {}).get("each", [])]
        row = {"name": name, "study": study, "workload": w, "label": label, "seed": k, "wall_s": round(wall, 1)}
        row.update(pick(j, KEEP))
        if each:
            row.update({"power.pages_read_mean": round(sum(each) / len(each)), "power.pages_read_min": min(each),
                        "power.pages_read_max": max(each),
                        "power.cuts_second_pass": sum(p > 1.5 * min(each) for p in each)})
        return row
    return run_rows(jobs, runs(seeds), one)


# --- the page ------------------------------------------------------------------------------------------------

def n(v, fmt=",.0f"):
    return "-" if v is None else format(v, fmt)


def pc(a, b):
    """a against b, in percent (signed)."""
    return f"{100 * (a - b) / b:+.0f} %"


def table_row(r, full_dram):
    """A point's row: counts as their mean over the seeds, the rest as mean ± 95 % interval (cell())."""
    m = r.get("mapping.mode") == "cached"
    dram = r["mapping.dram_bytes"] if m else full_dram
    waf = cell(r, "ftl.waf", ".3f")
    cells = ([cell(r, "mapping.hit_rate", ".4f"), n(r["mapping.misses"]), n(r["mapping.tp_reads"]),
              n(r["mapping.tp_writes"]), n(r["mapping.tgc_moves"]), waf,
              cell(r, "mapping.waf.translation", ".3f"), cell(r, "mapping.waf.total", ".3f")] if m else
             ["-"] * 5 + [waf, "0", waf])
    return (f"| {r['workload']} | {r['label']} | {dram / 1048576:.2f} | " + " | ".join(cells) + " | " +
            " | ".join(cell(r, f"latency_us.{k}", ",.1f") for k in ("read.mean", "read.p99", "write.mean",
                                                                    "write.p99")) +
            f" | {cell(r, 'host.iops', ',.0f')} |")


def plot(by, figs):
    plt = pyplot()
    if plt is None:
        return False
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    handles = []
    for w, _, _ in WORKLOADS:
        pts = [(1.0 / div, by[f"{w}-cmt{div}"]) for _, div in FRACTIONS]
        full = by[f"{w}-full"]
        xs = [x for x, _ in pts]
        line = axes[0].errorbar(xs, [r["mapping.waf.total"] for _, r in pts],
                                yerr=[half_width(r, "mapping.waf.total") for _, r in pts], fmt="o-", capsize=3, label=w)
        handles.append(line)
        c = line[0].get_color()
        axes[0].axhline(full["ftl.waf"], color=c, ls=":", lw=1)
        axes[1].errorbar(xs, [r["latency_us.read.mean"] for _, r in pts],
                         yerr=[half_width(r, "latency_us.read.mean") for _, r in pts], fmt="o-", capsize=3, color=c)
        axes[1].axhline(full["latency_us.read.mean"], color=c, ls=":", lw=1)
        axes[2].errorbar(xs, [r["mapping.hit_rate"] for _, r in pts],
                         yerr=[half_width(r, "mapping.hit_rate") for _, r in pts], fmt="o-", capsize=3, color=c)
    lat = [by[f"{w}-cmt{div}"]["latency_us.read.mean"] for w, _, _ in WORKLOADS for _, div in FRACTIONS]
    for ax, yl in zip(axes, ["WAF (host + GC + translation)", "read mean latency (us)", "CMT hit rate"]):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("cache size / table size")
        ax.set_ylabel(yl)
        ax.grid(alpha=0.3)
    if max(lat) / min(lat) > 100:
        axes[1].set_yscale("log")
    fig.legend(handles=handles, labels=[w for w, _, _ in WORKLOADS], loc="center left", bbox_to_anchor=(1.0, 0.5),
               title="workload (dotted: full table)", fontsize=8)
    fig.suptitle("Cached mapping table (DFTL) against the full table (dotted lines); one point: the mean of its "
                 "seeds, bars its 95 % interval", fontsize=10)
    fig.tight_layout()
    save_png_svg(plt, fig, os.path.join(figs, "dftl"))
    return True


def page(rows, data_dir, figs_rel, figs, command_line):
    by = by_point(rows)
    L = []
    A = L.append
    wall = sum(r["wall_s"] for r in rows)
    A("# Cached mapping table (DFTL) against the full in-DRAM table")
    A("")
    A("What does it cost to keep only part of the L2P in DRAM? `ftl.mapping: cached` (firmware/ftl/cmt.c, "
      "described in [docs/firmware/cmt.md](../firmware/cmt.md#cached-mapping-ftlcmtc-ftlmapping-cached)) against "
      "`ftl.mapping: full` on the default job's drive (1 GiB of flash, 896 MiB exported = 229,376 LBAs; a "
      "translation page holds 2,048 entries, so the table is 112 translation pages; 13 translation blocks: twice "
      "the 2 they fill, plus 1, plus one open block on each of the 8 dies), at four cache sizes: 1/64, 1/16, 1/4 "
      "and all of the table (`ftl.cmt.entries` = 3,584, 14,336, 57,344, 229,376). Three workloads: the default "
      "job's trace (MSR heimdall excerpt, folded, looped), and 200,000 synthetic 4 KiB requests (half reads, 4,000 "
      "per second) uniform over the drive and 80/20 hot/cold, each after the default job's preconditioning (fill "
      "+ one random drive-write + the first half of the workload, which also warms the cache); the second half is "
      "timed. Two more runs put the translation pages on one die (`ftl.cmt.stripe=1`) at 1/64.")
    A("")
    seeded = [p for p in by.values() if p["study"] in SEEDED]
    nseeds = max(len(p["runs"]) for p in seeded)
    line = seeds_line(seeded)
    A("Cache sizes and policies (the first table, the segmented-LRU section): " + line[0].lower() + line[1:]
      + ("" if nseeds < 2 else " Seed k sets " + " and ".join(f"`{k}`" for k in SEED_KEYS) + " to k (the "
         "synthetic requests and the preconditioning's random drive-write; the trace's requests are its own); "
         "the commands below are seed 1's, which leaves them at their defaults, and a change against another "
         "point is the mean of the per-seed changes with its interval.")
      + " The power-cut and ISS sections are checks of one run each, with the default seeds. Every run but the "
      "ISS study's sets `ftl.write.at_floor: pass` (the default is `room`; the commands below show it).")
    A("")
    A(f"Regenerate ({len(rows)} runs of the four studies on this page: {wall:,.0f} s of wall time summed as "
      f"results.csv records it, {load_of(data_dir)}; divide by `--jobs`; the figure needs matplotlib):")
    A("")
    A("```sh")
    A("bash scripts/build.sh && " + command_line)
    A("```")
    A("")
    A("Render again from the committed data: `python3 scripts/dftl.py --render docs/results/dftl --page "
      "docs/results/dftl.md`. Data: [dftl/results.csv](dftl/results.csv) (one row per run: the summary's "
      "figures the page uses and the run's wall time).")
    A("")
    A("## Results")
    A("")
    A("| workload | table | FTL DRAM MiB | hit rate | misses | translation reads | translation writes | "
      "translation GC moves | WAF host+GC | WAF translation | WAF total | read mean us | read p99 us | "
      "write mean us | write p99 us | IOPS |")
    A("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    cmt = [p for p in by.values() if p["study"] == "cmt"]
    for r in cmt:
        A(table_row(r, by[f"{r['workload']}-cmt64"]["mapping.dram_bytes_full_table"]))
    A("")
    A("```sh")
    for name, study, w, label, config, sets in points():
        if study == "cmt":
            A(" ".join(command("build", name, config, sets)))
    A("```")
    A("")
    if plot(by, figs):
        A(f"![WAF, read latency and hit rate against cache size]({figs_rel}/dftl.png)")
        A("")
        A(f"([SVG]({figs_rel}/dftl.svg))")
        A("")
    full_l2p = by["trace-cmt64"]["mapping.l2p_bytes_full_table"] / 1048576
    A("WAF host+GC is `ftl.waf` (host and relocated LBAs over host LBAs, as in full mode); WAF translation is "
      "translation page programs x 2 LBAs (8 KiB pages) over host LBAs; total is their sum. Hit rate counts host "
      "lookups only (GC's updates are not lookups). Latencies over the timed part. FTL DRAM is `ftl_dram_bytes` "
      f"(every table, ring and buffer the firmware lays out; the full table's L2P is {full_l2p:.3f} MiB of the "
      f"{by['trace-cmt64']['mapping.dram_bytes_full_table'] / 1048576:.2f} MiB).")
    A("")
    L += what_it_shows(by)
    L += slru_section(by)
    L += cuts_section(by)
    L += iss_section(by)
    L += design_notes(by)
    return L


def what_it_shows(by):
    L = []
    A = L.append
    t64, t16, t4, t1 = (by[f"trace-cmt{d}"] for d in (64, 16, 4, 1))
    tf, u64, uone, tone = by["trace-full"], by["uniform-cmt64"], by["uniform-cmt64-stripe1"], by["trace-cmt64-stripe1"]
    uf, u1 = by["uniform-full"], by["uniform-cmt1"]
    full_mib = t64["mapping.dram_bytes_full_table"] / 1048576
    A("## What it shows")
    A("")
    A(f"- **DRAM.** At 1/64 and 1/16 of the table the FTL takes {t64['mapping.dram_bytes'] / 1048576:.2f} and "
      f"{t16['mapping.dram_bytes'] / 1048576:.2f} MiB against {full_mib:.2f} MiB with the full table "
      f"({pc(t64['mapping.dram_bytes'] / 1048576, full_mib)} and {pc(t16['mapping.dram_bytes'] / 1048576, full_mib)}). "
      f"At 1/4 it takes {t4['mapping.dram_bytes'] / 1048576:.2f} MiB"
      + (", more than the full table" if t4["mapping.dram_bytes"] / 1048576 > full_mib else "")
      + ": a cached entry costs 28 to 32 bytes (LPN, slot address, LRU links, flags, hash index) against 4 for a "
      "table entry, so caching saves DRAM only below about an eighth of the table. The DRAM cost of an entry, not "
      "the hit rate, bounds how large a useful cache is in this firmware.")
    hs = [by[f"{w}-cmt{d}"]["mapping.hit_rate"] for w in ("uniform", "hotcold") for d in (64, 16, 4)]
    A(f"- **Hit rate follows the workload's locality, as DFTL reports.** The trace at 1/16: hit rate "
      f"{t16['mapping.hit_rate']:.2f}, read mean {change(t16, tf, 'latency_us.read.mean', '+.0f')} "
      f"and write mean {change(t16, tf, 'latency_us.write.mean', '+.0f')} against the full table; "
      f"at 1/64 hit rate {t64['mapping.hit_rate']:.2f} and a mean read latency "
      f"{t64['latency_us.read.mean'] / tf['latency_us.read.mean']:.1f} times the full table's. Uniform random gets "
      f"about the cache fraction ({hs[0]:.2f}, {hs[1]:.2f}, {hs[2]:.2f} at 1/64, 1/16, 1/4); 80/20 gets more "
      f"({hs[3]:.2f}, {hs[4]:.2f}, {hs[5]:.2f}; the hot fifth fits at 1/4). DFTL (Gupta et al., 2009) describes "
      "this: close to a page-level FTL with a small cache for workloads with temporal locality, and a large cost "
      "for random ones. MQSim (Tavakkol et al., FAST 2018) models the same cache; [mqsim.md](mqsim.md) says what "
      "of its published work we can compare.")
    gcu = [by[f"{w}-cmt64"]["mapping.tp_gc_updates"] for w, _, _ in WORKLOADS]
    dev = max(by[f"{w}-cmt{d}"]["mapping.dirty_evictions"] for w, _, _ in WORKLOADS for _, d in FRACTIONS)
    per = [by[f"{w}-cmt64"]["mapping.waf.translation"] for w, _, _ in WORKLOADS]
    A(f"- **Translation writes come from data GC, not from evictions.** Below the whole table, translation WAF is "
      f"{min(per):.2f} to {max(per):.2f} at 1/64 (trace {per[0]:.2f}, uniform {per[1]:.2f}, 80/20 {per[2]:.2f}), "
      "almost independent of the cache size (the table above). Nearly all are read-modify-writes for LBAs relocated "
      f"by data GC whose entries are not cached (`tp_gc_updates`: {min(gcu):,.0f} to {max(gcu):,.0f} at 1/64, against at "
      f"most {dev:,.0f} dirty evictions at any size: a GC-caused write-back also cleans that page's dirty cached "
      "entries, so few are dirty when evicted). This is DFTL's known weak point: GC moves pages without locality "
      "in the map.")
    A(f"- **Striping the translation pages over the 8 dies cuts the cost of a miss.** At 1/64, uniform: read mean "
      f"{u64['latency_us.read.mean']:,.0f} us and p99 {u64['latency_us.read.p99'] / 1000:,.1f} ms against "
      f"{uone['latency_us.read.mean']:,.0f} us and {uone['latency_us.read.p99'] / 1000:,.1f} ms on one die; the "
      f"trace: {t64['latency_us.read.mean'] / 1000:,.1f} ms against {tone['latency_us.read.mean'] / 1000:,.1f} ms "
      f"(p99 {t64['latency_us.read.p99'] / 1000:,.0f} ms against {tone['latency_us.read.p99'] / 1000:,.0f} ms). "
      "A miss no longer queues behind a die busy with every translation program. The price: write-backs run "
      f"sooner, so fewer updates merge into each (translation writes {u64['mapping.tp_writes']:,.0f} against "
      f"{uone['mapping.tp_writes']:,.0f}, {change(u64, uone, 'mapping.tp_writes', '+.0f')}; translation WAF "
      f"{u64['mapping.waf.translation']:.2f} against {uone['mapping.waf.translation']:.2f}); and the region grows "
      f"from 6 to 13 blocks, so data GC has 7 blocks less spare: WAF host+GC {u64['ftl.waf']:.3f} against "
      f"{uone['ftl.waf']:.3f} on uniform ({change(u64, uone, 'ftl.waf')}). Total WAF {u64['mapping.waf.total']:.2f} against "
      f"{uone['mapping.waf.total']:.2f} while latency falls: a trade-off, not a free gain.")
    A(f"- **Translation blocks wear out fast.** They stay in the region for good (no wear levelling with data "
      f"blocks): the drive's highest erase count is {u64['ftl.erase_count.max']:,.0f} at 1/64 on uniform "
      f"({uone['ftl.erase_count.max']:,.0f} on one die) against {uf['ftl.erase_count.max']:,.0f} with the full table, "
      f"whose mean is {uf['ftl.erase_count.mean']:.1f}. A real drive would move the region or level its wear.")
    A(f"- **A cache the size of the table is not the full table**: no translation traffic at all (every entry "
      f"stays cached, every miss is cold), but the region's 13 blocks leave less spare for data GC (uniform WAF "
      f"{u1['ftl.waf']:.3f} against {uf['ftl.waf']:.3f}), and the FTL's DRAM is "
      f"{u1['mapping.dram_bytes'] / u1['mapping.dram_bytes_full_table']:.1f} times the full table's.")
    A("- **The host hint on miss reads changes nothing here**, because these runs leave `flash.read_priority` and "
      "`flash.suspend.*` off (the defaults); with them on, a miss read overtakes queued programs like a host read.")
    A("")
    return L


def slru_section(by):
    L = []
    A = L.append
    A("## Segmented LRU (`ftl.cmt.policy: slru`)")
    A("")
    A("An entry enters a probationary segment; a hit while it is cached moves it to a protected segment of "
      "`ftl.cmt.protected` % of the cache (default 50), whose least recent entry goes back to the probationary "
      "head when it overflows; eviction takes the probationary tail first. The rows `slru` in the table above, "
      "against plain LRU at the same size:")
    A("")

    def vs(w, d):
        s, p = by[f"{w}-cmt{d}-slru"], by[f"{w}-cmt{d}"]
        return s, p
    s, p = vs("trace", 64)
    s16, p16 = vs("trace", 16)
    A(f"- **The trace at 1/64: hit rate {s['mapping.hit_rate']:.3f} against {p['mapping.hit_rate']:.3f} (misses "
      f"{change(s, p, 'mapping.misses', '+.0f')}), read mean {s['latency_us.read.mean'] / 1000:.2f} ms "
      f"against {p['latency_us.read.mean'] / 1000:.2f} ms "
      f"({change(s, p, 'latency_us.read.mean', '+.0f')}).** At 1/16: hit rate "
      f"{s16['mapping.hit_rate']:.3f} against {p16['mapping.hit_rate']:.3f}, read mean "
      f"{s16['latency_us.read.mean']:,.0f} us against {p16['latency_us.read.mean']:,.0f} us "
      f"({change(s16, p16, 'latency_us.read.mean', '+.0f')}).")
    s, p = vs("uniform", 64)
    A(f"- **Uniform random**: hit rate {s['mapping.hit_rate']:.3f} against {p['mapping.hit_rate']:.3f} at 1/64: "
      "there is no reuse to protect.")
    s, p = vs("hotcold", 64)
    s16, p16 = vs("hotcold", 16)
    A(f"- **80/20**: {s['mapping.hit_rate']:.3f} against {p['mapping.hit_rate']:.3f} at 1/64, "
      f"{s16['mapping.hit_rate']:.3f} against {p16['mapping.hit_rate']:.3f} at 1/16 (read mean "
      f"{change(s16, p16, 'latency_us.read.mean', '+.0f')}): the hot fifth is 46,000 entries, far more "
      "than either cache, so most hot entries are evicted before their second hit.")
    st, pt = vs("trace", 64)
    A(f"- **Total WAF**: translation writes come from data GC (above), which the policy does not touch: 80/20's "
      f"WAF is {s['mapping.waf.total']:.3f} against {p['mapping.waf.total']:.3f} at 1/64; the trace's "
      f"{st['mapping.waf.total']:.3f} against {pt['mapping.waf.total']:.3f} (host+GC {st['ftl.waf']:.3f} against "
      f"{pt['ftl.waf']:.3f}). The trace is replayed at its own times, and its host+GC WAF already moves between "
      f"{min(by[f'trace-cmt{d}']['ftl.waf'] for _, d in FRACTIONS):.3f} and "
      f"{max(by[f'trace-cmt{d}']['ftl.waf'] for _, d in FRACTIONS):.3f} across the LRU cache sizes, with when GC "
      "runs against the writes, and a different miss pattern shifts that timing: paired by seed, SLRU moves the "
      f"trace's host+GC WAF by {change(st, pt, 'ftl.waf')} at 1/64 and "
      f"{change(by['trace-cmt16-slru'], by['trace-cmt16'], 'ftl.waf')} at 1/16 against LRU.")
    A("")
    A("**The protected share** (`ftl.cmt.protected` at 25 / 50 / 75 %, the same commands with "
      "`--set ftl.cmt.protected=25` or `75`):")
    A("")
    A("| workload | cache | protected 25 % | 50 % (default) | 75 % | plain LRU |")
    A("|---|---|---|---|---|---|")
    for w, d, label in (("trace", 64, "1/64"), ("trace", 16, "1/16"), ("hotcold", 16, "1/16")):
        cells = [by[f"{w}-cmt{d}-slru-p25"], by[f"{w}-cmt{d}-slru"], by[f"{w}-cmt{d}-slru-p75"], by[f"{w}-cmt{d}"]]
        A(f"| {w} | {label} | " + " | ".join(f"hit rate {cell(r, 'mapping.hit_rate', '.3f')}, read mean "
                                              f"{cell(r, 'latency_us.read.mean', ',.0f')} us" for r in cells) + " |")
    A("")
    A("A small probationary segment cannot hold new entries long enough for their second hit, while the protected "
      "part keeps entries that stopped being hot; half is the default.")
    A("")
    return L


def cuts_section(by):
    L = []
    A = L.append
    A("## Power cuts with the cached mapping")
    A("")
    A("Recovery (firmware/ftl/cmt_recover.c, described in [docs/firmware/cmt.md](../firmware/cmt.md)) rebuilds "
      "the directory from the translation pages' OOB and takes, from the data pages' OOB, every LBA written after "
      "its translation page's copy; an entry that names a page lost in the cut falls back to the LBA's newest older "
      "copy. Twenty cuts asked in one run on the small drive (`configs/small.yaml`, 896 MiB exported, 8 dies), a "
      "cache of 1/64 of the table, hot/cold 4 KiB at 10,000 IOPS open loop, each cut followed by recovery, the "
      "scoreboard's check of every LBA, and the host going on:")
    A("")
    A("```sh")
    for name, study, w, label, config, sets in points():
        if study == "cuts":
            A(" ".join(command("build", name, config, sets)))
    A("```")
    A("")
    A("| run | cuts | violations | read mismatches | torn programs / erases | recovery mean / max | "
      "pages read mean (min..max) |")
    A("|---|---|---|---|---|---|---|")
    cuts = [by[k] for k in ("cuts-noplp", "cuts-plp", "cuts-noplp-full")]
    for r in cuts:
        A(f"| {r['label']} | {r['power.cuts']} | {r['power.violations']} | {r['integrity.mismatches']:,.0f} of "
          f"{r['integrity.reads_checked']:,.0f} | {r['power.torn_programs']:,.0f} / {r['power.torn_erases']:,.0f} | "
          f"{r['power.recovery_time_s_mean']:.3f} s / {r['power.recovery_time_s_max']:.3f} s | "
          f"{r['power.pages_read_mean']:,.0f} ({r['power.pages_read_min']:,.0f}..{r['power.pages_read_max']:,.0f}) |")
    A("")
    short = [r for r in cuts if r["power.cuts"] < r["power.cuts_asked"]]
    if short:
        A("(`power.cuts_span` is counted in the time the drive is powered; "
          + "; ".join(f"the {r['label']} run ended after {r['power.cuts']} of its {r['power.cuts_asked']} instants"
                      for r in short) + ".)")
        A("")
    nop, plp, full = cuts
    viol = sum(r["power.violations"] for r in cuts) + sum(r["integrity.mismatches"] for r in cuts)
    A("What it shows:")
    A("")
    A(f"- **{'No violation at any cut' if not viol else f'{viol} violations or mismatches'}**, with and without "
      f"power-loss protection, during GC ({nop['power.during_gc']} of {nop['power.cuts']} cuts without PLP found a GC "
      "victim open) and with translation write-backs and translation GC in flight.")
    A(f"- **Recovery reads about as many pages as the full table's scan** (with PLP: "
      f"{plp['power.pages_read_mean']:,.0f} against {full['power.pages_read_mean']:,.0f}, "
      f"{pc(plp['power.pages_read_mean'], full['power.pages_read_mean'])}: page 0 of each data block is read twice, "
      f"once to tell translation blocks from data blocks), and takes "
      f"{plp['power.recovery_time_s_mean']:.3f} s against {full['power.recovery_time_s_mean']:.3f} s: it also reads "
      "and rewrites the translation pages with newer LBAs.")
    A(f"- **Without power-loss protection, {nop['power.cuts_second_pass']} of {nop['power.cuts']} cuts read the flash "
      f"about twice** (up to {nop['power.pages_read_max']:,.0f} pages, {nop['power.recovery_time_s_max']:.2f} s): a "
      "translation page had been written back naming a write that still sat in a page buffer, lost in the cut, so "
      "the LBA's older copy is looked for in a second pass over the data pages. A firmware that kept such entries "
      "out of the write-back until their page is programmed would not need the second pass; that is not built.")
    A("- Left alone: with `power.cuts`, the summary's `ftl` and `mapping` figures over the timed part (WAF, GC "
      "runs, hit rate) are not meaningful in any mapping mode (a recovered firmware's counters start at 0 and the "
      "difference wraps); the per-cut `power.each` figures above are right.")
    A("")
    return L


def iss_section(by):
    L = []
    A = L.append
    A("## The cached mapping on the ISS and natively")
    A("")
    A("`IssMode.CachedMappingMakesTheSameDecisions` (`testbench/platform/iss_mode_test.cpp`) runs one quiet "
      "workload (256 MiB of flash aged to GC, then 4,000 requests at 20 per second, a cache of 4,096 entries, "
      "translation pages of 256) natively and on the RV32 ISS. The cache's decisions (lookups, hits, misses, "
      "evictions) are equal to the last count; WAF, GC writes and translation traffic are held to 5 %, because "
      "they depend on timing. The same runs here (CPU time is the summary's `cpu.compute_s + cpu.bus_s`):")
    A("")
    A("| run | CPU time (s) | WAF (timed part) | GC victims | updates of entries not cached | translation writes |")
    A("|---|---|---|---|---|---|")
    iss = [r for r in by.values() if r["study"] == "iss"]
    for r in iss:
        m = r.get("mapping.mode") == "cached"
        A(f"| {r['label']} | {r['cpu.compute_s'] + r['cpu.bus_s']:.3f} | {r['ftl.waf']:.3f} | {r['ftl.gc_runs']:,.0f} | "
          + (f"{r['mapping.tp_gc_updates']:,.0f} | {r['mapping.tp_writes']:,.0f} |" if m else "- | - |"))
    A("")
    nat = [by[f"iss-native-{hz / 1e9:g}"]["ftl.waf"] for hz in CLOCKS]
    slow = [by[f"iss-slow-{hz / 1e9:g}"]["ftl.waf"] for hz in (1e9, 7e8, 4e8)]
    full = [by[f"iss-full-{hz / 1e9:g}"]["ftl.waf"] for hz in (1e9, 4e8)]
    i, n1 = by["iss-iss"], by["iss-native-1"]
    A(f"- **The spread is a timing effect, not a difference between the CPUs.** The timed part writes few host "
      f"LBAs, so its WAF counts about {n1['ftl.gc_runs']} GC victims: a few victims more or fewer move it by "
      "percents. With the cached mapping, GC's translation work (a relocated LBA whose entry is not cached goes "
      "into the log and costs a read-modify-write of its translation page; a full log holds GC until a write-back "
      "empties it) is still in flight when some requests arrive; where they fall depends on the CPU time of "
      "everything before, and greedy's choice of the next victims follows. Changing nothing but the native clock "
      f"moves WAF between {min(nat):.3f} and {max(nat):.3f} ({', '.join(f'{x:.3f}' for x in nat)} at "
      f"{', '.join(f'{hz / 1e9:g}' for hz in CLOCKS)} GHz); the full table, whose GC ends between requests, gives "
      f"{' and '.join(f'{x:.3f}' for x in full)} at 1 and 0.4 GHz; with requests ten times rarer the cached WAF is "
      f"{', '.join(f'{x:.3f}' for x in slow)} at 1, 0.7 and 0.4 GHz. The ISS gives {i['ftl.waf']:.3f} against "
      f"{n1['ftl.waf']:.3f} natively at the same clock ({pc(i['ftl.waf'], n1['ftl.waf'])}).")
    A(f"- **The cost tables charge the two modes differently for the same work** "
      f"({i['cpu.compute_s'] + i['cpu.bus_s']:.3f} s on the ISS against "
      f"{n1['cpu.compute_s'] + n1['cpu.bus_s']:.3f} s natively): the native table is calibrated on full-table runs, "
      "and cmt.c's own work (hashing, LRU links, loading entries, merging a write-back) has no operation of its "
      "own, so natively it costs nothing, while on the ISS its instructions are charged to the next marker. "
      "Latencies of native cached runs (the first table) leave out that CPU time.")
    A("- Left alone: operations of its own for the cached mapping's work in `firmware/hal/fw_ops.def` (a "
      "cost-table change that would move every native cached figure) and a calibration run in cached mode "
      "(`scripts/calibrate.py`).")
    A("")
    A("```sh")
    A(f"cat > {QUIET_CFG} <<'YAML'   # the test's workload (testbench/platform/iss_drive.h, kIssQuiet)")
    A(ISS_QUIET_YAML.rstrip("\n"))
    A("YAML")
    for name, study, w, label, config, sets in points():
        if study == "iss":
            A(" ".join(command("build", name, config, sets)))
    A("```")
    A("")
    return L


def design_notes(by):
    plp = by["cuts-plp"]
    return f"""## Checkpoints and saved drives with the cached mapping: what they need

Both stay refused in cached mode (`power.checkpoint.*` is a configuration error naming the key;
`--save-state` fails with a log line). This is what each needs, from reading `ckpt.c`, `state.c`,
`cmt.c`, `cmt_recover.c` and `platform/run/saved_state.cpp`.

**Checkpoints.** In cached mode the translation pages already are the persistent map, so a
checkpoint would not make the map durable; it would bound recovery, which today probes page 0 of
every block and reads every data block ({plp['power.pages_read_mean']:,.0f} pages,
{plp['power.recovery_time_s_mean']:.2f} s on the small drive above). A checkpoint would be:

1. a flush of the cache: a write-back (read-modify-write) of every translation page with dirty
   cached entries (`tp_dirty`) or pending updates in the log (`tp_log`), through cmt.c's own
   queue, waiting until `cmt_busy()` is 0; its cost is the number of such pages, counted as
   translation writes;
2. then the image ckpt.c already writes to its two alternating areas, with the global translation
   directory (`gtd`: 4 bytes per translation page, 448 bytes for the default drive's 112 pages) in
   place of the L2P (`ckpt_image_bytes` depends on the mapping), the block table, and the
   sequence number S taken when the flush ended;
3. recovery (`cmt_recover`) reading the newest whole checkpoint first: the directory and block
   states from it, then only the data blocks written after S scanned for candidates, and rec_fix's
   round 1 as today on the translation pages those candidates touch; the trim log (trimlog.c)
   after the checkpoint as in full mode, since a deallocation of an entry that is not cached
   waits in the log until its page's write-back.

In code: one call in ckpt.c where a checkpoint starts (`cmt_ckpt_flush`, in cmt.c, returning
whether the flush is done), the image's L2P part taken from `gtd` in cached mode, the
configuration check in cmt.c lifted, and a checkpoint branch at the start of cmt_recover.c.

**Saved drives** (`--save-state`, `--load-state`, [docs/state.md](../state.md)):

1. the translation pages' bytes: they are the flash controller's metadata payloads
   (`FlashCtrl::meta_`, one byte vector per programmed row), which no image holds today; a
   `meta.img` (row, length, bytes) written and read by saved_state.cpp through two accessors on
   FlashCtrl, and the state format's version raised;
2. the firmware's `struct cmt` inside `struct ftl`: its scalars (used, LRU heads and tails, log
   counts, region write pointers, the translation GC victim) are saved with it, but it holds about
   25 windows onto DRAM (`hhead`, `e_*`, `gtd`, `tp_*`, `queue`, `lhead`, `l_*`, the region's
   tables, `lopen`, `ops` and each operation's buffer); `ftl_state_load` keeps this instance's
   windows for the full table's fields, and would need one call (`cmt_state_load(f, &cur)`, in
   cmt.c) to do the same for struct cmt; `ftl_state_save` refusing while `cmt_busy()`;
3. `ftl.mapping` and the `ftl.cmt.*` keys that shape the drive (entries, tp_entries, stripe,
   translation_blocks, log_entries, buffers) added to the keys a loaded drive must match;
4. a `SavedState` test in cached mode: the loaded run's summary equal to the run that aged itself.

Not built: translation-block wear levelling; checkpoints and saved drives with the cached
mapping (above, and docs/firmware/cmt.md).
""".splitlines()


def main():
    ap = seed_arg(data_args(__doc__, "dftl"))
    a = ap.parse_args()
    if a.seeds < 1 or a.jobs < 1:
        ap.error("--seeds and --jobs: expected 1 or more")
    page_path = os.path.abspath(a.page)
    figs_rel = "dftl"
    figs = os.path.join(os.path.dirname(page_path), figs_rel)
    rows, data = page_rows(a, "dftl", command_for(a.seeds), lambda build, jobs: run_all_points(build, jobs, a.seeds))
    nseeds = max(r.get("seed") or 1 for r in rows)
    write_lines(page_path, page(rows, data, figs_rel, figs, command_for(nseeds)), data, command_for(nseeds))


if __name__ == "__main__":
    main()
