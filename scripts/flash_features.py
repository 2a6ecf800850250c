#!/usr/bin/env python3
"""flash_features.py - runs the flash-feature experiments (program/erase suspend
and read priority, page-type latencies, multi-plane operations, GC victim
pairing, the same-block-index rule, copyback), keeps what the page needs in
docs/results/flash-features/ (results.csv, one row per run with its wall time,
and provenance.json) and writes docs/results/flash-features.md with its figures
from that data and the text of scripts/flash_features_page.md.in.

    python3 scripts/flash_features.py [BUILD_DIR] [--jobs N]          runs everything (one at a time)
    python3 scripts/flash_features.py --render DATA_DIR --page OUT_MD  runs nothing: the page from data

Every run is `ssdvp run -c configs/default.yaml` (or configs/small.yaml) with
the --set overrides listed on the page; each writes
out/flash-features/<name>/summary.json.
"""
import os
import sys

from runpoint import (data_args, load_of, load_summary, page_rows, pick, run_point, run_rows, save_png_svg, ssdvp_run,
                      write_lines)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "out", "flash-features")
COMMAND = "python3 scripts/flash_features.py"
TEMPLATE = os.path.join(ROOT, "scripts", "flash_features_page.md.in")
FIGS = None  # the figures' folder: beside the page, set by main()
# what results.csv keeps of each summary (dotted names; a trailing '.' keeps everything under it)
KEEP = ["latency_us.read.mean", "latency_us.read.p50", "latency_us.read.p99", "latency_us.read.p999",
        "latency_us.read.p9999", "latency_us.write.mean", "latency_us.write.p50", "latency_us.write.p99",
        "latency_us.write.p999", "latency_us.write.p9999", "host.iops", "host.write_bytes", "host.sim_time_s",
        "host.errors", "utilization.die_mean", "utilization.channel_mean", "ftl.waf", "ftl.write_stalls",
        "ftl.gc_active_s", "ftl.gc_lba_writes", "ftl.erases", "ftl.gc_paired", "ftl.mp_index_fallbacks",
        "ftl.mp_index_splits", "ftl.gc_copyback_partial", "ftl.gc_copyback_stale", "ftl.gc_copyback_capped",
        "flash.programs", "flash.suspends", "flash.read_bypasses", "flash.multiplane_ops", "flash.copybacks",
        "reliability.flash.reads_retried", "reliability.flash.uncorrectable_reads", "reliability.ftl.lost_lbas",
        "integrity.reads_checked", "integrity.mismatches"]
DATA = {}  # name -> the run's summary, rebuilt from results.csv (main)

SUS = ["flash.suspend.enable=true"]
PRIO = ["flash.read_priority=true"]
SUSPEND_RUNS = [
    ("fifo", "submission order per die (the default)", []),
    ("priority", "host reads overtake queued programs/erases/GC reads", PRIO),
    ("suspend", "host reads suspend a running program/erase", SUS),
    ("prio+suspend", "both", PRIO + SUS),
    ("prio+suspend-max1", "both, at most 1 suspension per operation", PRIO + SUS + ["flash.suspend.max_per_op=1"]),
    ("prio+suspend-slow", "both, tSUS and resume 50 us", PRIO + SUS + ["flash.suspend.latency=50us", "flash.suspend.resume=50us"]),
    ("all-prio+suspend", "both, for GC reads too", PRIO + SUS + ["flash.priority_reads=all"]),
]
# The same two schedulers on drives aged with other random seeds: how much the
# tail moves when only the preconditioning's random overwrites change.
SUSPEND_RUNS += [(f"{n}-seed{k}", f"{d}; precondition.seed={k}", s + [f"precondition.seed={k}"])
                 for k in (2, 3) for n, d, s in SUSPEND_RUNS[:1] + SUSPEND_RUNS[3:4]]
# One geometry for every cell type: 48 pages per block divide by 1..4 bits;
# 341 blocks per plane keep the flash at 1023 MiB (default: 1024 MiB).
CELL_GEO = ["flash.pages_per_block=48", "flash.blocks_per_plane=341"]
# Illustrative per-page-type tables (not from one datasheet): reads and
# programs slow down with each bit, the upper pages most.
CELLS = {
    "slc": [],
    "mlc": ["flash.cell.bits=2", "flash.timing.read_types=20us,35us", "flash.timing.program_types=200us,800us"],
    "tlc": ["flash.cell.bits=3", "flash.timing.read_types=20us,35us,55us",
            "flash.timing.program_types=200us,600us,1400us"],
    "qlc": ["flash.cell.bits=4", "flash.timing.read_types=20us,35us,55us,80us",
            "flash.timing.program_types=200us,600us,1400us,3000us"],
}
CELL_RUNS = [("cell-" + k, k.upper() + ", page by page", CELL_GEO + v) for k, v in CELLS.items()]
CELL_RUNS += [("cell-tlc-oneshot", "TLC, one-shot", CELL_GEO + CELLS["tlc"] + ["flash.cell.program_order=oneshot"])]
CELL_RUNS += [("cell-tlc-suspend", "TLC, one-shot, priority + suspend",
               CELL_GEO + CELLS["tlc"] + ["flash.cell.program_order=oneshot"] + PRIO + SUS)]

# Multi-plane (ftl.multiplane): the same flash (8 dies, 256 blocks of 64 pages
# each) as 1, 2 or 4 planes per die, with and without multi-plane operations;
# first the default job, then a saturating random-write run on configs/small.yaml.
def planes(p):
    return [f"flash.planes_per_die={p}", f"flash.blocks_per_plane={256 // p}"] if p > 1 else []


# "on" is ftl.multiplane=1 with its defaults (pages held up to 1 ms for their
# plane siblings, planes realigned); "plain" is multi-plane as it was before
# ftl.multiplane_hold and ftl.multiplane_align (each page programmed as soon
# as it is full, planes left to drift apart); "hold" and "align" each alone.
MP_VARIANTS = [("on", "multiplane on", []),
               ("plain", "multiplane on, no hold, no align", ["ftl.multiplane_hold=0ns", "ftl.multiplane_align=0"]),
               ("hold", "multiplane on, hold only", ["ftl.multiplane_align=0"]),
               ("align", "multiplane on, align only", ["ftl.multiplane_hold=0ns"])]
MP_RUNS = []
for _p in (1, 2, 4):
    _pl = f"{_p} plane{'s' if _p > 1 else ''}"
    MP_RUNS.append((f"mp-p{_p}-off", f"{_pl}, multiplane off", planes(_p)))
    for _v, _d, _s in MP_VARIANTS[:1] if _p == 1 else MP_VARIANTS:
        MP_RUNS.append((f"mp-p{_p}-{_v}", f"{_pl}, {_d}", planes(_p) + ["ftl.multiplane=1"] + _s))
MP_WRITE = ["workload.synthetic.read_fraction=0", "workload.synthetic.requests=40000", "precondition.fill=1",
            "precondition.random_drive_writes=1"]
MP_BW_RUNS = [("w" + n, d + ", random writes QD32", ["@configs/small.yaml"] + MP_WRITE + s) for n, d, s in MP_RUNS]
# The hold bound on the same load (2 planes, align on): 0 (align only) and 1 ms (on) are rows above.
MP_BW_RUNS += [(f"wmp-p2-hold{t}", f"2 planes, multiplane on, hold {t}, random writes QD32",
                ["@configs/small.yaml"] + MP_WRITE + planes(2) + ["ftl.multiplane=1", f"ftl.multiplane_hold={t}"])
               for t in ("200us", "5ms")]

# GC victim pairing (ftl.gc.pair_planes) on the multi-plane runs above: 2 and 4
# planes with multi-plane on, without and with pairing; the default job, then
# the saturating random writes.
PAIR_RUNS = [(f"mp-p{p}-on", f"{p} planes, multiplane on", planes(p) + ["ftl.multiplane=1"]) for p in (2, 4)]
PAIR_RUNS += [(f"mp-p{p}-pair", f"{p} planes, multiplane on, GC victims paired",
               planes(p) + ["ftl.multiplane=1", "ftl.gc.pair_planes=1"]) for p in (2, 4)]
PAIR_RUNS += [("w" + n, d + ", random writes QD32", ["@configs/small.yaml"] + MP_WRITE + s) for n, d, s in PAIR_RUNS]

# The same-block-index rule (flash.multiplane_same_block): multi-plane on 2 and 4
# planes without and with the rule (and with victim pairing under it), on the
# default job and the saturating random writes.
SAME = ["flash.multiplane_same_block=true"]
SAME_RUNS = []
for _p in (2, 4):
    SAME_RUNS += [(f"mp-p{_p}-on", f"{_p} planes, multiplane on", planes(_p) + ["ftl.multiplane=1"]),
                  (f"mp-p{_p}-same", f"{_p} planes, multiplane on, same block index",
                   planes(_p) + ["ftl.multiplane=1"] + SAME),
                  (f"mp-p{_p}-same-pair", f"{_p} planes, multiplane on, same block index, GC victims paired",
                   planes(_p) + ["ftl.multiplane=1", "ftl.gc.pair_planes=1"] + SAME)]
SAME_BW_RUNS = [("w" + n, d + ", random writes QD32", ["@configs/small.yaml"] + MP_WRITE + s) for n, d, s in SAME_RUNS]

# Copyback (ftl.gc.copyback): the default job and the saturating random writes
# above, off and on; then with bit errors, where copies carry them forward.
CB = ["ftl.gc.copyback=1", "ftl.gc.copyback_max_hops=1"]
CB4 = ["ftl.gc.copyback=1", "ftl.gc.copyback_max_hops=4"]
CB_RUNS = [("cb-off", "copyback off (the default)", []),
           ("cb-on", "copyback on (at most 1 hop, the default)", CB),
           ("cb-hop4", "copyback on, at most 4 hops", CB4)]
CB_RUNS += [("cb-ps-off", "copyback off, read priority + suspend", PRIO + SUS),
            ("cb-ps-hop4", "copyback on (4 hops), read priority + suspend", PRIO + SUS + CB4)]
CB_RUNS += [(f"{n}-seed{k}", f"{d}; precondition.seed={k}", s + [f"precondition.seed={k}"])
            for k in (2, 3) for n, d, s in (CB_RUNS[0], CB_RUNS[2])]
CB_RUNS += [("w" + n, d + ", random writes QD32", ["@configs/small.yaml"] + MP_WRITE + s) for n, d, s in CB_RUNS[:3]]
# Copyback of partly valid pages (ftl.gc.copyback_min_valid): with 2 slots a
# page, 50 % lets a page with one valid slot go by copyback too.
PART = ["ftl.gc.copyback_min_valid=50"]
CB_PART_RUNS = [CB_RUNS[0], CB_RUNS[1], CB_RUNS[2],
                ("cb-part", "copyback on (1 hop), partly valid pages too", CB + PART),
                ("cb-part-hop4", "copyback on (4 hops), partly valid pages too", CB4 + PART)]
CB_PART_RUNS += [(f"{n}-seed{k}", f"{d}; precondition.seed={k}", s + [f"precondition.seed={k}"])
                 for k in (2, 3) for n, d, s in (CB_PART_RUNS[4],)]
CB_PART_RUNS += [("w" + n, d + ", random writes QD32", ["@configs/small.yaml"] + MP_WRITE + s)
                 for n, d, s in CB_PART_RUNS[:5]]
# Bit errors: about 16 raw errors per 4 KiB codeword on a fresh page (ECC corrects 72), more with wear.
ECC = ["flash.ecc.rber=0.0005", "flash.ecc.rber_per_pe=0.00001"]
CB_ECC_RUNS = [("cb-ecc-off", "bit errors, copyback off", ECC),
               ("cb-ecc-on", "bit errors, copyback on (at most 1 hop, the default)", ECC + CB),
               ("cb-ecc-hop2", "bit errors, copyback on, at most 2 hops", ECC + ["ftl.gc.copyback=1", "ftl.gc.copyback_max_hops=2"]),
               ("cb-ecc-hop4", "bit errors, copyback on, at most 4 hops", ECC + CB4)]


def command(build, name, sets):
    config = "configs/default.yaml"
    if sets and sets[0].startswith("@"):
        config, sets = sets[0][1:], sets[1:]
    # every run sets the write path's floor rule to pass (the default is room)
    return ssdvp_run(build, config, "flash-features", name, sets + ["ftl.write.at_floor=pass"])


def all_runs():
    """Every run of the page, once each, in the page's order."""
    out, seen = [], set()
    for group in (SUSPEND_RUNS, CELL_RUNS, MP_RUNS, MP_BW_RUNS, PAIR_RUNS, SAME_RUNS, SAME_BW_RUNS, CB_RUNS,
                  CB_ECC_RUNS, CB_PART_RUNS):
        for r in group:
            if r[0] not in seen:
                seen.add(r[0])
                out.append(r)
    return out


def run_all_points(build, jobs):
    def one(r):
        name, desc, sets = r
        wall = run_point(command(build, name, sets), name)
        row = {"name": name, "wall_s": round(wall, 1)}
        row.update(pick(load_summary(OUT, name), KEEP))
        return row
    return run_rows(jobs, all_runs(), one)


def unflatten(row):
    """A summary-shaped dict from a results.csv row (empty cells left out)."""
    j = {}
    for k, v in row.items():
        if v is None or k in ("name", "wall_s"):
            continue
        d = j
        *path, last = k.split(".")
        for p in path:
            d = d.setdefault(p, {})
        d[last] = v
    return j


def load(name):
    return DATA.get(name)


def fmt(v, nd=1):
    return f"{v:,.{nd}f}"


def lat_row(name, desc, j):
    r, w = j["latency_us"]["read"], j["latency_us"]["write"]
    fl = j["flash"]
    return (f"| {name} | {desc} | {fmt(r['mean'])} | {fmt(r['p50'])} | {fmt(r['p99'])} | {fmt(r['p999'])} | "
            f"{fmt(r['p9999'])} | {fmt(w['mean'])} | {fmt(w['p99'])} | {fmt(w['p999'])} | {fmt(j['host']['iops'], 0)} | {j['utilization']['die_mean']:.2f} | "
            f"{j['ftl']['waf']:.3f} | {j['ftl']['write_stalls']:,} | {fl.get('suspends', 0):,} | "
            f"{fl.get('read_bypasses', 0):,} |")


HEAD = ("| run | setting | read mean | p50 | p99 | p99.9 | p99.99 | write mean | p99 | p99.9 | IOPS | die busy | WAF | "
        "write stalls | suspends | read bypasses |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def plot(runs, fname, title):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return False
    qs = ["p50", "p99", "p999", "p9999"]
    labels = ["p50", "p99", "p99.9", "p99.99"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    colors = plt.cm.tab20.colors
    width = 0.8 / max(1, len(runs))
    for ax, kind in zip(axes, ["read", "write"]):
        for i, (name, j) in enumerate(runs):
            vals = [j["latency_us"][kind][q] for q in qs]
            ax.bar([x + i * width for x in range(len(qs))], vals, width, label=name, color=colors[i % len(colors)])
        ax.set_xticks([x + width * (len(runs) - 1) / 2 for x in range(len(qs))])
        ax.set_xticklabels(labels)
        ax.set_yscale("log")
        ax.set_ylabel(f"{kind} latency (us)")
        ax.grid(axis="y", alpha=0.3)
    axes[1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.02, 0.5))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save_png_svg(plt, fig, os.path.join(FIGS, fname))
    return True


def section(build, runs, fig, title):
    have = [(n, d, s, load(n)) for n, d, s in runs]
    have = [h for h in have if h[3] is not None]
    if not have:
        return ["(not run yet)"]
    lines = [HEAD] + [lat_row(n, d, j) for n, d, s, j in have] + [""]
    lines += ["Latencies in us over the timed part; IOPS, mean die utilisation, WAF, write stalls (host writes that"
              " waited for a free page buffer or block) and the flash counters from each run's `summary.json`."
              " The runs:", "",
              "```sh"]
    for n, d, s, j in have:
        lines.append(" ".join(command("build", n, s)))
    lines += ["```", ""]
    if plot([(n, j) for n, d, s, j in have], fig, title):
        lines += [f"![{title}](flash-features/{fig}.png) ([SVG](flash-features/{fig}.svg))", ""]
    return lines


MP_HEAD = ("| run | setting | write MB/s | write mean | p99 | read mean | p99 | WAF | GC active (s) | GC LBAs | "
           "programs | multi-plane ops | die busy |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def write_cells(name, desc, j):
    """The first cells of a multi-plane or pairing row: bandwidth, latencies, WAF, GC time."""
    r, w, f = j["latency_us"]["read"], j["latency_us"]["write"], j["ftl"]
    wmbps = j["host"]["write_bytes"] / 1e6 / max(j["host"]["sim_time_s"], 1e-12)
    return (f"| {name} | {desc} | {wmbps:.1f} | {fmt(w['mean'])} | {fmt(w['p99'])} | {fmt(r['mean'])} | "
            f"{fmt(r['p99'])} | {f['waf']:.3f} | {f['gc_active_s']:.2f} | ")


def mp_row(name, desc, j):
    f, fl = j["ftl"], j["flash"]
    return (write_cells(name, desc, j) + f"{f['gc_lba_writes']:,} | "
            f"{fl['programs']:,} | {fl.get('multiplane_ops', 0):,} | {j['utilization']['die_mean']:.3f} |")


def mp_section(runs):
    return table_section(runs, MP_HEAD, mp_row)


PAIR_HEAD = ("| run | setting | write MB/s | write mean | p99 | read mean | p99 | WAF | GC active (s) | erases | "
             "paired victims | multi-plane ops | die busy |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def pair_row(name, desc, j):
    f, fl = j["ftl"], j["flash"]
    return (write_cells(name, desc, j) + f"{f['erases']:,} | {f.get('gc_paired', 0):,} | "
            f"{fl.get('multiplane_ops', 0):,} | {j['utilization']['die_mean']:.3f} |")


SAME_HEAD = ("| run | setting | write MB/s | write mean | p99 | read mean | p99 | WAF | GC active (s) | "
             "programs | multi-plane ops | index fallbacks | index splits | die busy |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def same_row(name, desc, j):
    f, fl = j["ftl"], j["flash"]
    return (write_cells(name, desc, j) + f"{fl['programs']:,} | {fl.get('multiplane_ops', 0):,} | "
            f"{f.get('mp_index_fallbacks', 0):,} | {f.get('mp_index_splits', 0):,} | "
            f"{j['utilization']['die_mean']:.3f} |")


CB_PART_HEAD = ("| run | setting | WAF | GC LBAs | erases | copybacks | partly valid | stale slots | GC active (s) | "
                "read mean | p99 | p99.9 | write MB/s | die busy | channel busy |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def cb_part_row(name, desc, j):
    r, f, fl, u = j["latency_us"]["read"], j["ftl"], j["flash"], j["utilization"]
    wmbps = j["host"]["write_bytes"] / 1e6 / max(j["host"]["sim_time_s"], 1e-12)
    return (f"| {name} | {desc} | {f['waf']:.3f} | {f['gc_lba_writes']:,} | {f['erases']:,} | "
            f"{fl.get('copybacks', 0):,} | {f.get('gc_copyback_partial', 0):,} | {f.get('gc_copyback_stale', 0):,} | "
            f"{f['gc_active_s']:.2f} | {fmt(r['mean'])} | {fmt(r['p99'])} | {fmt(r['p999'])} | {wmbps:.1f} | "
            f"{u['die_mean']:.3f} | {u['channel_mean']:.4f} |")


CB_HEAD = ("| run | setting | WAF | GC LBAs | copybacks | capped | GC active (s) | read mean | p99 | p99.9 | "
           "write mean | p99 | write MB/s | die busy | channel busy |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def cb_row(name, desc, j):
    r, w, f, fl, u = j["latency_us"]["read"], j["latency_us"]["write"], j["ftl"], j["flash"], j["utilization"]
    wmbps = j["host"]["write_bytes"] / 1e6 / max(j["host"]["sim_time_s"], 1e-12)
    return (f"| {name} | {desc} | {f['waf']:.3f} | {f['gc_lba_writes']:,} | {fl.get('copybacks', 0):,} | "
            f"{f.get('gc_copyback_capped', 0):,} | {f['gc_active_s']:.2f} | {fmt(r['mean'])} | {fmt(r['p99'])} | "
            f"{fmt(r['p999'])} | {fmt(w['mean'])} | {fmt(w['p99'])} | {wmbps:.1f} | {u['die_mean']:.3f} | "
            f"{u['channel_mean']:.4f} |")


CB_ECC_HEAD = ("| run | setting | WAF | copybacks | flash reads retried | uncorrectable flash reads | LBAs lost by GC | "
               "host read errors | read mean | p99 |\n|---|---|---|---|---|---|---|---|---|---|")


def cb_ecc_row(name, desc, j):
    rf, rt, r = j["reliability"]["flash"], j["reliability"]["ftl"], j["latency_us"]["read"]
    return (f"| {name} | {desc} | {j['ftl']['waf']:.3f} | {j['flash'].get('copybacks', 0):,} | "
            f"{rf['reads_retried']:,} | {rf['uncorrectable_reads']:,} | {rt['lost_lbas']:,} | {j['host']['errors']:,} | "
            f"{fmt(r['mean'])} | {fmt(r['p99'])} |")


def table_section(runs, head, row):
    have = [(n, d, s, load(n)) for n, d, s in runs]
    have = [h for h in have if h[3] is not None]
    if not have:
        return ["(not run yet)"]
    lines = [head] + [row(n, d, j) for n, d, s, j in have] + ["", "```sh"]
    lines += [" ".join(command("build", n, s)) for n, d, s, j in have]
    return lines + ["```", ""]


def main():
    global FIGS
    a = data_args(__doc__, "flash-features").parse_args()
    page_path = os.path.abspath(a.page)
    FIGS = os.path.join(os.path.dirname(page_path), "flash-features")
    rows, data = page_rows(a, "flash-features", COMMAND, run_all_points)
    DATA.clear()
    DATA.update({r["name"]: unflatten(r) for r in rows})
    wall = sum(r["wall_s"] for r in rows)
    with open(TEMPLATE) as f:
        page = f.read()
    page = page.replace("{{COST}}", f"{len(rows)} runs, one at a time: {wall:,.0f} s of wall time summed as "
                                    f"results.csv records it, {load_of(data)}")
    page = page.replace("{{SUSPEND}}", "\n".join(section(None, SUSPEND_RUNS, "suspend", "Read priority and suspend")))
    page = page.replace("{{CELLS}}", "\n".join(section(None, CELL_RUNS, "cells", "Page types")))
    page = page.replace("{{MULTIPLANE}}", "\n".join(mp_section(MP_RUNS)))
    page = page.replace("{{MULTIPLANE_WRITES}}", "\n".join(mp_section(MP_BW_RUNS)))
    page = page.replace("{{PAIRING}}", "\n".join(table_section(PAIR_RUNS, PAIR_HEAD, pair_row)))
    page = page.replace("{{COPYBACK}}", "\n".join(table_section(CB_RUNS, CB_HEAD, cb_row)))
    page = page.replace("{{SAMEBLOCK}}", "\n".join(table_section(SAME_RUNS, SAME_HEAD, same_row)))
    page = page.replace("{{SAMEBLOCK_WRITES}}", "\n".join(table_section(SAME_BW_RUNS, SAME_HEAD, same_row)))
    page = page.replace("{{COPYBACK_PARTIAL}}", "\n".join(table_section(CB_PART_RUNS, CB_PART_HEAD, cb_part_row)))
    page = page.replace("{{COPYBACK_ECC}}", "\n".join(table_section(CB_ECC_RUNS, CB_ECC_HEAD, cb_ecc_row)))
    write_lines(page_path, [page.rstrip("\n"), ""], data, COMMAND)


if __name__ == "__main__":
    main()
